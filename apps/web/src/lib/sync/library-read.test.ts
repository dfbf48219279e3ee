import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Bookmark, ProgressListItem, ProgressRemoval, Rating } from '@marquee/contract';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { applyOp, type LibraryData, type OutboxOpInput } from '../../stores/library/outbox.ts';
import { emptySettings, testAccount, testSession, testUser } from '../../test/account-fixtures.ts';
import { contractServer, type FakeRequest } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { applyLibraryRead, readLibrary, type LibraryRead, type ReadTransport } from './library-read.ts';
import { logout, restore, syncEngine } from './session.ts';

/**
 * A sync server with pages and change numbers as decision 072 describes them (a small model of
 * apps/server's): every write takes the next number, removals of bookmarks are tombstones, and reads
 * answer pages of changes after a number, or a 304 while If-None-Match names the current version.
 */
function pagedServer() {
  let version = 0;
  const bookmarks = new Map<string, { row: Bookmark; seq: number; deleted: boolean }>();
  const progress = new Map<string, { row: ProgressListItem; seq: number }>();
  const removals: { removal: ProgressRemoval; seq: number }[] = [];
  const requests: { path: string; query: Record<string, string>; ifNoneMatch: string | null }[] = [];
  const etag = () => `W/"v${version}"`;
  const json = (body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'content-type': 'application/json', etag: etag(), ...headers },
    });

  const session = testSession('x');
  // The account routes answer what the contract types; the reads answer pages with their own headers.
  const api = contractServer({
    account: {
      me: () => ({ user: testUser({ colorA: 'a', colorB: 'b', icon: 'cat' }), session }),
      patchSession: () => session,
    },
    sync: {
      settings: emptySettings,
      bookmarks: (request) => s.read('bookmarks', request),
      progress: (request) => s.read('progress', request),
    },
  });

  const s = {
    requests,
    /** Pages hold this many changes at most (the client asks for more; the server decides). */
    pageSize: 2,
    addBookmark(tmdbId: string, at: number) {
      bookmarks.set(tmdbId, {
        row: {
          tmdbId,
          meta: { title: `T${tmdbId}`, year: 2000, type: 'movie' },
          group: [],
          favoriteEpisodes: [],
          updatedAt: new Date(at).toISOString(),
        },
        seq: ++version,
        deleted: false,
      });
    },
    removeBookmark(tmdbId: string, at: number) {
      const held = bookmarks.get(tmdbId)!;
      bookmarks.set(tmdbId, {
        row: { ...held.row, updatedAt: new Date(at).toISOString() },
        seq: ++version,
        deleted: true,
      });
    },
    putEpisode(tmdbId: string, episodeId: string, watched: number, at: number) {
      const row: ProgressListItem = {
        id: `${tmdbId}-${episodeId}`,
        tmdbId,
        season: { id: 's1', number: 1 },
        episode: { id: episodeId, number: 1 },
        meta: { title: `Show ${tmdbId}`, year: 2010, type: 'show' },
        duration: '3000',
        watched: String(watched),
        updatedAt: new Date(at).toISOString(),
      };
      progress.set(`${tmdbId}/${episodeId}`, { row, seq: ++version });
    },
    removeTitle(tmdbId: string, at: number) {
      for (const [key, p] of progress)
        if (p.row.tmdbId === tmdbId && Date.parse(p.row.updatedAt) <= at) progress.delete(key);
      removals.push({
        removal: {
          tmdbId,
          type: 'show',
          seasonId: null,
          episodeId: null,
          removedAt: new Date(at).toISOString(),
        },
        seq: ++version,
      });
    },
    /** One read of `kind`: a page of changes after a number, or 304 while If-None-Match is current. */
    read(kind: 'bookmarks' | 'progress', { query, headers }: FakeRequest): Response {
      if (headers.get('if-none-match') === etag() && !query.cursor)
        return new Response(null, { status: 304, headers: { etag: etag() } });
      // A change number this server never gave out: everything again, from the start.
      const since =
        query.updatedSince !== undefined && Number(query.updatedSince) <= version
          ? Number(query.updatedSince)
          : null;
      const [after, floor, reset] = query.cursor
        ? query.cursor.split('.').map(Number)
        : since !== null
          ? [since, since, 0]
          : [0, version, 1];
      const changes =
        kind === 'bookmarks'
          ? [...bookmarks.values()]
              .filter((b) => b.seq > after! && (!b.deleted || b.seq > floor!))
              .map((b) => ({
                seq: b.seq,
                item: b.deleted ? null : b.row,
                removal: b.deleted
                  ? { tmdbId: b.row.tmdbId, type: 'movie' as const, removedAt: b.row.updatedAt }
                  : null,
              }))
          : [
              ...[...progress.values()]
                .filter((p) => p.seq > after!)
                .map((p) => ({ seq: p.seq, item: p.row, removal: null })),
              ...removals
                .filter((r) => r.seq > Math.max(after!, floor!))
                .map((r) => ({ seq: r.seq, item: null, removal: r.removal })),
            ];
      changes.sort((x, y) => x.seq - y.seq);
      const page = changes.slice(0, s.pageSize);
      return json({
        items: page.flatMap((c) => (c.item ? [c.item] : [])),
        removed: page.flatMap((c) => (c.removal ? [c.removal] : [])),
        reset: reset === 1 && !query.cursor,
        next: changes.length > s.pageSize ? `${page.at(-1)!.seq}.${floor}.0` : null,
        version: String(version),
      });
    },
    handler: async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(String(input), 'http://localhost');
      const headers = new Headers(init.headers);
      requests.push({
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        ifNoneMatch: headers.get('if-none-match'),
      });
      return api.fetch(input, init);
    },
  };
  return s;
}

