import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bookmark, ProgressItem, ProgressListItem, UserSettings } from '@marquee/contract';
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

/** Counts the transactions the app's database opens until `stop()`. */
function countTransactions(t: SyncTestApp) {
  const db = t.db.db;
  const original = db.transaction;
  const counter = {
    count: 0,
    stop: () => {
      db.transaction = original;
    },
  };
  db.transaction = function (this: typeof db) {
    counter.count += 1;
    return original.call(this);
  } as typeof original;
  return counter;
}
const MIN = 60_000;

describe(`sync API (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (method: string, path: string, payload?: unknown, who: SignedIn = a) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${path}`,
      headers: who.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const bookmarks = async (who = a) => body<Bookmark[]>(await call('GET', '/bookmarks', undefined, who));
  const progress = async (who = a) =>
    body<ProgressListItem[]>(await call('GET', '/progress', undefined, who));
  const episode = (watched: number, extra: Record<string, unknown> = {}) => ({
    tmdbId: '1396',
    meta: showMeta(),
    duration: 2900,
    watched,
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
    t.clock.advance(10 * MIN);
    a = await register(t.server);
  });

  describe('bookmarks', () => {
    it('adds (idempotently), lists and removes, in the older servers’ shapes', async () => {
      const add = await call('POST', '/bookmarks/603', { tmdbId: '603', meta: movieMeta() });
      expect(add.statusCode).toBe(200);
      // p-stream's `group` and `favoriteEpisodes` are always there (empty when none).
      const none = { group: [], favoriteEpisodes: [] };
      expect(body(add)).toEqual({ tmdbId: '603', meta: movieMeta(), ...none, updatedAt: iso() });
      // The older server answered 400 "Already bookmarked"; a retried send must succeed.
      expect((await call('POST', '/bookmarks/603', { tmdbId: '603', meta: movieMeta() })).statusCode).toBe(
        200,
      );
      expect(await bookmarks()).toEqual([{ tmdbId: '603', meta: movieMeta(), ...none, updatedAt: iso() }]);
      const del = await call('DELETE', '/bookmarks/603');
      expect(del.statusCode).toBe(200);
      expect(body(del)).toEqual({ tmdbId: '603' });
      expect(await bookmarks()).toEqual([]);
      expect((await call('DELETE', '/bookmarks/603')).statusCode).toBe(200);
    });

    it('keeps clients’ missing years (null) instead of refusing and losing the bookmark', async () => {
      const res = await call('POST', '/bookmarks/11', {
        tmdbId: '11',
        meta: { title: '', year: null, type: 'movie' },
      });
      expect(res.statusCode).toBe(200);
      expect((await bookmarks())[0]!.meta).toEqual({ title: '', year: null, type: 'movie' });
    });

    it('keeps a movie and a show with the same TMDB number apart', async () => {
      await call('POST', '/bookmarks/1399', { meta: movieMeta('Some movie', 2001) });
      await call('POST', '/bookmarks/1399', { meta: showMeta('Game of Thrones', 2011) });
      expect((await bookmarks()).map((b) => b.meta.type).sort()).toEqual(['movie', 'show']);
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/bookmarks/1399?type=show`,
        headers: a.headers,
      });
      expect((await bookmarks()).map((b) => b.meta.type)).toEqual(['movie']);
    });

    it('an older change never overwrites a newer one, for adds and removals alike', async () => {
      await call('POST', '/bookmarks/603', { meta: movieMeta('New title'), updatedAt: iso(-1 * MIN) });
      const stale = await call('POST', '/bookmarks/603', {
        meta: movieMeta('Old title'),
        updatedAt: iso(-5 * MIN),
      });
      expect(stale.statusCode).toBe(200);
      expect(body(stale).meta.title).toBe('New title');
      // A removal made offline before the last add does not remove it…
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/bookmarks/603?updatedAt=${encodeURIComponent(iso(-2 * MIN))}`,
        headers: a.headers,
      });
      expect((await bookmarks()).map((b) => b.meta.title)).toEqual(['New title']);
      // …a later one does, and an add made before it cannot bring the bookmark back.
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/bookmarks/603?updatedAt=${encodeURIComponent(iso(-30_000))}`,
        headers: a.headers,
      });
      expect(await bookmarks()).toEqual([]);
      await call('POST', '/bookmarks/603', { meta: movieMeta(), updatedAt: iso(-45_000) });
      expect(await bookmarks()).toEqual([]);
      // A change time in the future counts as now (a fast clock must not win forever).
      await call('POST', '/bookmarks/604', {
        meta: movieMeta('Future'),
        updatedAt: iso(365 * 24 * 60 * MIN),
      });
      expect((await bookmarks()).find((b) => b.tmdbId === '604')!.updatedAt).toBe(iso());
    });

    it('import merges: adds what is missing, never removes, undated items never overwrite nor bring back a removal', async () => {
      await call('POST', '/bookmarks/1', { meta: movieMeta('Server copy') });
      await call('POST', '/bookmarks/2', { meta: movieMeta('Removed later') });
      await call('DELETE', '/bookmarks/2');
      const res = await call('PUT', '/bookmarks', [
        { tmdbId: '1', meta: movieMeta('Local copy') },
        { tmdbId: '2', meta: movieMeta('Removed on another device') }, // undated: the removal wins (decision 072)
        { tmdbId: '3', meta: movieMeta('Only local') },
        { tmdbId: '3', meta: movieMeta('Only local') },
      ]);
      expect(res.statusCode).toBe(200);
      const list = await bookmarks();
      expect(list.map((b) => [b.tmdbId, b.meta.title]).sort()).toEqual([
        ['1', 'Server copy'],
        ['3', 'Only local'],
      ]);
      // Dated import items follow the conflict rule.
      await call('PUT', '/bookmarks', [
        { tmdbId: '1', meta: movieMeta('Older local'), updatedAt: iso(-MIN) },
      ]);
      expect((await bookmarks()).find((b) => b.tmdbId === '1')!.meta.title).toBe('Server copy');
      t.clock.advance(MIN);
      await call('PUT', '/bookmarks', [
        { tmdbId: '1', meta: movieMeta('Newer local'), updatedAt: iso(-1000) },
      ]);
      expect((await bookmarks()).find((b) => b.tmdbId === '1')!.meta.title).toBe('Newer local');
    });
  });

  describe('progress', () => {
    it('saves a movie and answers numbers on PUT, strings in the list (as the older server did)', async () => {
      const res = await call('PUT', '/progress/603', {
        tmdbId: '603',
        meta: movieMeta(),
        duration: 8160.6,
        watched: 1200.4,
      });
      expect(res.statusCode).toBe(200);
      const item = body<ProgressItem>(res);
      expect(item).toMatchObject({
        tmdbId: '603',
        season: { id: null, number: null },
        episode: { id: null, number: null },
        duration: 8161,
        watched: 1200,
        updatedAt: iso(),
      });
      expect(item.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await progress()).toEqual([{ ...item, duration: '8161', watched: '1200' }]);
    });

    it('keeps a movie and a show with the same TMDB number apart', async () => {
      await call('PUT', '/progress/1399', { meta: movieMeta(), duration: 6000, watched: 600 });
      await call('PUT', '/progress/1399', { ...episode(300), tmdbId: '1399' });
      const list = await progress();
      expect(list).toHaveLength(2);
      expect(list.map((p) => [p.meta.type, p.watched]).sort()).toEqual([
        ['movie', '600'],
        ['show', '300'],
      ]);
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1399`,
        headers: a.headers,
        payload: { type: 'movie' },
      });
      expect((await progress()).map((p) => p.meta.type)).toEqual(['show']);
    });

    it('is idempotent: the same write twice leaves one row with the same content', async () => {
      const write = { ...episode(500), updatedAt: iso(-MIN) };
      const first = body<ProgressItem>(await call('PUT', '/progress/1396', write));
      const second = body<ProgressItem>(await call('PUT', '/progress/1396', write));
      expect(second).toEqual(first);
      expect(await progress()).toHaveLength(1);
    });

    it('last writer wins by change time, per episode: an older position never overwrites a newer one', async () => {
      await call('PUT', '/progress/1396', { ...episode(900), updatedAt: iso(-1 * MIN) });
      const stale = await call('PUT', '/progress/1396', { ...episode(100), updatedAt: iso(-3 * MIN) });
      expect(stale.statusCode).toBe(200);
      expect(body<ProgressItem>(stale).watched).toBe(900);
      // A newer change wins even if it goes backwards (the user rewound).
      await call('PUT', '/progress/1396', { ...episode(50), updatedAt: iso(-30_000) });
      // Another episode is a separate row.
      await call('PUT', '/progress/1396', {
        ...episode(10, { episodeId: '62086', episodeNumber: 2 }),
        updatedAt: iso(-10 * MIN),
      });
      const list = await progress();
      expect(list.find((p) => p.episode.id === '62085')!.watched).toBe('50');
      expect(list.find((p) => p.episode.id === '62086')!.watched).toBe('10');
      // Season/episode numbers follow the latest write (the older server kept the first ones).
      await call('PUT', '/progress/1396', { ...episode(60, { seasonNumber: 1, episodeNumber: 7 }) });
      expect((await progress()).find((p) => p.episode.id === '62085')!.episode.number).toBe(7);
    });

    it('two devices converge: each one’s newer episodes win, whatever order they sync in', async () => {
      const b = await login(t.server, a.keys);
      await call('PUT', '/progress/1396', { ...episode(1000), updatedAt: iso(-2 * MIN) }, b);
      await call('PUT', '/progress/1396', { ...episode(400), updatedAt: iso(-4 * MIN) }, a); // offline, older
      await call(
        'PUT',
        '/progress/1396',
        { ...episode(70, { episodeId: 'e2' }), updatedAt: iso(-4 * MIN) },
        a,
      );
      const fromA = await progress(a);
      const fromB = await progress(b);
      expect(fromA).toEqual(fromB);
      expect(fromA.find((p) => p.episode.id === '62085')!.watched).toBe('1000');
      expect(fromA.find((p) => p.episode.id === 'e2')!.watched).toBe('70');
    });

    it('deletes a title, a season or an episode, and a late older write cannot bring it back', async () => {
      const put = (seasonId: string, episodeId: string, watched: number) =>
        call('PUT', '/progress/1396', {
          ...episode(watched, { seasonId, episodeId }),
          updatedAt: iso(-5 * MIN),
        });
      await put('s1', 'e1', 1);
      await put('s1', 'e2', 2);
      await put('s2', 'e3', 3);
      await put('s2', 'e4', 4);
      const one = await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1396`,
        headers: a.headers,
        payload: { episodeId: 'e1' },
      });
      expect(body(one)).toEqual({ count: 1, tmdbId: '1396', episodeId: 'e1' });
      const season = await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1396`,
        headers: a.headers,
        payload: { seasonId: 's2' },
      });
      expect(body(season)).toEqual({ count: 2, tmdbId: '1396', seasonId: 's2' });
      expect((await progress()).map((p) => p.episode.id)).toEqual(['e2']);
      // Offline device sends an old position for a removed episode: stays removed.
      await put('s2', 'e3', 99);
      expect((await progress()).map((p) => p.episode.id)).toEqual(['e2']);
      // A new watch after the removal is kept.
      await call('PUT', '/progress/1396', episode(5, { seasonId: 's2', episodeId: 'e3' }));
      expect((await progress()).map((p) => p.episode.id).sort()).toEqual(['e2', 'e3']);
      // `{}` (what clients send) removes the whole title; a body is optional.
      const all = await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1396`,
        headers: a.headers,
        payload: {},
      });
      expect(body(all).count).toBe(2);
      const none = await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1396`,
        headers: a.headers,
      });
      expect(none.statusCode, none.body).toBe(200);
      expect(body(none).count).toBe(0);
    });

    it('import merges per row by change time, de-duplicates the payload and answers the stored rows', async () => {
      await call('PUT', '/progress/1396', { ...episode(800), updatedAt: iso(-MIN) });
      const res = await call('PUT', '/progress/import', [
        { ...episode(100), updatedAt: iso(-10 * MIN) }, // older than the server's: ignored
        { ...episode(5, { episodeId: 'e9' }), updatedAt: iso(-10 * MIN) },
        { ...episode(6, { episodeId: 'e9' }), updatedAt: iso(-9 * MIN) }, // duplicate key: the later wins
        { tmdbId: '603', meta: movieMeta(), duration: 8000, watched: 4000 }, // undated: fills the gap
      ]);
      expect(res.statusCode).toBe(200);
      const answered = body<ProgressListItem[]>(res);
      expect(answered.map((p) => [p.tmdbId, p.episode.id, p.watched]).sort()).toEqual([
        ['1396', '62085', '800'],
        ['1396', 'e9', '6'],
        ['603', null, '4000'],
      ]);
      expect(await progress()).toHaveLength(3);
      // Undated items never overwrite what the account has.
      await call('PUT', '/progress/import', [
        { tmdbId: '603', meta: movieMeta(), duration: 8000, watched: 1 },
      ]);
      expect((await progress()).find((p) => p.tmdbId === '603')!.watched).toBe('4000');
      // An empty import is fine.
      expect(body(await call('PUT', '/progress/import', []))).toEqual([]);
    });

    it('saves arriving together from many tabs are all answered, each episode keeps its latest, and they share transactions', async () => {
      // Two removals first: a save older than its episode's removal is acknowledged and not kept.
      await call('PUT', '/progress/1396', { ...episode(1, { episodeId: 'gone' }), updatedAt: iso(-9 * MIN) });
      await t.server.inject({
        method: 'DELETE',
        url: `/users/${a.user.id}/progress/1396`,
        headers: a.headers,
        payload: { episodeId: 'gone', updatedAt: iso(-5 * MIN) },
      });
      // 40 saves of four episodes, sent at once in a shuffled order of their times.
      const saves = Array.from({ length: 40 }, (_, i) => ({
        ...episode(100 + i, { episodeId: `e${i % 4}`, episodeNumber: (i % 4) + 1 }),
        updatedAt: iso(-MIN + ((i * 7919) % 40) * 1000),
      }));
      saves.push({ ...episode(5, { episodeId: 'gone' }), updatedAt: iso(-6 * MIN) });
      const transactions = countTransactions(t);
      const answers = await Promise.all(saves.map((s) => call('PUT', '/progress/1396', s)));
      transactions.stop();
      expect(answers.map((r) => r.statusCode)).toEqual(saves.map(() => 200));
      const expected = new Map<string, number>();
      const latest = new Map<string, string>();
      for (const s of saves.slice(0, 40))
        if (!latest.has(s.episodeId) || s.updatedAt > latest.get(s.episodeId)!) {
          latest.set(s.episodeId, s.updatedAt);
          expected.set(s.episodeId, s.watched);
        }
      const list = await progress();
      expect(new Map(list.map((p) => [p.episode.id!, Number(p.watched)]))).toEqual(expected);
      // Each answer is its own save, or a newer one of its episode it lost to; one id per episode.
      const ids = new Map(list.map((p) => [p.episode.id!, p.id]));
      answers.slice(0, 40).forEach((res, i) => {
        const item = body<ProgressItem>(res);
        const own = saves[i]!;
        expect(item.id).toBe(ids.get(own.episodeId));
        const newer = saves.filter((s) => s.episodeId === own.episodeId && s.updatedAt >= own.updatedAt);
        expect(newer.map((s) => s.watched)).toContain(item.watched);
      });
      expect(body<ProgressItem>(answers[40]!).watched).toBe(5);
      // On PostgreSQL the saves waited for one another's transaction instead of each taking its own
      // (SQLite's writes are synchronous: each is done before the next request reaches the service).
      if (testDialect === 'postgres') expect(transactions.count).toBeLessThan(10);
    });

    it('accepts what older clients send: missing year (null), "tv" type, NaN numbers, body tmdbId that differs', async () => {
      const res = await call('PUT', '/progress/1396', {
        tmdbId: 'ignored',
        meta: { title: 'Breaking Bad', year: null, type: 'tv' },
        duration: 10,
        watched: 5,
        seasonId: 's',
        episodeId: 'e',
        seasonNumber: null,
        episodeNumber: null,
      });
      expect(res.statusCode).toBe(200);
      expect(body(res)).toMatchObject({
        tmdbId: '1396',
        season: { id: 's', number: null },
        episode: { id: 'e', number: null },
      });
    });
  });

  describe('settings', () => {
    it('reads defaults, changes only named fields, null clears', async () => {
      expect(body<UserSettings>(await call('GET', '/settings'))).toEqual({
        id: a.user.id,
        applicationTheme: null,
        applicationLanguage: null,
        defaultSubtitleLanguage: null,
        proxyUrls: null,
        enableAutoplay: null,
        subtitleStyling: null,
        defaultAudioLanguage: null,
      });
      await call('PUT', '/settings', {
        applicationLanguage: 'nl',
        applicationTheme: 'teal',
        proxyUrls: ['https://proxy.example'],
      });
      const res = await call('PUT', '/settings', { defaultSubtitleLanguage: 'en', applicationTheme: null });
      expect(body(res)).toEqual({
        id: a.user.id,
        applicationTheme: null,
        applicationLanguage: 'nl',
        defaultSubtitleLanguage: 'en',
        proxyUrls: ['https://proxy.example'],
        enableAutoplay: null,
        subtitleStyling: null,
        defaultAudioLanguage: null,
      });
      expect(body(await call('GET', '/settings'))).toEqual(body(res));
    });

    it('keeps the preferred audio language (ours) per field like the others; only ISO 639 codes', async () => {
      await call('PUT', '/settings', { defaultAudioLanguage: 'ja', updatedAt: iso(-MIN) });
      // An older device's change to another field and to this one: the other lands, this one stays.
      await call('PUT', '/settings', {
        defaultAudioLanguage: 'de',
        applicationLanguage: 'fr',
        updatedAt: iso(-2 * MIN),
      });
      expect(body(await call('GET', '/settings'))).toMatchObject({
        defaultAudioLanguage: 'ja',
        applicationLanguage: 'fr',
      });
      for (const bad of ['pt-BR', 'EN', 'english', ''])
        expect((await call('PUT', '/settings', { defaultAudioLanguage: bad })).statusCode).toBe(400);
      // A client of the older family sends only its four fields: the audio language is left alone.
      await call('PUT', '/settings', { applicationLanguage: 'nl', defaultSubtitleLanguage: 'en' });
      expect(body(await call('GET', '/settings'))).toMatchObject({
        defaultAudioLanguage: 'ja',
        applicationLanguage: 'nl',
      });
      // null clears it: the UI language's again.
      await call('PUT', '/settings', { defaultAudioLanguage: null });
      expect(body(await call('GET', '/settings'))).toMatchObject({ defaultAudioLanguage: null });
    });

    it('per field, an older change never overwrites a newer one; different fields both survive', async () => {
      await call('PUT', '/settings', { applicationLanguage: 'de', updatedAt: iso(-MIN) });
      await call('PUT', '/settings', {
        applicationLanguage: 'fr',
        applicationTheme: 'blue',
        updatedAt: iso(-2 * MIN),
      });
      expect(body(await call('GET', '/settings'))).toMatchObject({
        applicationLanguage: 'de',
        applicationTheme: 'blue',
      });
    });
  });
});
