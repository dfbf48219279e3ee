import type { Bookmark } from '@marquee/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import type { ImportOp } from '../../stores/library/bulk-merge.ts';
import { ratingImportOp } from '../../stores/library/ratings-ops.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse, type Handlers } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { HISTORY_PAGE_SIZE, importIntoLibrary, LIBRARY_PAGE_SIZE } from './file-import.ts';

const T0 = Date.UTC(2023, 0, 1);
const meta = { title: 'Alien', year: 1979, poster: null };
const plays = (n: number): ImportOp[] =>
  Array.from({ length: n }, (_, i) => ({
    kind: 'history-add',
    type: 'movie',
    tmdbId: '348',
    meta,
    watchedAt: T0 + i * 60_000,
    watched: 0,
    duration: 0,
    completed: true,
    imported: true,
    at: T0 + i * 60_000,
  }));
const bookmark: ImportOp = { kind: 'bookmark-add', type: 'movie', tmdbId: '603', meta, at: T0 };

let server: ReturnType<typeof contractServer>;
const serve = (handlers: Handlers = {}) => {
  server = contractServer({
    sync: { importBookmarks: ({ body }) => body as Bookmark[], importProgress: () => [] },
    history: {
      importWatchHistory: ({ body }) => ({ success: true, count: (body as unknown[]).length, items: [] }),
    },
    ...handlers,
  });
  vi.stubGlobal('fetch', vi.fn(server.fetch));
};

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  serve();
});
afterEach(() => vi.unstubAllGlobals());

const bodies = (endpoint: string) =>
  server.requests
    .filter((r) => r.endpoint === endpoint)
    .map((r) => JSON.parse(String(r.init.body)) as unknown[]);