const account = testAccount();
const HOUR = 60 * 60_000;
const t0 = Date.now() - 24 * HOUR;
const transport = (baseUrl = ''): ReadTransport => ({ baseUrl, token: 't', now: () => Date.now() });

let server: ReturnType<typeof pagedServer>;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  server = pagedServer();
  vi.stubGlobal('fetch', vi.fn(server.handler));
  syncEngine.unblock();
});
afterEach(() => vi.unstubAllGlobals());

describe('readLibrary', () => {
  it('reads every page the first time, then asks only for changes, conditionally on this instance', async () => {
    for (let i = 0; i < 5; i++) server.addBookmark(`b${i}`, t0 + i);
    const first = await readLibrary('bookmarks', 'u1', null, transport());
    expect(first.kind).toBe('pages');
    if (first.kind !== 'pages') return;
    expect(first.full).toBe(true);
    expect(first.pages.flatMap((p) => p.items.map((b) => b.tmdbId))).toEqual(['b0', 'b1', 'b2', 'b3', 'b4']);
    expect(first.mark).toMatchObject({ version: '5', etag: 'W/"v5"' });
    expect(server.requests.map((r) => r.query)).toEqual([
      { limit: '1000' },
      { limit: '1000', cursor: '2.5.0' },
      { limit: '1000', cursor: '4.5.0' },
    ]);

    server.requests.length = 0;
    expect(await readLibrary('bookmarks', 'u1', first.mark, transport())).toEqual({ kind: 'unchanged' });
    expect(server.requests).toEqual([
      { path: '/users/u1/bookmarks', query: { limit: '1000', updatedSince: '5' }, ifNoneMatch: 'W/"v5"' },
    ]);

    server.removeBookmark('b1', t0 + 10);
    server.addBookmark('b9', t0 + 11);
    const changes = await readLibrary('bookmarks', 'u1', first.mark, transport());
    expect(changes).toMatchObject({
      kind: 'pages',
      full: false,
      mark: { version: '7', fullAt: first.mark!.fullAt },
    });
    if (changes.kind !== 'pages') return;
    expect(changes.pages).toEqual([
      {
        items: [expect.objectContaining({ tmdbId: 'b9' })],
        removed: [{ tmdbId: 'b1', type: 'movie', removedAt: new Date(t0 + 10).toISOString() }],
      },
    ]);

    // Another origin's server would have to allow If-None-Match: it is not sent there.
    server.requests.length = 0;
    await readLibrary('bookmarks', 'u1', changes.mark, transport('https://sync.example'));
    expect(server.requests[0]!.ifNoneMatch).toBeNull();
  });

  it('starts over when the server says so (reset), and takes a plain list from servers without pages', async () => {
    server.addBookmark('b0', t0);
    const read = await readLibrary('bookmarks', 'u1', { version: '999', etag: null, fullAt: 0 }, transport());
    expect(read).toMatchObject({ kind: 'pages', full: true });

    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify([
              {
                tmdbId: '603',
                meta: { title: 'The Matrix', year: 1999, type: 'movie' },
                updatedAt: new Date(t0).toISOString(),
              },
            ]),
            { status: 200 },
          ),
      ),
    );
    const old = await readLibrary('bookmarks', 'u1', { version: '3', etag: null, fullAt: 0 }, transport());
    expect(old).toEqual({
      kind: 'pages',
      full: true,
      pages: [{ items: [expect.objectContaining({ tmdbId: '603' })], removed: [] }],
      mark: null,
    });
  });
});

