import type { Bookmark } from '@marquee/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { createLocalImport, IMPORT_PAGE_SIZE, inPages, mergedOrder } from './local-import.ts';

const alien = { tmdbId: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };
const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };

let server: ReturnType<typeof contractServer>;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  server = contractServer({
    sync: {
      importBookmarks: ({ body }) => body as Bookmark[],
      importProgress: () => [],
    },
  });
  vi.stubGlobal('fetch', vi.fn(server.fetch));
});
afterEach(() => vi.unstubAllGlobals());

describe('importing the library kept before sign-in', () => {
  it('sends pages of IMPORT_PAGE_SIZE, one after another', async () => {
    const pages: number[][] = [];
    const items = Array.from({ length: IMPORT_PAGE_SIZE * 2 + 1 }, (_, i) => i);
    await inPages(items, async (page) => void pages.push(page));
    expect(pages.map((p) => p.length)).toEqual([IMPORT_PAGE_SIZE, IMPORT_PAGE_SIZE, 1]);
    expect(pages.flat()).toEqual(items);
  });

  it('each import request carries the write headers it is handed', async () => {
    useLibraryStore.getState().addBookmark(alien);
    useLibraryStore.getState().saveProgress({ meta: matrix, watched: 100, duration: 8000 });
    useAccountStore.getState().setAccount(testAccount());
    await createLocalImport({ writeHeaders: (h) => ({ ...h, 'x-client-time': '777' }) })();
    expect(
      server.requests.map((r) => [r.endpoint, new Headers(r.init.headers).get('x-client-time')]).sort(),
    ).toEqual([
      ['sync.importBookmarks', '777'],
      ['sync.importProgress', '777'],
    ]);
  });

  it('signed out, or nothing kept: nothing is sent', async () => {
    const importLocalData = createLocalImport({ writeHeaders: (h) => h });
    useLibraryStore.getState().addBookmark(alien);
    await importLocalData();
    useLibraryStore.getState().clear();
    useAccountStore.getState().setAccount(testAccount());
    await importLocalData();
    expect(server.requests).toEqual([]);
  });

  it("keeps the account's order of lists and adds this device's new lists after it, in this device's order", async () => {
    expect(mergedOrder(['Halloween', 'Kids'], ['Noir', 'Kids', 'Anime'])).toEqual([
      'Halloween',
      'Kids',
      'Noir',
      'Anime',
    ]);
    expect(mergedOrder([], ['Noir'])).toEqual(['Noir']);
    const puts: unknown[] = [];
    let held = ['Halloween'];
    server = contractServer({
      sync: {
        importBookmarks: ({ body }) => body as Bookmark[],
        importProgress: () => [],
        groupOrder: () => ({ groupOrder: held }),
        putGroupOrder: ({ body }) => {
          puts.push(body);
          held = body as string[];
          return { groupOrder: held };
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    useLibraryStore.getState().addBookmark(alien);
    useLibraryStore.getState().setBookmarkLists({ ...alien }, ['Noir']);
    useLibraryStore.getState().setGroupOrder(['Noir', 'Halloween']);
    useAccountStore.getState().setAccount(testAccount());
    await createLocalImport({ writeHeaders: (h) => h })();
    expect(puts).toEqual([['Halloween', 'Noir']]);
    // Nothing new for the account: no PUT (it would overwrite another device's order for nothing).
    server.requests.length = 0;
    await createLocalImport({ writeHeaders: (h) => h })();
    expect(server.requests.map((r) => r.endpoint)).not.toContain('sync.putGroupOrder');
  });

  it("sign-in carries this device's ratings to the account (dated, so a newer one there stays); an older server keeps them here", async () => {
    const sent: unknown[] = [];
    let missing = false;
    server = contractServer({
      sync: { importBookmarks: ({ body }) => body as Bookmark[], importProgress: () => [] },
      ratings: {
        importRatings: ({ body }) => {
          if (missing) return refuse(404, { code: 'route_not_found' });
          sent.push(...(body as unknown[]));
          return { success: true, count: (body as unknown[]).length };
        },
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    useLibraryStore.getState().rate(alien, 7, { ratedAt: Date.UTC(2025, 0, 2) });
    const { updatedAt } = useLibraryStore.getState().ratings['movie:348']!;
    useAccountStore.getState().setAccount(testAccount());
    await createLocalImport({ writeHeaders: (h) => h })();
    expect(sent).toEqual([
      {
        tmdbId: '348',
        type: 'movie',
        meta: { title: 'Alien', year: 1979, type: 'movie' },
        rating: 7,
        ratedAt: '2025-01-02T00:00:00.000Z',
        updatedAt: new Date(updatedAt).toISOString(),
      },
    ]);
    expect(server.requests.map((r) => r.endpoint)).not.toContain('sync.importBookmarks');

    missing = true;
    await createLocalImport({ writeHeaders: (h) => h })();
    expect(useLibraryStore.getState().outbox).toEqual([]);
    expect(useLibraryStore.getState().ratings['movie:348']!.rating).toBe(7);
  });

  it('an account that cannot take the import now gets the ratings through the outbox', async () => {
    server = contractServer({
      sync: { importBookmarks: ({ body }) => body as Bookmark[], importProgress: () => [] },
      ratings: { importRatings: () => new Response('down', { status: 503 }) },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    useLibraryStore.getState().rate(alien, 4);
    const held = useLibraryStore.getState().ratings['movie:348']!;
    useAccountStore.getState().setAccount(testAccount());
    await createLocalImport({ writeHeaders: (h) => h })();
    expect(useLibraryStore.getState().outbox).toMatchObject([
      { kind: 'rating-put', tmdbId: '348', rating: 4, ratedAt: held.ratedAt, at: held.updatedAt },
    ]);
  });
});