describe("a file's library into the viewer's", () => {
  it('signed out: kept on this device, nothing sent', async () => {
    const outcome = await importIntoLibrary([bookmark, ...plays(3)]);
    expect(outcome).toMatchObject({ bookmarks: 1, plays: 3, savedTo: 'device' });
    expect(Object.keys(useLibraryStore.getState().history)).toHaveLength(3);
    expect(server.requests).toEqual([]);
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('signed in: what changed goes to the account in pages, and the same file again sends nothing', async () => {
    useAccountStore.getState().setAccount(testAccount());
    const progress: number[] = [];
    const ops = [bookmark, ...plays(HISTORY_PAGE_SIZE + 2)];
    const outcome = await importIntoLibrary(ops, { onProgress: (p) => progress.push(p.sent) });
    expect(outcome).toMatchObject({ bookmarks: 1, plays: HISTORY_PAGE_SIZE + 2, savedTo: 'account' });
    expect(bodies('sync.importBookmarks').map((b) => b.length)).toEqual([1]);
    expect(bodies('history.importWatchHistory').map((b) => b.length)).toEqual([HISTORY_PAGE_SIZE, 2]);
    expect(progress.at(-1)).toBe(HISTORY_PAGE_SIZE + 3);
    expect(useLibraryStore.getState().outbox).toEqual([]);

    const before = server.requests.length;
    const again = await importIntoLibrary(ops);
    expect(again).toMatchObject({ bookmarks: 0, plays: 0, progress: 0 });
    expect(server.requests.length).toBe(before);
  });

  it('a page refused for too many imports at once is sent again after a wait', async () => {
    let refusals = 1;
    serve({
      history: {
        importWatchHistory: ({ body }) =>
          refusals-- > 0
            ? refuse(429, { code: 'rate_limited' })
            : { success: true, count: (body as unknown[]).length, items: [] },
      },
    });
    useAccountStore.getState().setAccount(testAccount());
    const waits: number[] = [];
    const outcome = await importIntoLibrary(plays(2), { wait: async (ms) => void waits.push(ms) });
    expect(outcome.savedTo).toBe('account');
    expect(waits).toHaveLength(1);
    expect(bodies('history.importWatchHistory')).toHaveLength(2);
  });

  it('an account server of the older family keeps no history: the plays stay on this device', async () => {
    serve({ history: { importWatchHistory: () => refuse(404, { code: 'route_not_found' }) } });
    useAccountStore.getState().setAccount(testAccount());
    const outcome = await importIntoLibrary([bookmark, ...plays(2)]);
    expect(outcome).toMatchObject({ savedTo: 'account', historyStaysOnDevice: true });
    expect(Object.keys(useLibraryStore.getState().history)).toHaveLength(2);
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('offline part-way: what was not sent waits in the outbox, nothing is lost', async () => {
    serve({ history: { importWatchHistory: () => new Response('down', { status: 503 }) } });
    useAccountStore.getState().setAccount(testAccount());
    const outcome = await importIntoLibrary([bookmark, ...plays(2)]);
    expect(outcome.savedTo).toBe('queued');
    const outbox = useLibraryStore.getState().outbox;
    expect(outbox.map((op) => op.kind)).toEqual(['history-add', 'history-add']);
    expect(bodies('sync.importBookmarks')).toHaveLength(1);
  });
});

describe("an import's named lists", () => {
  it('named lists: the bookmarks carry their groups, and the order of lists changes once', async () => {
    useAccountStore.getState().setAccount(testAccount());
    const listed = (tmdbId: string, groups: string[]): ImportOp => ({ ...bookmark, tmdbId, groups });
    const ops: ImportOp[] = [
      listed('603', ['Sci-fi']),
      listed('604', ['Sci-fi', 'Sequels']),
      listed('605', ['Sequels']),
      { kind: 'group-order', order: ['Sci-fi', 'Sequels'], at: 0 },
    ];
    const outcome = await importIntoLibrary(ops);
    expect(outcome).toMatchObject({ bookmarks: 3, lists: 2, savedTo: 'account' });
    const [sent] = bodies('sync.importBookmarks') as { tmdbId: string; group?: string[] }[][];
    expect(sent!.map((b) => [b.tmdbId, b.group])).toEqual([
      ['603', ['Sci-fi']],
      ['604', ['Sci-fi', 'Sequels']],
      ['605', ['Sequels']],
    ]);
    const state = useLibraryStore.getState();
    expect(state.groupOrder).toEqual(['Sci-fi', 'Sequels']);
    // One change of the order, sent by the outbox as any change of it is.
    expect(state.outbox.map((op) => op.kind)).toEqual(['group-order']);

    const again = await importIntoLibrary(ops);
    expect(again).toMatchObject({ bookmarks: 0, lists: 0 });
    expect(useLibraryStore.getState().outbox).toHaveLength(1);
  });

  it('signed out: the named lists and their order stay on this device, nothing queued', async () => {
    const outcome = await importIntoLibrary([
      { ...bookmark, groups: ['Sci-fi'] },
      { kind: 'group-order', order: ['Sci-fi'], at: 0 },
    ]);
    expect(outcome).toMatchObject({ bookmarks: 1, lists: 1, savedTo: 'device' });
    expect(useLibraryStore.getState()).toMatchObject({ groupOrder: ['Sci-fi'], outbox: [] });
    expect(useLibraryStore.getState().bookmarks['movie:603']!.groups).toEqual(['Sci-fi']);
  });
});

describe("an import's ratings (decision 103)", () => {
  /** `n` ratings of a file, as the import page makes them (dated when rated). */
  const ratings = (n: number): ImportOp[] =>
    Array.from({ length: n }, (_, i) =>
      ratingImportOp(
        { tmdbId: String(1000 + i), type: 'movie', ...meta, rating: 1 + (i % 10), ratedAt: T0 + i * 60_000 },
        Date.now(),
      )!,
    );
  const imported: unknown[][] = [];
  const serveRatings = (answer?: () => ReturnType<typeof refuse> | Response) =>
    serve({
      ratings: {
        importRatings: ({ body }) => {
          if (answer) return answer();
          imported.push(body as unknown[]);
          return { success: true, count: (body as unknown[]).length };
        },
      },
    });
  beforeEach(() => {
    imported.length = 0;
  });

  it('signed in: the ratings that changed go to PUT …/ratings/import in pages, dated, and the same file again sends nothing', async () => {
    serveRatings();
    useAccountStore.getState().setAccount(testAccount());
    const ops = ratings(LIBRARY_PAGE_SIZE + 3);
    const outcome = await importIntoLibrary([bookmark, ...ops]);
    expect(outcome).toMatchObject({ bookmarks: 1, ratings: LIBRARY_PAGE_SIZE + 3, savedTo: 'account' });
    expect(outcome.ratingsStayOnDevice).toBe(false);
    expect(imported.map((page) => page.length)).toEqual([LIBRARY_PAGE_SIZE, 3]);
    expect(imported[0]![0]).toEqual({
      tmdbId: '1000',
      type: 'movie',
      meta: { title: 'Alien', year: 1979, type: 'movie' },
      rating: 1,
      ratedAt: new Date(T0).toISOString(),
      updatedAt: new Date(T0).toISOString(),
    });
    expect(Object.keys(useLibraryStore.getState().ratings)).toHaveLength(LIBRARY_PAGE_SIZE + 3);
    expect(useLibraryStore.getState().outbox).toEqual([]);

    const again = await importIntoLibrary(ops);
    expect(again).toMatchObject({ ratings: 0, savedTo: 'account' });
    expect(imported).toHaveLength(2);
  });

  it('signed out: the ratings stay on this device, nothing sent', async () => {
    serveRatings();
    const outcome = await importIntoLibrary(ratings(2));
    expect(outcome).toMatchObject({ ratings: 2, savedTo: 'device' });
    expect(server.requests).toEqual([]);
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('an account server of the older family keeps no ratings: they stay on this device, once asked', async () => {
    for (const status of [404, 405]) {
      useLibraryStore.getState().clear();
      serveRatings(() => refuse(status, { code: 'route_not_found' }));
      useAccountStore.getState().setAccount(testAccount());
      const outcome = await importIntoLibrary([bookmark, ...ratings(LIBRARY_PAGE_SIZE + 1)]);
      expect(outcome).toMatchObject({
        savedTo: 'account',
        ratingsStayOnDevice: true,
        historyStaysOnDevice: false,
      });
      expect(Object.keys(useLibraryStore.getState().ratings)).toHaveLength(LIBRARY_PAGE_SIZE + 1);
      expect(useLibraryStore.getState().outbox).toEqual([]);
      // Its second page is not asked for: the route is missing.
      expect(server.requests.filter((r) => r.endpoint === 'ratings.importRatings')).toHaveLength(1);
    }
  });

  it('offline: the ratings not sent wait in the outbox as ratings, nothing is lost', async () => {
    serveRatings(() => new Response('down', { status: 503 }));
    useAccountStore.getState().setAccount(testAccount());
    const outcome = await importIntoLibrary(ratings(2));
    expect(outcome.savedTo).toBe('queued');
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'rating-put', tmdbId: '1000', rating: 1, ratedAt: T0, at: T0 },
      { kind: 'rating-put', tmdbId: '1001', rating: 2, ratedAt: T0 + 60_000, at: T0 + 60_000 },
    ]);
  });
});
