import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WatchHistoryItem, WatchHistoryPage } from '@marquee/contract';
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
 * Watch history (decision 095) in the shapes p-stream's client speaks: one play per entry, rewatches as
 * new entries, the whole list as the latest play of each movie or episode, pages with every play.
 */
describe(`watch history (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (method: string, path: string, payload?: unknown, who: SignedIn = a, headers = {}) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${path}`,
      headers: { ...who.headers, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const history = async (who = a) =>
    body<WatchHistoryItem[]>(await call('GET', '/watch-history', undefined, who));
  const page = async (query = 'limit=1000', who = a) =>
    body<WatchHistoryPage>(await call('GET', `/watch-history?${query}`, undefined, who));
  const moviePlay = (watchedAt: string, extra: Record<string, unknown> = {}) => ({
    tmdbId: '603',
    meta: movieMeta(),
    duration: 8160.5,
    watched: 7500.25,
    watchedAt,
    completed: true,
    ...extra,
  });
  const episodePlay = (watchedAt: string, extra: Record<string, unknown> = {}) => ({
    tmdbId: '1396',
    meta: showMeta(),
    duration: 2900,
    watched: 2700,
    watchedAt,
    completed: true,
    seasonId: '3572',
    episodeId: '62085',
    seasonNumber: 1,
    episodeNumber: 1,
    ...extra,
  });

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.advance(10 * DAY);
    a = await register(t.server);
  });

  it('is empty for a new account (p-stream restores read it right after signing up)', async () => {
    const res = await call('GET', '/watch-history');
    expect(res.statusCode).toBe(200);
    expect(body(res)).toEqual([]);
  });

  it('records a movie and an episode in p-stream’s shapes: strings for times watched, absent ids for movies', async () => {
    const watchedAt = iso(-HOUR);
    const put = await call('PUT', '/watch-history/603', moviePlay(watchedAt));
    expect(put.statusCode).toBe(200);
    expect(body(put)).toMatchObject({ success: true, count: 1 });
    await call('PUT', '/watch-history/1396', episodePlay(iso(-2 * HOUR)));
    const list = await history();
    expect(list).toHaveLength(2);
    expect(list.find((i) => i.tmdbId === '603')).toEqual({
      tmdbId: '603',
      episode: {},
      season: {},
      meta: { title: 'The Matrix', year: 1999, poster: 'https://image.example/p.jpg', type: 'movie' },
      duration: '8160.5',
      watched: '7500.25',
      watchedAt,
      completed: true,
      updatedAt: iso(),
    });
    expect(list.find((i) => i.tmdbId === '1396')).toMatchObject({
      episode: { id: '62085', number: 1 },
      season: { id: '3572', number: 1 },
      duration: '2900',
      completed: true,
    });
  });

  it('keeps what p-stream’s client sends for an unknown year (NaN, null in JSON) and a missing `completed`', async () => {
    const res = await call('PUT', '/watch-history/603', {
      ...moviePlay(iso(-HOUR), { meta: movieMeta('The Matrix', null) }),
      completed: undefined,
    });
    expect(res.statusCode).toBe(200);
    expect((await history())[0]).toMatchObject({ meta: { year: null }, completed: false });
  });

  it('a rewatch is a new entry; the same play sent again changes nothing', async () => {
    const first = iso(-30 * DAY);
    await call('PUT', '/watch-history/603', moviePlay(first));
    await call('PUT', '/watch-history/603', moviePlay(first));
    const second = iso(-HOUR);
    await call('PUT', '/watch-history/603', moviePlay(second));
    const all = await page();
    expect(all.items.map((i) => i.watchedAt).sort()).toEqual([first, second]);
    // The whole list (p-stream’s) holds the latest play of each title: its client keeps one per title.
    expect((await history()).map((i) => i.watchedAt)).toEqual([second]);
  });

  it('plays of one title reported by several devices within hours are one play', async () => {
    const other = await login(t.server, a.keys);
    await call('PUT', '/watch-history/1396', episodePlay(iso(-40 * MIN)));
    await call('PUT', '/watch-history/1396', episodePlay(iso(-20 * MIN)), other);
    await call('PUT', '/watch-history/1396', episodePlay(iso(-MIN)));
    const all = await page();
    expect(all.items).toHaveLength(1);
    expect(all.items[0]!.watchedAt).toBe(iso(-40 * MIN));
    // Another episode at the same time is its own play.
    await call(
      'PUT',
      '/watch-history/1396',
      episodePlay(iso(-MIN), { episodeId: '62086', episodeNumber: 2 }),
    );
    expect((await page()).items).toHaveLength(2);
  });

  it('an import keeps every play at its own time, even close together, and a second import changes nothing', async () => {
    const plays = [
      moviePlay(iso(-3 * 365 * DAY)),
      moviePlay(iso(-3 * 365 * DAY + HOUR)),
      episodePlay(iso(-400 * DAY)),
    ];
    const first = await call('PUT', '/watch-history/import', plays);
    expect(first.statusCode).toBe(200);
    expect(body(first)).toMatchObject({ success: true, count: 3 });
    const { version } = await page();
    const again = await call('PUT', '/watch-history/import', plays);
    expect(again.statusCode).toBe(200);
    // Nothing changed: a read of what changed since is empty.
    const since = await page(`updatedSince=${version}`);
    expect(since).toMatchObject({ items: [], removed: [], reset: false });
    expect((await page()).items).toHaveLength(3);
  });

  it('an array sent to a title’s path keys each play by its own id (p-stream’s other way of sending many)', async () => {
    const res = await call('PUT', '/watch-history/603', [
      moviePlay(iso(-DAY)),
      { ...moviePlay(iso(-DAY)), tmdbId: '550', meta: movieMeta('Fight Club', 1999) },
    ]);
    expect(res.statusCode).toBe(200);
    expect(body(res).count).toBe(2);
    expect((await history()).map((i) => i.tmdbId).sort()).toEqual(['550', '603']);
  });

  it('a watch date in the future is taken as now; before the first film, or not a date, is refused', async () => {
    await call('PUT', '/watch-history/603', moviePlay(iso(5 * DAY)));
    expect((await history())[0]!.watchedAt).toBe(iso());
    for (const watchedAt of ['1850-01-01T00:00:00Z', 'yesterday', undefined]) {
      const res = await call('PUT', '/watch-history/550', { ...moviePlay(iso()), watchedAt });
      expect(res.statusCode, String(watchedAt)).toBe(400);
      expect(body(res).errorType ?? body(res).code).toBeDefined();
    }
    const badImport = await call('PUT', '/watch-history/import', [moviePlay(iso(-DAY)), { tmdbId: '550' }]);
    expect(badImport.statusCode).toBe(400);
    // Nothing of a refused import is written.
    expect((await history()).map((i) => i.tmdbId)).toEqual(['603']);
  });

  it('removes a title, an episode or one play; a late, older write of a removed play stays removed', async () => {
    const old = iso(-100 * DAY);
    await call('PUT', '/watch-history/import', [
      moviePlay(old),
      moviePlay(iso(-DAY)),
      episodePlay(iso(-50 * DAY)),
      episodePlay(iso(-49 * DAY), { episodeId: '62086', episodeNumber: 2 }),
    ]);
    const one = await call('DELETE', '/watch-history/603', { watchedAt: old, type: 'movie' });
    expect(body(one)).toMatchObject({ success: true, count: 1, tmdbId: '603' });
    expect((await page()).items.filter((i) => i.tmdbId === '603')).toHaveLength(1);
    // p-stream's removal of one episode: its ids in the body.
    const ep = await call('DELETE', '/watch-history/1396', { seasonId: '3572', episodeId: '62086' });
    expect(body(ep)).toMatchObject({ count: 1, seasonId: '3572', episodeId: '62086' });
    // `{}`: every play of the title.
    expect(body(await call('DELETE', '/watch-history/603', {})).count).toBe(1);
    expect((await history()).map((i) => i.episode.id)).toEqual(['62085']);
    // The removed play, re-sent by a device with the time it was made (before the removal): stays removed.
    await call('PUT', '/watch-history/603', { ...moviePlay(old), updatedAt: iso(-HOUR) });
    expect((await history()).map((i) => i.tmdbId)).toEqual(['1396']);
    // An import that brings it again without a change time only fills gaps: still removed.
    await call('PUT', '/watch-history/import', [moviePlay(old)]);
    expect((await history()).map((i) => i.tmdbId)).toEqual(['1396']);
    // Removing what is not there is not an error.
    expect(body(await call('DELETE', '/watch-history/999', undefined))).toMatchObject({
      success: true,
      count: 0,
    });
  });

  it('pages carry every play and the removals since a version, for the devices that follow changes', async () => {
    await call('PUT', '/watch-history/603', moviePlay(iso(-2 * DAY)));
    const { version } = await page();
    await call('PUT', '/watch-history/603', moviePlay(iso(-HOUR)));
    await call('DELETE', '/watch-history/603', { watchedAt: iso(-2 * DAY) });
    const since = await page(`updatedSince=${version}`);
    expect(since.items.map((i) => i.watchedAt)).toEqual([iso(-HOUR)]);
    expect(since.removed).toEqual([
      {
        tmdbId: '603',
        type: 'movie',
        seasonId: null,
        episodeId: null,
        watchedAt: iso(-2 * DAY),
        removedAt: iso(),
      },
    ]);
    // Unchanged: a conditional read answers 304.
    const etagged = await call('GET', '/watch-history');
    const unchanged = await call('GET', '/watch-history', undefined, a, {
      'if-none-match': etagged.headers.etag as string,
    });
    expect(unchanged.statusCode).toBe(304);
  });

  it('belongs to its account and profile: another account is refused and sees nothing', async () => {
    await call('PUT', '/watch-history/603', moviePlay(iso(-DAY)));
    const b = await register(t.server);
    for (const [method, path, payload] of [
      ['GET', '/watch-history', undefined],
      ['PUT', '/watch-history/603', moviePlay(iso())],
      ['PUT', '/watch-history/import', [moviePlay(iso())]],
      ['DELETE', '/watch-history/603', {}],
    ] as const) {
      const res = await t.server.inject({
        method,
        url: `/users/${a.user.id}${path}`,
        headers: b.headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    expect(await history(b)).toEqual([]);
    expect(await history()).toHaveLength(1);
  });

  it('leaves with the account', async () => {
    await call('PUT', '/watch-history/603', moviePlay(iso(-DAY)));
    expect((await call('DELETE', '')).statusCode).toBe(200);
    const left = await t.db.db
      .selectFrom('watch_history')
      .select('tmdb_id')
      .where('user_id', '=', a.user.id)
      .execute();
    expect(left).toEqual([]);
  });
});
