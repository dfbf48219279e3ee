import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Bookmark,
  ProgressListItem,
  type BookmarksPage,
  type ProgressPage,
  type ProgressRemoval,
} from '@marquee/contract';
import { BookmarksRepository } from '../src/modules/bookmarks/bookmarks.repository.ts';
import { IMPORT_BODY_LIMIT_BYTES } from '../src/modules/library/library-imports.ts';
import { LIBRARY_LIMITS, type LibraryRef } from '../src/modules/library/library.ts';
import { ProgressRepository, type ProgressRow } from '../src/modules/progress/progress.repository.ts';
import { ProgressService } from '../src/modules/progress/progress.service.ts';
import { TOMBSTONE_TTL_MS } from '../src/modules/maintenance/cleanup.job.ts';
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

/*
 * Big libraries (issue 10, decision 072): pages and changes for our client, the whole list unchanged
 * for existing clients, imports of 10,000 items, library limits, and removals that outlive imports of
 * older clients. Everything through the HTTP API, on SQLite and on PostgreSQL.
 */

const body = <T = any>(res: { body: string }) => JSON.parse(res.body) as T;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

type Page = ProgressPage | BookmarksPage;
const progressKey = (p: { tmdbId: string; meta: { type: string }; episode: { id: string | null } }) =>
  `${p.tmdbId}/${p.meta.type}/${p.episode.id ?? ''}`;