describe('applyLibraryRead', () => {
  const episode = (id: string, watched: number, at: number, title = '') => ({
    id,
    number: 1,
    title,
    seasonId: 's1',
    updatedAt: at,
    progress: { watched, duration: 3000 },
  });
  const held: LibraryData = {
    bookmarks: {
      'movie:1': { tmdbId: '1', type: 'movie', title: 'One', year: 2000, poster: null, updatedAt: t0 },
    },
    progress: {
      'show:7': {
        tmdbId: '7',
        type: 'show',
        title: 'Seven',
        year: 2010,
        poster: null,
        updatedAt: t0 + 2 * HOUR,
        seasons: { s1: { id: 's1', number: 1, title: 'Season one' } },
        episodes: { e1: episode('e1', 100, t0, 'Pilot'), e2: episode('e2', 200, t0 + 2 * HOUR) },
      },
    },
  };
  const row = (episodeId: string, watched: number, at: number): ProgressListItem => ({
    id: episodeId,
    tmdbId: '7',
    season: { id: 's1', number: 1 },
    episode: { id: episodeId, number: 1 },
    meta: { title: 'Seven', year: 2010, type: 'show' },
    duration: '3000',
    watched: String(watched),
    updatedAt: new Date(at).toISOString(),
  });

  it('changes go over what the device holds: removals by the rule, rows in place of what is held', () => {
    const read: LibraryRead<'progress'> = {
      kind: 'pages',
      full: false,
      pages: [
        // The title removed an hour in: e1 (older) goes, e2 (changed later) stays; then e1 written again.
        {
          items: [],
          removed: [
            {
              tmdbId: '7',
              type: 'show',
              seasonId: null,
              episodeId: null,
              removedAt: new Date(t0 + HOUR).toISOString(),
            },
          ],
        },
        { items: [row('e1', 5, t0 + 3 * HOUR), row('e2', 150, t0 + HOUR / 2)], removed: [] },
      ],
      mark: null,
    };
    const out = applyLibraryRead(held, 'progress', read);
    const entry = out.progress['show:7']!;
    expect(entry.episodes.e1).toMatchObject({ progress: { watched: 5 }, updatedAt: t0 + 3 * HOUR });
    // The server's row is the truth for its key, even when older than what the device showed.
    expect(entry.episodes.e2).toMatchObject({ progress: { watched: 150 }, updatedAt: t0 + HOUR / 2 });
    expect(entry.updatedAt).toBe(t0 + 3 * HOUR);
    expect(entry.seasons.s1!.title).toBe('Season one');
    expect(out.bookmarks).toBe(held.bookmarks);

    const bookmarks = applyLibraryRead(held, 'bookmarks', {
      kind: 'pages',
      full: false,
      pages: [
        {
          items: [
            {
              tmdbId: '2',
              meta: { title: 'Two', year: null, type: 'movie' },
              group: [],
              favoriteEpisodes: [],
              updatedAt: new Date(t0).toISOString(),
            },
          ],
          removed: [{ tmdbId: '1', type: 'movie', removedAt: new Date(t0 + HOUR).toISOString() }],
        },
      ],
      mark: null,
    });
    expect(Object.keys(bookmarks.bookmarks)).toEqual(['movie:2']);

    const full = applyLibraryRead(held, 'progress', {
      kind: 'pages',
      full: true,
      pages: [{ items: [row('e9', 1, t0)], removed: [] }],
      mark: null,
    });
    expect(Object.keys(full.progress['show:7']!.episodes)).toEqual(['e9']);
    expect(applyLibraryRead(held, 'progress', { kind: 'unchanged' })).toBe(held);
  });

  it('applies pages of plays: removals per play (remembered), then each play as the server holds it', () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    const item = (tmdbId: string, watchedAt: number, episode?: string) => ({
      tmdbId,
      episode: episode ? { id: episode, number: 1 } : {},
      season: episode ? { id: 's1', number: 1 } : {},
      meta: { title: episode ? 'Seven' : 'One', year: null, type: episode ? 'show' : 'movie' },
      duration: '3000',
      watched: '2900',
      watchedAt: iso(watchedAt),
      completed: true,
      updatedAt: iso(watchedAt),
    });
    const first = applyLibraryRead(held, 'history', {
      kind: 'pages',
      full: true,
      pages: [{ items: [item('1', t0), item('1', t0 + HOUR), item('7', t0, 'e1')], removed: [] }],
      mark: null,
    });
    expect(
      Object.values(first.history!)
        .map((p) => `${p.tmdbId}/${p.episode?.id ?? ''}`)
        .sort(),
    ).toEqual(['1/', '1/', '7/e1']);
    expect(Object.values(first.history!).find((p) => p.tmdbId === '7')).toMatchObject({
      type: 'show',
      season: { id: 's1', number: 1 },
      episode: { id: 'e1', number: 1 },
      watched: 2900,
      duration: 3000,
    });
    const changed = applyLibraryRead(first, 'history', {
      kind: 'pages',
      full: false,
      pages: [
        {
          items: [],
          removed: [
            {
              tmdbId: '1',
              type: 'movie',
              seasonId: null,
              episodeId: null,
              watchedAt: iso(t0),
              removedAt: iso(t0 + 2 * HOUR),
            },
          ],
        },
      ],
      mark: null,
    });
    expect(
      Object.values(changed.history!)
        .map((p) => p.watchedAt)
        .sort(),
    ).toEqual([t0, t0 + HOUR]);
    expect(Object.values(changed.removals!.history!)).toEqual([t0 + 2 * HOUR]);
  });

  it('remembers the bookmark removals the server names, so an older add replayed over them stays out', () => {
    const removed = (tmdbId: string, at: number) => ({
      tmdbId,
      type: 'movie' as const,
      removedAt: new Date(at).toISOString(),
    });
    const withSecond: LibraryData = {
      ...held,
      bookmarks: {
        ...held.bookmarks,
        'movie:2': {
          tmdbId: '2',
          type: 'movie',
          title: 'Two',
          year: 2001,
          poster: null,
          updatedAt: t0 + 2 * HOUR,
        },
      },
    };
    const out = applyLibraryRead(withSecond, 'bookmarks', {
      kind: 'pages',
      full: false,
      // movie:1 removed after it was bookmarked; movie:2's removal is older than its bookmark (the server's rule keeps it).
      pages: [{ items: [], removed: [removed('1', t0 + HOUR), removed('2', t0 + HOUR)] }],
      mark: null,
    });
    expect(Object.keys(out.bookmarks)).toEqual(['movie:2']);
    expect(out.removals?.bookmarks).toEqual({ 'movie:1': t0 + HOUR });

    // A pending add made before the removal, replayed over the server's state, does not bring it back; a later one does.
    const add = (at: number): OutboxOpInput => ({
      kind: 'bookmark-add',
      type: 'movie',
      tmdbId: '1',
      meta: { title: 'One', year: 2000, poster: null },
      at,
    });
    expect(applyOp(out, add(t0 + HOUR / 2)).bookmarks['movie:1']).toBeUndefined();
    expect(applyOp(out, add(t0 + 2 * HOUR)).bookmarks['movie:1']).toMatchObject({ updatedAt: t0 + 2 * HOUR });
  });
});

