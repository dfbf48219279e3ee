import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_TIME_HEADER, type Rating, type RatingsPage } from '@marquee/contract';
import { TOMBSTONE_TTL_MS } from '../src/modules/maintenance/cleanup.job.ts';
import { RatingsRepository } from '../src/modules/ratings/ratings.repository.ts';
import { RatingsService } from '../src/modules/ratings/ratings.service.ts';
import { signUp, TEST_PASSWORD_COST } from './customer-harness.ts';
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
 * Ratings (decision 103): one per movie or show per library, 1–10, last writer wins per title by
 * change time, removals as tombstones, imports whose undated items only fill gaps, pages and 304s.
 */
describe(`ratings (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (
    method: string,
    path: string,
    payload?: unknown,
    who: { user: { id: string }; headers: object } = a,
    headers = {},
  ) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${who.user.id}${path}`,
      headers: { ...who.headers, ...headers },
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  /** Every live rating with its details (our page read; the bare list is p-stream's thinner shape). */
  const ratings = async (who: SignedIn = a) =>
    body<RatingsPage>(await call('GET', '/ratings?limit=2000', undefined, who)).items;
  const page = async (query = 'limit=1000', who: SignedIn = a) =>
    body<RatingsPage>(await call('GET', `/ratings?${query}`, undefined, who));
  const valueOf = async (tmdbId: string, who: SignedIn = a) =>
    (await ratings(who)).find((r) => r.tmdbId === tmdbId)?.rating ?? null;
  const movie = (rating: number, extra: Record<string, unknown> = {}) => ({
    type: 'movie',
    meta: movieMeta(),
    rating,
    ...extra,
  });
  const item = (tmdbId: string, rating: number, extra: Record<string, unknown> = {}) => ({
    tmdbId,
    ...movie(rating, { meta: movieMeta(`Film ${tmdbId}`, 2001), ...extra }),
  });

  beforeAll(async () => {
    t = await startSyncApp({
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.advance(10 * DAY);
    a = await register(t.server);
  });

  it('rates a movie and a show, and lists them with their meta, dates and values', async () => {
    expect(await ratings()).toEqual([]);
    const ratedAt = iso(-2 * DAY);
    const put = await call('PUT', '/ratings/603', movie(8, { ratedAt }));
    expect(put.statusCode, put.body).toBe(200);
    const expected: Rating = {
      tmdbId: '603',
      type: 'movie',
      meta: { title: 'The Matrix', year: 1999, poster: 'https://image.example/p.jpg', type: 'movie' },
      rating: 8,
      ratedAt,
      updatedAt: iso(),
    };
    expect(body(put)).toEqual(expected);
    t.clock.advance(MIN);
    await call('PUT', '/ratings/603', { type: 'show', meta: showMeta(), rating: 3 });
    const list = await ratings();
    // In the order they changed; a movie and a show with one TMDB id are two ratings.
    expect(list.map((r) => [r.type, r.rating])).toEqual([
      ['movie', 8],
      ['show', 3],
    ]);
    expect(list[0]).toEqual(expected);
    expect(list[1]).toMatchObject({
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      ratedAt: iso(),
    });
  });

  it("speaks p-stream's shapes: its list of every rating, and a POST that rates (0 removes) keeping the title held", async () => {
    expect(body(await call('GET', '/ratings'))).toEqual({ userId: a.user.id, ratings: [] });
    await call('PUT', '/ratings/603', movie(8));
    await call('PUT', '/ratings/1396', { type: 'show', meta: showMeta(), rating: 9 });
    // A local file's title (no TMDB number) is not in p-stream's list.
    await call('PUT', '/ratings/lib-x1', movie(7));
    const list = body<{ userId: string; ratings: unknown[] }>(await call('GET', '/ratings'));
    expect(list.userId).toBe(a.user.id);
    expect(list.ratings).toEqual(
      expect.arrayContaining([
        { tmdb_id: 603, type: 'movie', rating: 8 },
        { tmdb_id: 1396, type: 'tv', rating: 9 },
      ]),
    );
    expect(list.ratings).toHaveLength(2);
    t.clock.advance(MIN);
    const posted = await call('POST', '/ratings', { tmdb_id: 1396, type: 'tv', rating: 6.6 });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(body(posted)).toEqual({ userId: a.user.id, rating: { tmdb_id: 1396, type: 'tv', rating: 7 } });
    const show = (await ratings()).find((r) => r.tmdbId === '1396');
    expect(show).toMatchObject({ type: 'show', rating: 7, meta: { title: 'Breaking Bad' } });
    // A title never rated here: rated, without a title to show.
    await call('POST', '/ratings', { tmdb_id: 550, type: 'movie', rating: 5 });
    expect((await ratings()).find((r) => r.tmdbId === '550')).toMatchObject({
      rating: 5,
      meta: { title: '' },
    });
    t.clock.advance(MIN);
    await call('POST', '/ratings', { tmdb_id: 603, type: 'movie', rating: 0 });
    expect(await valueOf('603')).toBeNull();
    for (const bad of [
      { tmdb_id: 603, type: 'movie', rating: 11 },
      { tmdb_id: -1, type: 'movie', rating: 5 },
      { tmdb_id: 603, type: 'person', rating: 5 },
      { tmdb_id: 603, type: 'movie' },
      { tmdb_id: '603', type: 'movie', rating: 5 },
    ])
      expect((await call('POST', '/ratings', bad)).statusCode).toBe(400);
  });

  it('takes a rating date later than now as now; none: when the change was made (undated: now)', async () => {
    await call('PUT', '/ratings/1', movie(5, { ratedAt: iso(3 * DAY) }));
    await call('PUT', '/ratings/2', movie(5));
    await call('PUT', '/ratings/3', movie(5, { updatedAt: iso(-HOUR) }));
    const ratedAt = Object.fromEntries((await ratings()).map((r) => [r.tmdbId, r.ratedAt]));
    expect(ratedAt).toEqual({ '1': iso(), '2': iso(), '3': iso(-HOUR) });
  });

  it('refuses ratings outside 1–10, halves, a bad type or a date before the first film (400), writing nothing', async () => {
    for (const bad of [
      movie(0),
      movie(11),
      movie(2.5),
      movie(-1),
      { ...movie(5), type: 'tv' },
      { ...movie(5), type: undefined },
      movie(5, { ratedAt: '1850-01-01T00:00:00Z' }),
      movie(5, { updatedAt: 'yesterday' }),
      { type: 'movie', rating: 5 },
    ]) {
      const res = await call('PUT', '/ratings/603', bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(body(res).code).toBe('validation_failed');
    }
    const badImport = await call('PUT', '/ratings/import', [item('1', 7), item('2', 12)]);
    expect(badImport.statusCode).toBe(400);
    expect((await call('DELETE', '/ratings/603', { type: 'tv' })).statusCode).toBe(400);
    expect(await ratings()).toEqual([]);
  });

  it('last writer wins by change time, in both orders', async () => {
    await call('PUT', '/ratings/603', movie(6, { updatedAt: iso(-HOUR) }));
    // An older change arriving later loses: the answer is the rating held.
    const older = await call('PUT', '/ratings/603', movie(2, { updatedAt: iso(-2 * HOUR) }));
    expect(body<Rating>(older)).toMatchObject({ rating: 6, updatedAt: iso(-HOUR) });
    expect(await valueOf('603')).toBe(6);
    await call('PUT', '/ratings/603', movie(9, { updatedAt: iso(-MIN) }));
    expect(await valueOf('603')).toBe(9);
    // An undated change (the older clients) is a change made now.
    await call('PUT', '/ratings/603', movie(4));
    expect((await ratings())[0]).toMatchObject({ rating: 4, updatedAt: iso() });
  });

  it('a removal is remembered: an older write after it stays removed, a newer one brings the rating back', async () => {
    await call('PUT', '/ratings/603', movie(7, { updatedAt: iso(-2 * HOUR) }));
    const removed = await call('DELETE', '/ratings/603', { updatedAt: iso(-HOUR) });
    expect(body(removed)).toEqual({ success: true, count: 1, tmdbId: '603' });
    const late = await call('PUT', '/ratings/603', movie(3, { updatedAt: iso(-90 * MIN) }));
    expect(late.statusCode).toBe(200);
    expect(await ratings()).toEqual([]);
    // An import's undated item never brings it back either; a dated, newer one does.
    await call('PUT', '/ratings/import', [item('603', 5)]);
    expect(await ratings()).toEqual([]);
    await call('PUT', '/ratings/603', movie(8, { updatedAt: iso(-MIN) }));
    expect(await valueOf('603')).toBe(8);
    // A late, older removal leaves the newer rating.
    expect(body(await call('DELETE', '/ratings/603', { updatedAt: iso(-HOUR) })).count).toBe(0);
    expect(await valueOf('603')).toBe(8);
  });

  it('removals: `type` narrows, none means both kinds, repeated is harmless, a title never rated is fine', async () => {
    await call('PUT', '/ratings/603', movie(7));
    await call('PUT', '/ratings/603', { type: 'show', meta: showMeta(), rating: 2 });
    const one = await call('DELETE', '/ratings/603', { type: 'show' });
    expect(body(one)).toEqual({ success: true, count: 1, tmdbId: '603' });
    expect((await ratings()).map((r) => r.type)).toEqual(['movie']);
    t.clock.advance(MIN);
    expect(body(await call('DELETE', '/ratings/603', undefined))).toEqual({
      success: true,
      count: 1,
      tmdbId: '603',
    });
    expect(body(await call('DELETE', '/ratings/603', {}))).toEqual({
      success: true,
      count: 0,
      tmdbId: '603',
    });
    expect(body(await call('DELETE', '/ratings/999', null))).toEqual({
      success: true,
      count: 0,
      tmdbId: '999',
    });
    expect(await ratings()).toEqual([]);
    // Removing what was never rated is remembered too: a late, older rating from elsewhere stays out.
    await call('PUT', '/ratings/999', movie(5, { updatedAt: iso(-HOUR) }));
    expect(await ratings()).toEqual([]);
  });

  it('an import merges dated items by change time and fills only gaps with undated ones; count = rows written', async () => {
    await call('PUT', '/ratings/import', [
      item('1', 5, { updatedAt: iso(-HOUR) }),
      item('2', 5, { updatedAt: iso(-HOUR) }),
      item('3', 5, { updatedAt: iso(-HOUR) }),
    ]);
    const res = await call('PUT', '/ratings/import', [
      item('1', 9, { updatedAt: iso(-MIN) }), // newer: wins
      item('2', 1, { updatedAt: iso(-2 * HOUR) }), // older: loses
      item('3', 2), // undated over a held rating: never replaces it
      item('4', 6), // undated into a gap: written
      item('5', 3, { updatedAt: iso(-3 * HOUR) }),
      item('5', 7, { updatedAt: iso(-2 * HOUR) }), // the later of two in one import
    ]);
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toEqual({ success: true, count: 3 });
    const held = Object.fromEntries((await ratings()).map((r) => [r.tmdbId, r.rating]));
    expect(held).toEqual({ '1': 9, '2': 5, '3': 5, '4': 6, '5': 7 });
    expect((await ratings()).find((r) => r.tmdbId === '4')!.updatedAt).toBe(iso());
  });

  it('an import sent twice changes nothing the second time, dated or undated', async () => {
    const items = [
      item('10', 8, { updatedAt: iso(-HOUR), ratedAt: iso(-DAY) }),
      item('11', 4),
      { ...item('12', 6, { updatedAt: iso(-HOUR) }), type: 'show', meta: showMeta() },
    ];
    expect(body(await call('PUT', '/ratings/import', items))).toEqual({ success: true, count: 3 });
    const before = await page();
    t.clock.advance(MIN);
    expect(body(await call('PUT', '/ratings/import', items))).toEqual({ success: true, count: 0 });
    const since = await page(`updatedSince=${before.version}`);
    expect(since).toMatchObject({ items: [], removed: [], reset: false });
    expect((await page()).items).toEqual(before.items);
  });

  it('pages carry the changes since a version, removals included; unchanged reads are 304', async () => {
    await call('PUT', '/ratings/import', [item('1', 5), item('2', 6), item('3', 7)]);
    const first = await page('limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.reset).toBe(true);
    const second = await page(`cursor=${first.next!}&limit=2`);
    expect(second.next).toBeNull();
    expect([...first.items, ...second.items].map((r) => r.tmdbId).sort()).toEqual(['1', '2', '3']);
    const { version } = second;
    t.clock.advance(MIN);
    await call('PUT', '/ratings/2', movie(10, { meta: movieMeta('Film 2', 2001) }));
    await call('DELETE', '/ratings/3', { type: 'movie' });
    const since = await page(`updatedSince=${version}`);
    expect(since.reset).toBe(false);
    expect(since.items.map((r) => [r.tmdbId, r.rating])).toEqual([['2', 10]]);
    expect(since.removed).toEqual([{ tmdbId: '3', type: 'movie', removedAt: iso() }]);

    const whole = await call('GET', '/ratings');
    const etag = whole.headers.etag as string;
    expect(etag).toMatch(/^W\/"ratings-\d+-/);
    const unchanged = await call('GET', '/ratings', undefined, a, { 'if-none-match': etag });
    expect(unchanged.statusCode).toBe(304);
    expect(unchanged.body).toBe('');
    const pageUnchanged = await call('GET', `/ratings?updatedSince=${since.version}`, undefined, a, {
      'if-none-match': etag,
    });
    expect(pageUnchanged.statusCode).toBe(304);
    await call('PUT', '/ratings/1', movie(1));
    expect((await call('GET', '/ratings', undefined, a, { 'if-none-match': etag })).statusCode).toBe(200);
  });

  it('moves a device’s change time by its clock offset (X-Client-Time)', async () => {
    // The device's clock runs an hour ahead: its "now" is the server's now.
    const ahead = { [CLIENT_TIME_HEADER]: String(t.clock.ms + HOUR) };
    await call('PUT', '/ratings/603', movie(7, { updatedAt: iso(-MIN) }));
    await call('PUT', '/ratings/603', movie(3, { updatedAt: iso(30 * MIN) }), a, ahead);
    // Its change was made 30 minutes ago in the server's clock: older than the one held.
    expect(await valueOf('603')).toBe(7);
    await call('DELETE', '/ratings/603', { updatedAt: iso(HOUR) }, a, ahead);
    expect(await ratings()).toEqual([]);
  });

  it('old removals are purged after TOMBSTONE_TTL_MS; a read since before the purge starts over', async () => {
    await call('PUT', '/ratings/import', [item('1', 5), item('2', 6)]);
    const { version } = await page();
    await call('DELETE', '/ratings/1', { type: 'movie' });
    t.clock.advance(TOMBSTONE_TTL_MS + DAY);
    const purged = await new RatingsRepository(t.db.db).deleteTombstonesBefore(t.clock.ms - TOMBSTONE_TTL_MS);
    expect(purged).toBeGreaterThanOrEqual(1);
    a = await login(t.server, a.keys); // the session expired meanwhile
    const after = await page(`updatedSince=${version}`);
    expect(after.reset).toBe(true);
    expect(after.items.map((r) => r.tmdbId)).toEqual(['2']);
  });

  it('gives the Trakt pass the live ratings (not the removed), and writes as an import does', async () => {
    const repo = new RatingsRepository(t.db.db, t.db.dialect);
    const service = new RatingsService(t.db.db, repo, () => t.clock.ms);
    const lib = { userId: a.user.id, profileId: '' };
    const rated = { type: 'movie' as const, meta: movieMeta(), ratedAt: iso(-DAY), updatedAt: iso(-HOUR) };
    expect(await service.import(lib, [{ ...rated, tmdbId: '1', rating: 7 }])).toEqual({
      success: true,
      count: 1,
    });
    expect(await service.remove(lib, '2', 'show', iso(-MIN))).toEqual({
      success: true,
      count: 0,
      tmdbId: '2',
    });
    const rows = await repo.liveRows(lib);
    expect(rows.map((r) => [r.tmdb_id, r.media_type, r.rating, r.updated_at])).toEqual([
      ['1', 'movie', 7, t.clock.ms - HOUR],
    ]);
    // What the pass wrote is what devices read.
    expect((await ratings()).map((r) => [r.tmdbId, r.rating, r.ratedAt])).toEqual([['1', 7, iso(-DAY)]]);
  });

  it('belongs to its account: another account is refused (403) and sees nothing of it', async () => {
    await call('PUT', '/ratings/603', movie(8));
    const b = await register(t.server);
    for (const [method, path, payload] of [
      ['GET', '/ratings', undefined],
      ['PUT', '/ratings/603', movie(1)],
      ['PUT', '/ratings/import', [item('603', 1)]],
      ['DELETE', '/ratings/603', {}],
    ] as const) {
      const res = await t.server.inject({
        method,
        url: `/users/${a.user.id}${path}`,
        headers: b.headers,
        ...(payload ? { payload: payload as object } : {}),
      });
      expect(res.statusCode, `${method} ${path}`).toBe(403);
    }
    expect(await ratings(b)).toEqual([]);
    expect(await valueOf('603')).toBe(8);
  });

  it('a household profile has ratings of its own; an unknown profile is 404; both leave with their owner', async () => {
    const owner = await signUp(t.server);
    const profile = await t.server.inject({
      method: 'POST',
      url: `/customers/${owner.user.id}/profiles`,
      headers: owner.headers,
      payload: { fullname: 'Kid', icon: 'cat' },
    });
    const kid = { 'x-profile-id': (profile.json() as { profile: { _id: string } }).profile._id };
    await call('PUT', '/ratings/603', movie(9), owner);
    await call('PUT', '/ratings/603', movie(2), owner, kid);
    await call('PUT', '/ratings/550', movie(6), owner, kid);
    const own = body<RatingsPage>(await call('GET', '/ratings?limit=2000', undefined, owner)).items;
    const kids = body<RatingsPage>(await call('GET', '/ratings?limit=2000', undefined, owner, kid)).items;
    expect(own.map((r) => [r.tmdbId, r.rating])).toEqual([['603', 9]]);
    expect(kids.map((r) => [r.tmdbId, r.rating]).sort()).toEqual([
      ['550', 6],
      ['603', 2],
    ]);
    // One URL, two libraries: their ETags differ.
    const ownTag = (await call('GET', '/ratings', undefined, owner)).headers.etag;
    expect((await call('GET', '/ratings', undefined, owner, kid)).headers.etag).not.toBe(ownTag);
    for (const [method, path, payload] of [
      ['GET', '/ratings', undefined],
      ['PUT', '/ratings/603', movie(1)],
      ['PUT', '/ratings/import', [item('603', 1)]],
      ['DELETE', '/ratings/603', {}],
    ] as const) {
      const res = await call(method, path, payload, owner, { 'x-profile-id': 'ffffffffffffffffffffffff' });
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      expect(body(res).code).toBe('profile_not_found');
    }
    const rows = () =>
      t.db.db.selectFrom('ratings').select(['profile_id']).where('user_id', '=', owner.user.id).execute();
    expect(
      (
        await t.server.inject({
          method: 'DELETE',
          url: `/customers/${owner.user.id}/profiles/${kid['x-profile-id']}`,
          headers: owner.headers,
        })
      ).statusCode,
    ).toBe(200);
    expect(await rows()).toEqual([{ profile_id: '' }]);
    expect((await call('DELETE', '', undefined, owner)).statusCode).toBe(200);
    expect(await rows()).toEqual([]);
  });
});

describe(`ratings: limits (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const call = (method: 'PUT' | 'GET', path: string, payload?: unknown) =>
    t.server.inject({
      method,
      url: `/users/${a.user.id}${path}`,
      headers: a.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });
  const item = (tmdbId: string, rating = 5) => ({ tmdbId, type: 'movie', meta: movieMeta(), rating });

  beforeAll(async () => {
    t = await startSyncApp({
      deps: {
        accounts: { ratingsMax: 3, rateLimits: { rating_import: { points: 3, durationMs: 60 * MIN } } },
      },
    });
    a = await register(t.server);
  });
  afterAll(async () => t.close());

  it('a library holds at most its limit of ratings: 409 library_full, nothing written', async () => {
    expect((await call('PUT', '/ratings/import', [item('1'), item('2')])).statusCode).toBe(200);
    const over = await call('PUT', '/ratings/import', [item('1', 9), item('3'), item('4')]);
    expect(over.statusCode).toBe(409);
    expect(JSON.parse(over.body)).toMatchObject({
      code: 'library_full',
      message: expect.stringContaining('3 ratings'),
    });
    const held = () =>
      call('GET', '/ratings?limit=2000').then((r) =>
        (JSON.parse(r.body) as RatingsPage).items.map((x) => x.tmdbId).sort(),
      );
    expect(await held()).toEqual(['1', '2']);
    expect(
      (await call('PUT', '/ratings/3', { type: 'movie', meta: movieMeta(), rating: 4 })).statusCode,
    ).toBe(200);
    const one = await call('PUT', '/ratings/4', { type: 'movie', meta: movieMeta(), rating: 4 });
    expect(one.statusCode).toBe(409);
    expect(JSON.parse(one.body).code).toBe('library_full');
    // Changing a rating held is no new rating: allowed at the limit.
    expect(
      (await call('PUT', '/ratings/1', { type: 'movie', meta: movieMeta(), rating: 2 })).statusCode,
    ).toBe(200);
    expect(await held()).toEqual(['1', '2', '3']);
  });

  it('imports are rate limited per account (429 rate_limited)', async () => {
    // The first test used two of the three imports of this window.
    expect((await call('PUT', '/ratings/import', [item('1', 3)])).statusCode).toBe(200);
    const refused = await call('PUT', '/ratings/import', [item('1', 4)]);
    expect(refused.statusCode).toBe(429);
    expect(JSON.parse(refused.body).code).toBe('rate_limited');
  });
});
