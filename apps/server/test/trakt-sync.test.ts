import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TraktStatus, WatchHistoryItem } from '@marquee/contract';
import { startFakeTrakt, type FakeTrakt } from './fake-trakt.ts';
import {
  login,
  movieMeta,
  register,
  showMeta,
  startSyncApp,
  type SignedIn,
  type SyncTestApp,
} from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/*
 * The server's two-way Trakt sync (decision 101) against a faithful local Trakt (fake-trakt.ts): the
 * device flow, plays pushed exactly once whatever the devices do, Trakt-side changes pulled, My List ↔
 * watchlist, tokens refreshed, and Trakt's errors (401, 409, 420, 429, down) never blocking playback.
 */
describe(`Trakt sync (${testDialect})`, () => {
  let t: SyncTestApp;
  let trakt: FakeTrakt;
  let a: SignedIn;
  let username: string;
  let serial = 0;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (method: string, path: string, payload?: unknown, who: SignedIn = a) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${path}`,
      headers: who.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const status = async (who = a) => body<TraktStatus>(await call('GET', '/trakt', undefined, who));
  /** One pass of every due library, as the schedule runs them (after the clock moved past the interval). */
  const pass = async (advanceMs = 11 * MIN) => {
    // A pass a link or "Sync now" started runs first (it holds the library meanwhile).
    await t.app.trakt.sync!.settle();
    t.clock.advance(advanceMs);
    return t.app.trakt.sync!.runDue();
  };
  const moviePlay = (tmdbId: string, watchedAt: string) => ({
    tmdbId,
    meta: movieMeta(),
    duration: 8000,
    watched: 7600,
    watchedAt,
    completed: true,
  });
  const plays = (tmdbId: number) => trakt.history(username).filter((p) => p.tmdbId === tmdbId);

  async function link(who: SignedIn, name: string) {
    const started = await call('POST', '/trakt/link', undefined, who);
    expect(started.statusCode).toBe(200);
    const pending = body<TraktStatus>(started);
    expect(pending).toMatchObject({
      state: 'pending',
      device: { verificationUrl: 'https://trakt.tv/activate' },
    });
    trakt.approve(pending.device!.userCode, name);
    t.clock.advance(pending.device!.interval * 1000);
    const linked = await status(who);
    expect(linked).toMatchObject({ state: 'linked', username: name, problem: null });
    return linked;
  }

  beforeAll(async () => {
    trakt = await startFakeTrakt({ now: () => t.clock.ms });
    t = await startSyncApp({
      env: {
        TRAKT_CLIENT_ID: trakt.clientId,
        TRAKT_CLIENT_SECRET: trakt.clientSecret,
        TRAKT_API_URL: trakt.url,
      },
      deps: { accounts: { rateLimits: false, traktTickMs: false } },
    });
  });
  // Each test's library is unlinked after it: a pass runs every linked library, and the next test's
  // injected Trakt errors must meet its own.
  afterEach(async () => {
    await call('DELETE', '/trakt/link');
  });
  afterAll(async () => {
    await t.close();
    await trakt.close();
  });
  beforeEach(async () => {
    t.clock.advance(10 * DAY);
    a = await register(t.server);
    username = `viewer${++serial}`;
  });

  it('links with the device flow: a code to enter at Trakt, then linked; no token ever leaves the server', async () => {
    expect(await status()).toMatchObject({ state: 'unlinked', device: null });
    const started = body<TraktStatus>(await call('POST', '/trakt/link'));
    expect(started.device!.userCode).toMatch(/^[A-Z0-9]{8}$/);
    // Not entered yet: still pending (each read asks Trakt at most once per its interval).
    t.clock.advance(started.device!.interval * 1000);
    expect(await status()).toMatchObject({ state: 'pending' });
    trakt.approve(started.device!.userCode, username);
    t.clock.advance(started.device!.interval * 1000);
    const linked = await status();
    expect(linked).toMatchObject({ state: 'linked', username, syncPending: true });
    expect(JSON.stringify(linked)).not.toMatch(/token/i);
    const row = await t.db.db
      .selectFrom('trakt_links')
      .selectAll()
      .where('user_id', '=', a.user.id)
      .executeTakeFirstOrThrow();
    // Sealed at rest (decision 094's key file), never the token itself.
    expect(row.access_token).toMatch(/^v1\./);
    expect(trakt.activeTokens(username)).toBe(1);
  });

  it('a code refused at Trakt or never entered ends the link with the reason', async () => {
    const denied = body<TraktStatus>(await call('POST', '/trakt/link'));
    trakt.deny(denied.device!.userCode);
    t.clock.advance(denied.device!.interval * 1000);
    expect(await status()).toMatchObject({ state: 'unlinked', problem: 'link_denied', device: null });
    const expired = body<TraktStatus>(await call('POST', '/trakt/link'));
    t.clock.advance(Date.parse(expired.device!.expiresAt) - t.clock.ms + 1000);
    expect(await status()).toMatchObject({ state: 'unlinked', problem: 'link_expired' });
  });

  it('three devices watching the same film and scrobbling it produce one play on Trakt', async () => {
    await link(a, username);
    const phone = await login(t.server, a.keys);
    const tv = await login(t.server, a.keys);
    const devices = [a, phone, tv];
    const scrobble = (who: SignedIn, action: string, progress: number) =>
      call('POST', '/trakt/scrobble', { action, tmdbId: '603', type: 'movie', progress }, who);
    for (const who of devices) expect((await scrobble(who, 'start', 1)).statusCode).toBe(202);
    // Each finishes within minutes of the others, reports its play and stops at the end.
    for (const [i, who] of devices.entries()) {
      t.clock.advance(2 * MIN);
      expect((await call('PUT', '/watch-history/603', moviePlay('603', iso()), who)).statusCode).toBe(200);
      expect(body(await scrobble(who, 'stop', 95 + i))).toEqual({ forwarded: true });
      // The first stop records the play; the others (the ledger has it) are sent as pauses.
      await vi.waitFor(() => expect(trakt.scrobbles(username)).toHaveLength(devices.length + i + 1));
    }
    await pass();
    await pass();
    expect(plays(603)).toHaveLength(1);
    // A rewatch the next day is a second play, once.
    t.clock.advance(DAY);
    await call('PUT', '/watch-history/603', moviePlay('603', iso()));
    await pass();
    await pass();
    expect(plays(603)).toHaveLength(2);
  });

  it('plays are pushed once with their own dates; a removal here is removed there', async () => {
    const old = Date.UTC(2015, 4, 1, 20);
    const imported = [603, 550, 27205].map((id, i) =>
      moviePlay(String(id), new Date(old + i * DAY).toISOString()),
    );
    expect((await call('PUT', '/watch-history/import', imported)).statusCode).toBe(200);
    await call('PUT', '/watch-history/1396', {
      tmdbId: '1396',
      meta: showMeta(),
      duration: 2900,
      watched: 2800,
      watchedAt: new Date(old).toISOString(),
      seasonId: '3572',
      episodeId: '62085',
      seasonNumber: 1,
      episodeNumber: 1,
    });
    await link(a, username);
    await pass();
    const held = trakt.history(username);
    expect(held.map((p) => [p.tmdbId, p.watchedAt, p.season, p.number]).sort()).toEqual(
      [
        [1396, new Date(old).toISOString(), 1, 1],
        [27205, new Date(old + 2 * DAY).toISOString(), undefined, undefined],
        [550, new Date(old + DAY).toISOString(), undefined, undefined],
        [603, new Date(old).toISOString(), undefined, undefined],
      ].sort(),
    );
    const posts = () =>
      trakt.requests.filter((r) => r.method === 'POST' && r.path === '/sync/history' && r.user === username);
    expect(posts()).toHaveLength(1);
    // The next passes read Trakt's history (it moved) and send nothing again.
    await pass();
    await pass();
    expect(trakt.history(username)).toHaveLength(4);
    expect(posts()).toHaveLength(1);
    // Removed here: removed on Trakt at the next pass.
    const removed = await call('DELETE', '/watch-history/550', {
      watchedAt: new Date(old + DAY).toISOString(),
    });
    expect(body(removed)).toMatchObject({ count: 1 });
    await pass();
    expect(plays(550)).toEqual([]);
    expect(trakt.history(username)).toHaveLength(3);
  });

  it('a play added or removed on Trakt reaches Marquee at the next pull, live on the other devices', async () => {
    await link(a, username);
    await pass();
    const at = Date.UTC(2024, 2, 3, 21);
    const id = trakt.addPlay(username, { type: 'movie', tmdbId: 550, watchedAt: at });
    trakt.addPlay(username, {
      type: 'episode',
      tmdbId: 1396,
      season: 1,
      number: 2,
      watchedAt: at + HOUR * 5,
    });
    await pass();
    const history = body<WatchHistoryItem[]>(await call('GET', '/watch-history'));
    expect(history.find((h) => h.tmdbId === '550')).toMatchObject({
      watchedAt: new Date(at).toISOString(),
      completed: true,
    });
    const episode = history.find((h) => h.tmdbId === '1396')!;
    expect(episode).toMatchObject({ season: { number: 1 }, episode: { number: 2 } });
    // TMDB's own season and episode ids, as the title page's episode list names them.
    const season = body<{ id: string; episodes: { id: string; number: number }[] }>(
      await t.server.inject({ method: 'GET', url: '/api/media/tv/1396/season/1' }),
    );
    expect(episode.season.id).toBe(season.id);
    expect(episode.episode.id).toBe(season.episodes.find((e) => e.number === 2)!.id);
    // Pulled plays are not sent back.
    await pass();
    expect(trakt.history(username)).toHaveLength(2);
    trakt.removePlay(username, id);
    await pass();
    expect(body<WatchHistoryItem[]>(await call('GET', '/watch-history')).map((h) => h.tmdbId)).toEqual([
      '1396',
    ]);
  });

  it('My List and the Trakt watchlist follow each other, additions and removals both ways', async () => {
    await call('POST', '/bookmarks/603', { meta: movieMeta() });
    await link(a, username);
    await pass();
    expect(trakt.watchlist(username).map((w) => w.tmdbId)).toEqual([603]);
    trakt.addToWatchlist(username, { type: 'show', tmdbId: 1396 });
    await pass();
    const list = async () =>
      body<{ tmdbId: string }[]>(await call('GET', '/bookmarks'))
        .map((b) => b.tmdbId)
        .sort();
    expect(await list()).toEqual(['1396', '603']);
    trakt.removeFromWatchlist(username, { type: 'movie', tmdbId: 603 });
    await pass();
    expect(await list()).toEqual(['1396']);
    await call('DELETE', '/bookmarks/1396');
    await pass();
    expect(trakt.watchlist(username)).toEqual([]);
  });

  it('ratings follow each other both ways: given, changed and removed on either side; both changed, the later wins', async () => {
    const rate = (tmdbId: string, rating: number, type = 'movie', updatedAt = iso()) =>
      call('PUT', `/ratings/${tmdbId}`, { type, meta: movieMeta(), rating, updatedAt });
    const here = async () =>
      body<{ items: { tmdbId: string; type: string; rating: number }[] }>(
        await call('GET', '/ratings?limit=100'),
      )
        .items.map((r) => `${r.type}:${r.tmdbId}=${r.rating}`)
        .sort();
    const there = () =>
      trakt
        .ratings(username)
        .map((r) => `${r.type}:${r.tmdbId}=${r.rating}`)
        .sort();
    expect((await rate('603', 8)).statusCode).toBe(200);
    trakt.rate(username, { type: 'show', tmdbId: 1396, rating: 10, ratedAt: '2015-06-01T20:00:00.000Z' });
    await link(a, username);
    await pass();
    expect(there()).toEqual(['movie:603=8', 'show:1396=10']);
    expect(await here()).toEqual(['movie:603=8', 'show:1396=10']);
    // The pulled rating keeps the day it was given at Trakt.
    const bb = body<{ items: { tmdbId: string; ratedAt: string }[] }>(
      await call('GET', '/ratings?limit=100'),
    ).items.find((r) => r.tmdbId === '1396');
    expect(bb?.ratedAt).toBe('2015-06-01T20:00:00.000Z');
    // Changed here, then at Trakt, then removed on each side.
    await rate('603', 6);
    await pass();
    expect(there()).toEqual(['movie:603=6', 'show:1396=10']);
    trakt.rate(username, { type: 'show', tmdbId: 1396, rating: 7 });
    await pass();
    expect(await here()).toEqual(['movie:603=6', 'show:1396=7']);
    await call('DELETE', '/ratings/603', { type: 'movie' });
    trakt.unrate(username, { type: 'show', tmdbId: 1396 });
    await pass();
    expect(there()).toEqual([]);
    expect(await here()).toEqual([]);
    // Both sides change the same title between passes: the later rating wins, on both.
    await rate('550', 5);
    await pass();
    t.clock.advance(MIN);
    await rate('550', 9);
    t.clock.advance(MIN);
    trakt.rate(username, { type: 'movie', tmdbId: 550, rating: 3 });
    await pass();
    expect(there()).toEqual(['movie:550=3']);
    expect(await here()).toEqual(['movie:550=3']);
    // The pull moved the ratings here, so one more pass reads them (and finds them agreed); after it,
    // with nothing moved on either side, no ratings call at all.
    await pass();
    const before = trakt.requests.length;
    await pass();
    expect(trakt.requests.slice(before).some((r) => r.path.startsWith('/sync/ratings'))).toBe(false);
  });

  it('a full Trakt watchlist (420) keeps My List as it is and says so; it recovers once there is room', async () => {
    await link(a, username);
    await pass();
    trakt.failNext(
      1,
      { status: 420, headers: { 'X-Account-Limit': '100' } },
      { method: 'POST', pathPrefix: '/sync/watchlist' },
    );
    await call('POST', '/bookmarks/27205', { meta: movieMeta('Inception', 2010) });
    await pass();
    expect(await status()).toMatchObject({ state: 'linked', problem: 'limit_reached' });
    expect(body<unknown[]>(await call('GET', '/bookmarks'))).toHaveLength(1);
    await call('POST', '/bookmarks/348', { meta: movieMeta('Alien', 1979) });
    await pass();
    expect(
      trakt
        .watchlist(username)
        .map((w) => w.tmdbId)
        .sort(),
    ).toEqual([27205, 348]);
    expect(await status()).toMatchObject({ problem: null });
  });

  it('an expired access token is refreshed; a revoked one asks the viewer to link again', async () => {
    await link(a, username);
    await pass();
    trakt.expireAccessTokens(username);
    await call('PUT', '/watch-history/603', moviePlay('603', iso()));
    await pass();
    expect(plays(603)).toHaveLength(1);
    expect(trakt.requests.some((r) => r.path === '/oauth/token' && r.status === 200)).toBe(true);
    trakt.revokeAll(username);
    await call('PUT', '/watch-history/550', moviePlay('550', iso()));
    await pass();
    expect(await status()).toMatchObject({ state: 'relink', username });
    expect((await call('POST', '/trakt/sync')).statusCode).toBe(409);
  });

  it('Trakt down or rate limiting never blocks playback; the sync waits as told and catches up', async () => {
    await link(a, username);
    await pass();
    trakt.setDown(true);
    const scrobbled = await call('POST', '/trakt/scrobble', {
      action: 'start',
      tmdbId: '603',
      type: 'movie',
      progress: 3,
    });
    expect(scrobbled.statusCode).toBe(202);
    const progress = await call('PUT', '/progress/603', { meta: movieMeta(), duration: 8000, watched: 300 });
    expect(progress.statusCode).toBe(200);
    await call('PUT', '/watch-history/603', moviePlay('603', iso()));
    await pass();
    expect(await status()).toMatchObject({ problem: 'unreachable' });
    trakt.setDown(false);
    trakt.failNext(
      1,
      { status: 429, headers: { 'Retry-After': '120' } },
      { pathPrefix: '/sync/last_activities' },
    );
    await pass(5 * MIN);
    expect(await status()).toMatchObject({ problem: 'rate_limited' });
    // Not before Trakt's Retry-After.
    expect(await pass(60_000)).toBe(0);
    expect(await pass(61_000)).toBe(1);
    expect(plays(603)).toHaveLength(1);
    expect(await status()).toMatchObject({ problem: null });
  });

  it('scrobbles name the episode; an unlinked library forwards nothing; bad input is a 400', async () => {
    expect(
      body(
        await call('POST', '/trakt/scrobble', { action: 'start', tmdbId: '603', type: 'movie', progress: 1 }),
      ),
    ).toEqual({ forwarded: false });
    const bad = await call('POST', '/trakt/scrobble', {
      action: 'start',
      tmdbId: '1396',
      type: 'show',
      progress: 1,
    });
    expect(bad.statusCode).toBe(400);
    expect(
      (await call('POST', '/trakt/scrobble', { action: 'rewind', tmdbId: '603', type: 'movie', progress: 1 }))
        .statusCode,
    ).toBe(400);
    await link(a, username);
    const episode = {
      action: 'start',
      tmdbId: '1396',
      type: 'show',
      seasonNumber: 2,
      episodeNumber: 4,
      progress: 10,
    };
    expect(body(await call('POST', '/trakt/scrobble', episode))).toEqual({ forwarded: true });
    await vi.waitFor(() =>
      expect(trakt.scrobbles(username)).toMatchObject([
        { action: 'start', tmdbId: 1396, season: 2, number: 4 },
      ]),
    );
  });

  it('"Sync now" and a new link run a pass right away, without waiting for the schedule', async () => {
    await call('PUT', '/watch-history/603', moviePlay('603', iso(-HOUR)));
    await link(a, username);
    await t.app.trakt.sync!.settle();
    expect(plays(603)).toHaveLength(1);
    t.clock.advance(MIN);
    await call('PUT', '/watch-history/550', moviePlay('550', iso()));
    const asked = await call('POST', '/trakt/sync');
    expect(asked.statusCode).toBe(202);
    expect(body<TraktStatus>(asked)).toMatchObject({ state: 'linked', syncPending: true });
    await t.app.trakt.sync!.settle();
    expect(plays(550)).toHaveLength(1);
    expect(await status()).toMatchObject({ syncPending: false, lastSyncAt: iso() });
  });

  it('runs by itself on a schedule, one pass at a time across processes', async () => {
    const env = {
      TRAKT_CLIENT_ID: trakt.clientId,
      TRAKT_CLIENT_SECRET: trakt.clientSecret,
      TRAKT_API_URL: trakt.url,
    };
    const processes = await Promise.all(
      [0, 1].map(() =>
        startSyncApp({ db: t.db, env, deps: { accounts: { rateLimits: false, traktTickMs: 20 } } }),
      ),
    );
    try {
      for (const p of processes) p.clock.ms = t.clock.ms;
      await link(a, username);
      await call('PUT', '/watch-history/603', moviePlay('603', iso()));
      await call('POST', '/trakt/sync');
      await vi.waitFor(
        () => {
          for (const p of processes) p.clock.advance(1000);
          expect(plays(603)).toHaveLength(1);
        },
        { timeout: 10_000, interval: 30 },
      );
      // Later ticks of both processes find nothing more to send.
      const reads = () =>
        trakt.requests.filter((r) => r.user === username && r.path === '/sync/last_activities').length;
      const seen = reads();
      await vi.waitFor(
        () => {
          for (const p of processes) p.clock.advance(11 * MIN);
          expect(reads()).toBeGreaterThan(seen + 2);
        },
        { timeout: 10_000, interval: 30 },
      );
      expect(plays(603)).toHaveLength(1);
      expect(
        trakt.requests.filter(
          (r) => r.user === username && r.path === '/sync/history' && r.method === 'POST',
        ),
      ).toHaveLength(1);
    } finally {
      for (const p of processes) await p.close();
    }
  });

  it('unlink revokes the tokens at Trakt and forgets the link and its ledgers', async () => {
    await call('PUT', '/watch-history/603', moviePlay('603', iso()));
    await link(a, username);
    await pass();
    const unlinked = await call('DELETE', '/trakt/link');
    expect(body(unlinked)).toMatchObject({ state: 'unlinked', username: null });
    expect(trakt.activeTokens(username)).toBe(0);
    for (const table of ['trakt_links', 'trakt_plays', 'trakt_watchlist'] as const)
      expect(await t.db.db.selectFrom(table).selectAll().where('user_id', '=', a.user.id).execute()).toEqual(
        [],
      );
    expect((await call('POST', '/trakt/sync')).statusCode).toBe(409);
  });
});