describe(`big libraries (${testDialect})`, () => {
  let t: SyncTestApp;
  let a: SignedIn;
  const iso = (offsetMs = 0) => new Date(t.clock.ms + offsetMs).toISOString();
  const call = (
    method: string,
    path: string,
    options: { payload?: unknown; headers?: Record<string, string>; who?: SignedIn } = {},
  ) =>
    t.server.inject({
      method: method as 'GET',
      url: `/users/${(options.who ?? a).user.id}${path}`,
      headers: { ...(options.who ?? a).headers, ...options.headers },
      ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
    });
  /** `n` episodes of one show, each watched at its own time (the i-th one i seconds after `from`). */
  const episodes = (
    n: number,
    options: { tmdbId?: string; from?: number; dated?: boolean; title?: string } = {},
  ) =>
    Array.from({ length: n }, (_, i) => ({
      tmdbId: options.tmdbId ?? '1396',
      meta: showMeta(options.title ?? 'Breaking Bad'),
      duration: 2900,
      watched: 100 + i,
      seasonId: `s${Math.floor(i / 100)}`,
      episodeId: `e${i}`,
      seasonNumber: Math.floor(i / 100) + 1,
      episodeNumber: (i % 100) + 1,
      ...(options.dated === false
        ? {}
        : { updatedAt: new Date((options.from ?? t.clock.ms - DAY) + i * 1000).toISOString() }),
    }));
  const bookmarkItems = (n: number, prefix = 'b') =>
    Array.from({ length: n }, (_, i) => ({
      tmdbId: `${prefix}${i}`,
      meta: movieMeta(`Movie ${i}`, 2000),
      updatedAt: new Date(t.clock.ms - DAY + i * 1000).toISOString(),
    }));

  /** Reads every page of changes, the way our client does; returns the pages and the last version. */
  async function readPages<P extends Page>(
    kind: 'progress' | 'bookmarks',
    start: Record<string, string> = {},
    limit = 1000,
    between?: (n: number) => Promise<void>,
  ) {
    const pages: P[] = [];
    let query: Record<string, string> = { limit: String(limit), ...start };
    for (;;) {
      const res = await call('GET', `/${kind}?${new URLSearchParams(query).toString()}`);
      expect(res.statusCode, res.body).toBe(200);
      const page = body<P>(res);
      pages.push(page);
      if (!page.next) return { pages, version: page.version, etag: res.headers.etag as string };
      await between?.(pages.length);
      query = { limit: String(limit), cursor: page.next };
    }
  }

  /** The client's merge of progress pages: per page, removals (rows changed at or before them), then rows. */
  function mergeProgress(pages: ProgressPage[], held = new Map<string, ProgressListItem>()) {
    const covers = (r: ProgressRemoval, p: ProgressListItem) =>
      p.tmdbId === r.tmdbId &&
      (p.episode.id ? 'show' : 'movie') === r.type &&
      (!r.seasonId || p.season.id === r.seasonId) &&
      (!r.episodeId || p.episode.id === r.episodeId) &&
      Date.parse(p.updatedAt) <= Date.parse(r.removedAt);
    for (const page of pages) {
      if (page.reset) held.clear();
      for (const r of page.removed) for (const [k, p] of held) if (covers(r, p)) held.delete(k);
      for (const p of page.items) held.set(progressKey(p), p);
    }
    return held;
  }
  const fullProgress = async (who = a) => body<ProgressListItem[]>(await call('GET', '/progress', { who }));
  const asMap = (rows: ProgressListItem[]) => new Map(rows.map((p) => [progressKey(p), p]));

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    t.clock.advance(10 * MIN);
    a = await register(t.server);
  });

  it('pages give every row exactly once; then an unchanged library answers 304 and no changes', async () => {
    expect((await call('PUT', '/progress/import', { payload: episodes(2500) })).statusCode).toBe(200);
    const { pages, version, etag } = await readPages<ProgressPage>('progress');
    expect(pages.map((p) => p.items.length)).toEqual([1000, 1000, 500]);
    expect(pages.map((p) => p.reset)).toEqual([true, false, false]);
    const seen = pages.flatMap((p) => p.items.map(progressKey));
    expect(new Set(seen).size).toBe(2500);
    expect(new Set(seen)).toEqual(new Set((await fullProgress()).map(progressKey)));
    expect(etag).toMatch(/^W\/".+"$/);

    // Nothing changed: a 304 (before anything is read), whichever read asks.
    for (const path of [
      `/progress?limit=1000&updatedSince=${version}`,
      '/progress?limit=1000',
      '/progress',
    ]) {
      const res = await call('GET', path, { headers: { 'if-none-match': etag } });
      expect(res.statusCode, path).toBe(304);
      expect(res.body).toBe('');
    }
    expect(body(await call('GET', `/progress?updatedSince=${version}`))).toEqual({
      items: [],
      removed: [],
      reset: false,
      next: null,
      version,
    });

    // A change: the old ETag no longer matches, and the change list holds just that row.
    await call('PUT', '/progress/1396', { payload: { ...episodes(1)[0], watched: 42, updatedAt: iso() } });
    const changed = await call('GET', `/progress?updatedSince=${version}`, {
      headers: { 'if-none-match': etag },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(body<ProgressPage>(changed).items.map((p) => [p.episode.id, p.watched])).toEqual([['e0', '42']]);
    // Another profile's or another user's ETag never matches this library.
    const b = await register(t.server);
    expect((await call('GET', '/progress', { who: b, headers: { 'if-none-match': etag } })).statusCode).toBe(
      200,
    );
  });

  it('writes between pages: rows come again when they change, removals come too, the pages add up to the library at the end', async () => {
    expect((await call('PUT', '/progress/import', { payload: episodes(2500) })).statusCode).toBe(200);
    const b = await login(t.server, a.keys);
    const { pages } = await readPages<ProgressPage>('progress', {}, 1000, async (n) => {
      if (n !== 1) return;
      // Another device, while this one is between its first and second page:
      await call('PUT', '/progress/1396', {
        who: b,
        payload: { ...episodes(1)[0], watched: 999, updatedAt: iso() },
      }); // a row already read
      await call('DELETE', '/progress/1396', { who: b, payload: { episodeId: 'e1', updatedAt: iso() } }); // a row already read
      await call('DELETE', '/progress/1396', { who: b, payload: { episodeId: 'e2400', updatedAt: iso() } }); // a row not read yet
      await call('PUT', '/progress/603', {
        who: b,
        payload: { meta: movieMeta(), duration: 8000, watched: 60, updatedAt: iso() },
      }); // a new row
    });
    const merged = mergeProgress(pages);
    expect(merged).toEqual(asMap(await fullProgress()));
    expect(merged.get('1396/show/e0')!.watched).toBe('999');
    expect(merged.has('1396/show/e1')).toBe(false);
    expect(merged.has('1396/show/e2400')).toBe(false);
    expect(merged.has('603/movie/')).toBe(true);
    // Rows nobody touched came exactly once; the changed one a second time, at its new value.
    const counts = new Map<string, number>();
    for (const p of pages.flatMap((page) => page.items))
      counts.set(progressKey(p), (counts.get(progressKey(p)) ?? 0) + 1);
    expect([...counts].filter(([, n]) => n > 1)).toEqual([['1396/show/e0', 2]]);
    // Both removals come (the row not read yet is simply not there any more).
    expect(pages.flatMap((p) => p.removed).map((r) => r.episodeId)).toEqual(['e1', 'e2400']);
  });

  it('updatedSince: only what changed since, removals included, whichever device changed it', async () => {
    await call('PUT', '/progress/import', {
      payload: [...episodes(30), ...episodes(5, { tmdbId: '1399', title: 'Game of Thrones' })],
    });
    await call('PUT', '/bookmarks', { payload: bookmarkItems(5) });
    const progressRead = await readPages<ProgressPage>('progress');
    const bookmarksRead = await readPages<BookmarksPage>('bookmarks');
    const held = mergeProgress(progressRead.pages);

    const b = await login(t.server, a.keys);
    await call('PUT', '/progress/1396', {
      who: b,
      payload: { ...episodes(3)[2], watched: 7, updatedAt: iso() },
    });
    await call('DELETE', '/progress/1396', {
      who: b,
      payload: { seasonId: 's0', episodeId: 'e4', updatedAt: iso() },
    });
    await call('DELETE', '/progress/1399', { who: b, payload: {} }); // the whole title, as existing clients send it
    await call('DELETE', '/bookmarks/b1', { who: b });
    await call('POST', '/bookmarks/new', { who: b, payload: { meta: movieMeta('New') } });

    const changes = await readPages<ProgressPage>('progress', { updatedSince: progressRead.version });
    expect(changes.pages).toHaveLength(1);
    const [page] = changes.pages;
    expect(page!.reset).toBe(false);
    expect(page!.items.map((p) => [p.tmdbId, p.episode.id, p.watched])).toEqual([['1396', 'e2', '7']]);
    expect(page!.removed.map((r) => [r.tmdbId, r.type, r.seasonId, r.episodeId])).toEqual([
      ['1396', 'show', 's0', 'e4'],
      ['1399', 'movie', null, null],
      ['1399', 'show', null, null],
    ]);
    expect(mergeProgress(changes.pages, held)).toEqual(asMap(await fullProgress()));

    const bookmarkChanges = body<BookmarksPage>(
      await call('GET', `/bookmarks?updatedSince=${bookmarksRead.version}`),
    );
    // A removal without `type` removes both kinds (decision 011).
    expect(bookmarkChanges.removed.map((r) => [r.tmdbId, r.type])).toEqual([
      ['b1', 'movie'],
      ['b1', 'show'],
    ]);
    expect(bookmarkChanges.items.map((r) => r.tmdbId)).toEqual(['new']);
  });

  it('a position the server cannot complete (from another database, or older than purged removals) reads everything again', async () => {
    await call('PUT', '/bookmarks', { payload: bookmarkItems(3) });
    const fromElsewhere = body<BookmarksPage>(await call('GET', '/bookmarks?updatedSince=999999'));
    expect(fromElsewhere.reset).toBe(true);
    expect(fromElsewhere.items).toHaveLength(3);

    await call('PUT', '/progress/import', { payload: [...episodes(2), ...episodes(1, { tmdbId: '9' })] });
    const { version } = await readPages<BookmarksPage>('bookmarks');
    const progressRead = await readPages<ProgressPage>('progress');
    await call('DELETE', '/bookmarks/b0');
    await call('DELETE', '/progress/9', { payload: {} });
    t.clock.advance(TOMBSTONE_TTL_MS + DAY);
    const before = t.clock.ms - TOMBSTONE_TTL_MS;
    expect(await new BookmarksRepository(t.db.db).deleteTombstonesBefore(before)).toBeGreaterThan(0);
    expect(await new ProgressRepository(t.db.db).deleteTombstonesBefore(before)).toBeGreaterThan(0);
    a = await login(t.server, a.keys); // the session expired meanwhile
    const after = body<BookmarksPage>(await call('GET', `/bookmarks?updatedSince=${version}`));
    expect(after.reset).toBe(true);
    expect(after.items.map((b) => b.tmdbId).sort()).toEqual(['b1', 'b2']);
    const progressAfter = body<ProgressPage>(
      await call('GET', `/progress?updatedSince=${progressRead.version}`),
    );
    expect(progressAfter.reset).toBe(true);
    expect(progressAfter.items.map(progressKey).sort()).toEqual(['1396/show/e0', '1396/show/e1']);
    // A read that starts after the purge is complete again.
    const { version: now } = await readPages<ProgressPage>('progress');
    expect(body<ProgressPage>(await call('GET', `/progress?updatedSince=${now}`)).reset).toBe(false);

    expect((await call('GET', '/progress?cursor=not-a-cursor')).statusCode).toBe(400);
    expect(body(await call('GET', '/progress?cursor=not-a-cursor')).code).toBe('bad_request');
    expect(body(await call('GET', '/progress?limit=0')).code).toBe('validation_failed');
    expect(body(await call('GET', '/progress?updatedSince=yesterday')).code).toBe('validation_failed');
  });

  it('existing clients get the whole list exactly as the older servers sent it', async () => {
    await call('PUT', '/progress/import', {
      payload: [
        ...episodes(1500),
        { tmdbId: '603', meta: movieMeta(), duration: 8160, watched: 1200, updatedAt: iso(-5 * MIN) },
        {
          tmdbId: '11',
          meta: { title: '', year: null, type: 'movie' },
          duration: 10,
          watched: 5,
          updatedAt: iso(-4 * MIN),
        },
      ],
    });
    await call('PUT', '/bookmarks', {
      payload: [
        ...bookmarkItems(1200),
        { tmdbId: '12', meta: { title: 'No year', year: null, type: 'movie' } },
      ],
    });
    await call('DELETE', '/bookmarks/b3');

    const rows = [...mergeProgress((await readPages<ProgressPage>('progress')).pages).values()];
    const res = await call('GET', '/progress');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    // Latest change first, serialised by the contract's schema: the answer before pages existed.
    const expected = rows.sort((x, y) => Date.parse(y.updatedAt) - Date.parse(x.updatedAt));
    expect(res.body).toBe(JSON.stringify(z.array(ProgressListItem).parse(expected)));
    expect(body<ProgressListItem[]>(res)[0]).toMatchObject({
      tmdbId: '11',
      duration: '10',
      watched: '5',
      season: { id: null, number: null },
    });

    const marks = (await readPages<BookmarksPage>('bookmarks')).pages.flatMap((p) => p.items);
    const bookmarks = await call('GET', '/bookmarks');
    expect(bookmarks.body).toBe(
      JSON.stringify(
        z.array(Bookmark).parse(marks.sort((x, y) => Date.parse(y.updatedAt) - Date.parse(x.updatedAt))),
      ),
    );
    expect(body<Bookmark[]>(bookmarks)).toHaveLength(1200);
  });

  it('a 10,000-item import fits; a larger body gets a clear 413, more items a 400', async () => {
    const items = episodes(10_000);
    const payload = JSON.stringify(items);
    expect(Buffer.byteLength(payload)).toBeGreaterThan(1024 * 1024);
    const res = await t.server.inject({
      method: 'PUT',
      url: `/users/${a.user.id}/progress/import`,
      headers: { ...a.headers, 'content-type': 'application/json' },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body<ProgressListItem[]>(res)).toHaveLength(10_000);
    expect(await fullProgress()).toHaveLength(10_000);
    expect((await call('PUT', '/bookmarks', { payload: bookmarkItems(10_000) })).statusCode).toBe(200);
    expect(body<Bookmark[]>(await call('GET', '/bookmarks'))).toHaveLength(10_000);

    const huge = episodes(10_000).map((e) => ({ ...e, meta: { ...e.meta, title: 'x'.repeat(1000) } }));
    expect(Buffer.byteLength(JSON.stringify(huge))).toBeGreaterThan(IMPORT_BODY_LIMIT_BYTES);
    const tooLarge = await call('PUT', '/progress/import', { payload: huge });
    expect(tooLarge.statusCode).toBe(413);
    expect(body(tooLarge)).toMatchObject({ errorType: 'message', code: 'payload_too_large' });
    expect(body(tooLarge).message).toMatch(/8 MiB/);
    // Items are checked a slice at a time; one bad item anywhere refuses the whole import, as before.
    const bad: unknown[] = episodes(10_000, { tmdbId: '1' });
    bad[7654] = { ...(bad[7654] as object), meta: { title: 7, type: 'show' } };
    const refused = await call('PUT', '/progress/import', { payload: bad });
    expect(refused.statusCode).toBe(400);
    expect(body(refused)).toMatchObject({ errorType: 'validation', code: 'validation_failed' });
    expect(body(refused).issues).toEqual([
      { path: ['body', '7654', 'meta', 'title'], message: expect.any(String) },
    ]);
    expect(await fullProgress()).toHaveLength(10_000);
    const tooMany = await call('PUT', '/bookmarks', { payload: bookmarkItems(10_001, 'x') });
    expect(tooMany.statusCode).toBe(400);
    expect(body(tooMany).code).toBe('validation_failed');
    // Other routes keep the 1 MiB limit.
    expect(
      (
        await call('PUT', '/progress/1396', {
          payload: { ...episodes(1)[0], meta: showMeta('y'.repeat(2 * 1024 * 1024)) },
        })
      ).statusCode,
    ).toBe(413);
  });

  it('other users are answered while a big library is imported and read', async () => {
    const b = await register(t.server);
    const order: string[] = [];
    const big = call('PUT', '/progress/import', { payload: episodes(10_000) }).then((res) => {
      order.push('import');
      return res;
    });
    const small = call('GET', '/bookmarks', { who: b }).then(() => order.push('other'));
    await Promise.all([big, small]);
    expect((await big).statusCode).toBe(200);
    expect(order).toEqual(['other', 'import']);

    order.length = 0;
    const read = call('GET', '/progress').then((res) => {
      order.push('read');
      return res;
    });
    const other = call('GET', '/progress', { who: b }).then(() => order.push('other'));
    await Promise.all([read, other]);
    expect(body<unknown[]>(await read)).toHaveLength(10_000);
    expect(order).toEqual(['other', 'read']);
  });

  it('the whole list is one state of the library even when a write comes in between its slices', async () => {
    expect((await call('PUT', '/progress/import', { payload: episodes(1500) })).statusCode).toBe(200);
    const lib: LibraryRef = { userId: a.user.id, profileId: '' };
    /** The library's repository, except that right after the first slice is read, e0 is watched again. */
    class WriteBetweenSlices extends ProgressRepository {
      written = false;
      override async listSlice(...args: Parameters<ProgressRepository['listSlice']>) {
        const rows = await super.listSlice(...args);
        if (!this.written) {
          this.written = true;
          await service.put(lib, { ...episodes(1)[0]!, watched: 4321, updatedAt: iso() });
        }
        return rows;
      }
    }
    const repository = new WriteBetweenSlices(t.db.db, t.db.dialect);
    const service = new ProgressService(t.db.db, repository, () => t.clock.ms);
    const { version, json } = await service.library.listJson(lib);
    expect(repository.written).toBe(true);
    // e0 moved from the bottom of the list (its oldest row) to the top while the list was read: a list
    // read across that write would hold it nowhere (or twice). This one is the state after the write.
    const rows = JSON.parse(json.toString()) as ProgressListItem[];
    expect(rows).toHaveLength(1500);
    expect(rows[0]).toMatchObject({ episode: { id: 'e0' }, watched: '4321' });
    expect(rows).toEqual(await fullProgress());
    expect(version).toBe(Number(body<ProgressPage>(await call('GET', '/progress?limit=1')).version));
  });

  it('a library has a size limit: a write past it is refused with 409 library_full and writes nothing', async () => {
    const lib: LibraryRef = { userId: a.user.id, profileId: '' };
    const progress = new ProgressRepository(t.db.db);
    // Straight into the database: the library is 3 rows short of the limit.
    const rows = (n: number, from: number): ProgressRow[] =>
      Array.from({ length: n }, (_, i) => ({
        id: crypto.randomUUID(),
        user_id: lib.userId,
        profile_id: '',
        tmdb_id: String(100_000 + Math.floor((from + i) / 1000)),
        media_type: 'show',
        season_id: 's',
        episode_id: `e${from + i}`,
        season_number: 1,
        episode_number: 1,
        meta: JSON.stringify(showMeta()),
        duration: 100,
        watched: 1,
        updated_at: t.clock.ms - DAY,
        seq: 0,
      }));
    for (let from = 0; from < LIBRARY_LIMITS.progress - 3; from += 2000) {
      const batch = rows(Math.min(2000, LIBRARY_LIMITS.progress - 3 - from), from);
      await t.db.db.transaction().execute(async (trx) => {
        let seq = await progress.versions.reserve(trx, lib, 'progress', batch.length);
        for (const row of batch) row.seq = seq++;
        await progress.writeMany(batch, false, trx);
      });
    }
    const count = async () => progress.count(lib);
    expect(await count()).toBe(LIBRARY_LIMITS.progress - 3);

    const full = await call('PUT', '/progress/import', { payload: episodes(5, { tmdbId: '7' }) });
    expect(full.statusCode).toBe(409);
    expect(body(full)).toMatchObject({ errorType: 'message', code: 'library_full' });
    expect(await count()).toBe(LIBRARY_LIMITS.progress - 3);
    // Rows it already holds do not count: 3 new and 2 known fit.
    const known = rows(2, 0).map((r) => ({
      tmdbId: r.tmdb_id,
      meta: showMeta(),
      duration: 100,
      watched: 50,
      seasonId: 's',
      episodeId: r.episode_id,
      updatedAt: iso(),
    }));
    expect(
      (await call('PUT', '/progress/import', { payload: [...episodes(3, { tmdbId: '7' }), ...known] }))
        .statusCode,
    ).toBe(200);
    expect(await count()).toBe(LIBRARY_LIMITS.progress);
    const one = await call('PUT', '/progress/8', {
      payload: { meta: movieMeta(), duration: 10, watched: 5 },
    });
    expect(one.statusCode).toBe(409);
    expect(body(one).code).toBe('library_full');
    // Changing a row it holds still works.
    expect(
      (
        await call('PUT', '/progress/7', {
          payload: { ...episodes(1, { tmdbId: '7' })[0], watched: 77, updatedAt: iso() },
        })
      ).statusCode,
    ).toBe(200);

    const bookmarks = new BookmarksRepository(t.db.db);
    const marks = Array.from({ length: LIBRARY_LIMITS.bookmarks - 1 }, (_, i) => ({
      user_id: lib.userId,
      profile_id: '',
      tmdb_id: `m${i}`,
      media_type: 'movie' as const,
      meta: JSON.stringify(movieMeta()),
      group_names: '[]',
      favorite_episodes: '[]',
      deleted: 0,
      updated_at: t.clock.ms - DAY,
      seq: 0,
    }));
    for (let i = 0; i < marks.length; i += 2000) {
      const batch = marks.slice(i, i + 2000);
      await t.db.db.transaction().execute(async (trx) => {
        let seq = await bookmarks.versions.reserve(trx, lib, 'bookmarks', batch.length);
        for (const row of batch) row.seq = seq++;
        await bookmarks.writeMany(batch, false, trx);
      });
    }
    expect((await call('POST', '/bookmarks/last', { payload: { meta: movieMeta() } })).statusCode).toBe(200);
    const over = await call('POST', '/bookmarks/over', { payload: { meta: movieMeta() } });
    expect(over.statusCode).toBe(409);
    expect(body(over).code).toBe('library_full');
    expect(body(await call('PUT', '/bookmarks', { payload: bookmarkItems(2, 'x') })).code).toBe(
      'library_full',
    );
    expect(
      (await call('POST', '/bookmarks/m1', { payload: { meta: movieMeta('Renamed') } })).statusCode,
    ).toBe(200);
    expect(await bookmarks.countLive(lib)).toBe(LIBRARY_LIMITS.bookmarks);
  }, 120_000);

  it('removals win over imports without updatedAt (older clients): nothing removed on another device comes back', async () => {
    await call('POST', '/bookmarks/603', { payload: { meta: movieMeta() } });
    await call('PUT', '/progress/603', {
      payload: { meta: movieMeta(), duration: 8000, watched: 4000, updatedAt: iso(-MIN) },
    });
    await call('PUT', '/progress/import', { payload: episodes(3, { from: t.clock.ms - 2 * MIN }) });

    // Another device removes the bookmark, the movie's progress and one episode.
    const b = await login(t.server, a.keys);
    t.clock.advance(MIN);
    await call('DELETE', '/bookmarks/603', { who: b });
    await call('DELETE', '/progress/603', { who: b, payload: {} });
    await call('DELETE', '/progress/1396', { who: b, payload: { episodeId: 'e0' } });

    // An older client signs in later and imports what it still holds, without change times.
    t.clock.advance(MIN);
    const old = await login(t.server, a.keys, 'Old client');
    const imported = await call('PUT', '/bookmarks', {
      who: old,
      payload: [
        { tmdbId: '603', meta: movieMeta() },
        { tmdbId: '604', meta: movieMeta('Only on the old client') },
      ],
    });
    expect(imported.statusCode).toBe(200);
    expect(body<Bookmark[]>(imported).map((x) => x.tmdbId)).toEqual(['604']);
    const progressImport = await call('PUT', '/progress/import', {
      who: old,
      payload: [
        { tmdbId: '603', meta: movieMeta(), duration: 8000, watched: 5000 },
        ...episodes(3, { dated: false }),
      ],
    });
    expect(progressImport.statusCode).toBe(200);
    expect(body<Bookmark[]>(await call('GET', '/bookmarks')).map((x) => x.tmdbId)).toEqual(['604']);
    const rows = await fullProgress();
    expect(rows.map(progressKey).sort()).toEqual(['1396/show/e1', '1396/show/e2']);

    // A dated import still follows the rule: older than the removal stays removed, newer comes back.
    await call('PUT', '/bookmarks', {
      payload: [{ tmdbId: '603', meta: movieMeta(), updatedAt: iso(-3 * MIN) }],
    });
    expect(body<Bookmark[]>(await call('GET', '/bookmarks')).map((x) => x.tmdbId)).toEqual(['604']);
    await call('PUT', '/progress/import', { payload: [{ ...episodes(1)[0], updatedAt: iso() }] });
    expect((await fullProgress()).map(progressKey).sort()).toEqual([
      '1396/show/e0',
      '1396/show/e1',
      '1396/show/e2',
    ]);
  });
});