describe('ratings read page by page (decision 103)', () => {
  const iso = (ms: number) => new Date(ms).toISOString();
  const rating = (tmdbId: string, value: number, at: number, type: 'movie' | 'show' = 'movie'): Rating => ({
    tmdbId,
    type,
    meta: { title: `T${tmdbId}`, year: 2001, type, poster: `/p${tmdbId}.jpg` },
    rating: value,
    ratedAt: iso(at - HOUR),
    updatedAt: iso(at),
  });
  const removal = (tmdbId: string, at: number) => ({ tmdbId, type: 'movie' as const, removedAt: iso(at) });

  it('reads the ratings route with the library’s page query, then only changes', async () => {
    const queries: Record<string, string>[] = [];
    const fake = contractServer({
      ratings: {
        ratings: ({ query }) => {
          queries.push(query);
          return query.cursor
            ? { items: [rating('2', 4, t0)], removed: [], next: null, version: '9', reset: false }
            : {
                items: [rating('1', 8, t0)],
                removed: [removal('3', t0)],
                next: 'c1',
                version: '8',
                reset: false,
              };
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(fake.fetch));
    const read = await readLibrary('ratings', 'u1', null, transport());
    expect(fake.requests.map((r) => r.endpoint)).toEqual(['ratings.ratings', 'ratings.ratings']);
    expect(queries).toEqual([{ limit: '1000' }, { limit: '1000', cursor: 'c1' }]);
    expect(read).toMatchObject({ kind: 'pages', full: true, mark: { version: '9' } });
    const data = applyLibraryRead({ bookmarks: {}, progress: {} }, 'ratings', read);
    expect(Object.keys(data.ratings!).sort()).toEqual(['movie:1', 'movie:2']);
    expect(data.ratings!['movie:1']).toEqual({
      tmdbId: '1',
      type: 'movie',
      title: 'T1',
      year: 2001,
      poster: '/p1.jpg',
      rating: 8,
      ratedAt: t0 - HOUR,
      updatedAt: t0,
    });
    expect(data.removals!.ratings).toEqual({ 'movie:3': t0 });
  });

  it('p-stream’s list of ratings (no titles, no times) is nothing to apply: the device keeps its own', async () => {
    const fake = contractServer({
      ratings: { ratings: () => ({ userId: 'u1', ratings: [{ tmdb_id: 680, type: 'tv', rating: 8 }] }) },
    });
    vi.stubGlobal('fetch', vi.fn(fake.fetch));
    const read = await readLibrary('ratings', 'u1', null, transport());
    expect(read).toEqual({ kind: 'unchanged' });
    const held: LibraryData = { bookmarks: {}, progress: {}, ratings: {} };
    expect(applyLibraryRead(held, 'ratings', read)).toBe(held);
  });

  it('a page of changes: removals by the rule (remembered), then each rating as the server holds it', () => {
    const held: LibraryData = { bookmarks: {}, progress: {} };
    const first = applyLibraryRead(held, 'ratings', {
      kind: 'pages',
      full: true,
      pages: [
        {
          items: [rating('1', 8, t0), rating('2', 6, t0 + 2 * HOUR), rating('1', 3, t0, 'show')],
          removed: [],
        },
      ],
      mark: null,
    });
    const changed = applyLibraryRead(first, 'ratings', {
      kind: 'pages',
      full: false,
      // movie:1 removed after it was rated; movie:2's removal is older than its rating (it stays).
      pages: [
        { items: [], removed: [removal('1', t0 + HOUR), removal('2', t0 + HOUR)] },
        { items: [rating('4', 10, t0 + 3 * HOUR)], removed: [] },
      ],
      mark: null,
    });
    expect(Object.keys(changed.ratings!).sort()).toEqual(['movie:2', 'movie:4', 'show:1']);
    expect(changed.removals!.ratings).toEqual({ 'movie:1': t0 + HOUR });
    // A pending rating made before the removal, replayed over it, stays out; a later one comes back.
    const put = (at: number): OutboxOpInput => ({
      kind: 'rating-put',
      type: 'movie',
      tmdbId: '1',
      meta: { title: 'T1', year: 2001, poster: null },
      rating: 5,
      ratedAt: at,
      at,
    });
    expect(applyOp(changed, put(t0 + HOUR / 2)).ratings!['movie:1']).toBeUndefined();
    expect(applyOp(changed, put(t0 + 2 * HOUR)).ratings!['movie:1']).toMatchObject({ rating: 5 });
    // The server's rating of a title it names again is the truth for it (its tombstone goes).
    const back = applyLibraryRead(changed, 'ratings', {
      kind: 'pages',
      full: false,
      pages: [{ items: [rating('1', 7, t0 + 4 * HOUR)], removed: [] }],
      mark: null,
    });
    expect(back.ratings!['movie:1']!.rating).toBe(7);
    expect(back.removals!.ratings).toEqual({});
  });
});

describe('restore with pages and changes', () => {
  it('the first restore reads everything, the next ones only changes (a 304 when none); logout starts over', async () => {
    useAccountStore.getState().setAccount(account);
    server.addBookmark('b0', t0);
    server.putEpisode('7', 'e1', 100, t0);
    server.putEpisode('7', 'e2', 200, t0 + 1);
    server.putEpisode('8', 'e1', 300, t0 + 2);
    expect(await restore()).toBe('ok');
    const library = () => useLibraryStore.getState();
    expect(Object.keys(library().progress).sort()).toEqual(['show:7', 'show:8']);
    expect(Object.keys(library().bookmarks)).toEqual(['movie:b0']);

    server.requests.length = 0;
    expect(await restore()).toBe('ok');
    const reads = server.requests.filter(
      (r) => r.path === '/users/u1/bookmarks' || r.path === '/users/u1/progress',
    );
    expect(reads.map((r) => [r.path, r.query.updatedSince, r.ifNoneMatch])).toEqual([
      ['/users/u1/bookmarks', '4', 'W/"v4"'],
      ['/users/u1/progress', '4', 'W/"v4"'],
    ]);
    expect(Object.keys(library().progress).sort()).toEqual(['show:7', 'show:8']);

    // Another device removes a show and changes an episode: only that comes, and it is merged.
    server.removeTitle('8', Date.now());
    server.putEpisode('7', 'e2', 999, Date.now());
    server.requests.length = 0;
    expect(await restore()).toBe('ok');
    expect(server.requests.filter((r) => r.path === '/users/u1/progress').map((r) => r.query)).toEqual([
      { limit: '1000', updatedSince: '4' },
    ]);
    expect(Object.keys(library().progress)).toEqual(['show:7']);
    expect(library().progress['show:7']!.episodes.e2!.progress.watched).toBe(999);
    expect(library().progress['show:7']!.episodes.e1!.progress.watched).toBe(100);

    await logout();
    useAccountStore.getState().setAccount({ ...account, sessionId: 's2' });
    server.requests.length = 0;
    expect(await restore()).toBe('ok');
    expect(server.requests.filter((r) => r.path === '/users/u1/progress')[0]!.query).toEqual({
      limit: '1000',
    });
    expect(Object.keys(library().progress)).toEqual(['show:7']);
  });
});
