import type { Bookmark } from '@marquee/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { emptySettings, testAccount, testSession, testUser } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import { createRestore } from './restore.ts';

const alien: Bookmark = {
  tmdbId: '348',
  meta: { title: 'Alien', year: 1979, type: 'movie' },
  group: [],
  favoriteEpisodes: [],
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const profile = { colorA: 'a', colorB: 'b', icon: 'cat' as const };

/** An account server whose session can be refused and whose household profile `kid` can be gone. */
function fakeServer() {
  const s = { session: true, kidGone: false };
  const gone = (headers: Headers) => s.kidGone && headers.get('x-profile-id') === 'kid';
  const server = contractServer({
    account: {
      me: () =>
        s.session
          ? { user: testUser(profile), session: testSession() }
          : refuse(401, { code: 'unauthorized' }),
    },
    sync: {
      bookmarks: ({ headers }) =>
        !s.session
          ? refuse(401, { code: 'unauthorized' })
          : gone(headers)
            ? refuse(404, { code: 'profile_not_found' })
            : [alien],
      progress: () => [],
      settings: () => emptySettings(),
    },
  });
  return { s, fetch: server.fetch };
}

/** The engine's lock as restore uses it: drains first, then runs. */
function fakeEngine() {
  const log: string[] = [];
  return {
    log,
    runExclusive: <T>(fn: (drain: () => Promise<void>) => Promise<T>) => {
      log.push('exclusive');
      return fn(async () => void log.push('drain'));
    },
    unblock: () => void log.push('unblock'),
    flush: async () => void log.push('flush'),
  };
}

let server: ReturnType<typeof fakeServer>;
let now = 0;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testAccount());
  server = fakeServer();
  vi.stubGlobal('fetch', vi.fn(server.fetch));
  now = 50_000;
});
afterEach(() => vi.unstubAllGlobals());

function setup() {
  const engine = fakeEngine();
  const logout = vi.fn(async () => undefined);
  const forgetActiveProfile = vi.fn(() => useLibraryStore.setState({ profile: '' }));
  const restoring = createRestore({ engine, logout, forgetActiveProfile, now: () => now });
  return { engine, logout, forgetActiveProfile, ...restoring };
}

describe('restore and pull, handed their engine, sign-out and clock', () => {
  it('restore drains under the lock, merges, then lets the engine send; the pull time is the clock’s', async () => {
    const r = setup();
    expect(r.lastPullAt()).toBe(0);
    expect(await r.restore()).toBe('ok');
    expect(Object.keys(useLibraryStore.getState().bookmarks)).toEqual(['movie:348']);
    expect(r.engine.log).toEqual(['exclusive', 'drain', 'unblock', 'flush']);
    expect(r.lastPullAt()).toBe(50_000);
    expect(r.logout).not.toHaveBeenCalled();
  });

  it('a refused session signs out through the sign-out it is handed', async () => {
    const r = setup();
    server.s.session = false;
    expect(await r.restore()).toBe('signed-out');
    expect(r.logout).toHaveBeenCalledTimes(1);
    expect(r.engine.log).not.toContain('unblock');
    expect(r.lastPullAt()).toBe(0);
  });

  it('the chosen profile gone: forgets it through the function handed, then restores the account’s own', async () => {
    const r = setup();
    useLibraryStore.setState({ profile: 'kid' });
    server.s.kidGone = true;
    expect(await r.restore()).toBe('ok');
    expect(r.forgetActiveProfile).toHaveBeenCalledTimes(1);
    expect(useLibraryStore.getState().profile).toBe('');
    expect(r.engine.log.filter((e) => e === 'exclusive')).toHaveLength(2);
  });

  it('a pull moves the pull time; a refused one hands over to restore, which decides', async () => {
    const r = setup();
    expect(await r.pull(['bookmarks'])).toBe('ok');
    expect(r.lastPullAt()).toBe(50_000);
    expect(r.engine.log).toEqual(['exclusive']);

    now = 60_000;
    server.s.session = false;
    expect(await r.pull(['bookmarks'])).toBe('no-account');
    expect(r.logout).toHaveBeenCalledTimes(1);
    expect(r.lastPullAt()).toBe(50_000);
  });
});

describe('the order of named lists (decision 097)', () => {
  /** A server keeping an order of lists; `order: null` = a server of the older family (no such route). */
  function listServer(answer: { order: string[] | null; status?: 404 | 405 }) {
    const server = contractServer({
      account: { me: () => ({ user: testUser(profile), session: testSession() }) },
      sync: {
        bookmarks: () => [{ ...alien, group: ['Horror'], favoriteEpisodes: [] }],
        progress: () => [],
        settings: () => emptySettings(),
        groupOrder: () =>
          answer.order === null
            ? refuse(answer.status ?? 404, { code: 'route_not_found' })
            : { groupOrder: answer.order },
      },
    });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    return server;
  }

  it('restore reads the order beside the bookmarks and their lists', async () => {
    const served = listServer({ order: ['Empty', 'Horror'] });
    expect(await setup().restore()).toBe('ok');
    const state = useLibraryStore.getState();
    expect(state.groupOrder).toEqual(['Empty', 'Horror']);
    expect(state.bookmarks['movie:348']!.groups).toEqual(['Horror']);
    expect(served.requests.map((r) => r.endpoint)).toContain('sync.groupOrder');
  });

  it('a server of the older family (404 or 405) is no failure: the device keeps its order', async () => {
    for (const status of [404, 405] as const) {
      useLibraryStore.setState({ groupOrder: ['Mine'] });
      listServer({ order: null, status });
      expect(await setup().restore()).toBe('ok');
      expect(useLibraryStore.getState().groupOrder).toEqual(['Mine']);
      expect(Object.keys(useLibraryStore.getState().bookmarks)).toEqual(['movie:348']);
    }
  });

  it('a bookmarks change re-reads the order; a pending order of this device stays over it', async () => {
    const answer = { order: ['A'] as string[] | null };
    const served = listServer(answer);
    const r = setup();
    expect(await r.pull(['bookmarks'])).toBe('ok');
    expect(useLibraryStore.getState().groupOrder).toEqual(['A']);

    answer.order = ['B', 'A'];
    expect(await r.pull(['bookmarks'])).toBe('ok');
    expect(useLibraryStore.getState().groupOrder).toEqual(['B', 'A']);
    expect(served.requests.filter((q) => q.endpoint === 'sync.groupOrder')).toHaveLength(2);

    useLibraryStore.getState().setGroupOrder(['Mine']);
    answer.order = ['Theirs'];
    expect(await r.pull(['bookmarks'])).toBe('ok');
    expect(useLibraryStore.getState().groupOrder).toEqual(['Mine']);

    // Reads of other kinds leave it alone.
    await r.pull(['progress']);
    expect(served.requests.filter((q) => q.endpoint === 'sync.groupOrder')).toHaveLength(3);
  });
});

describe('ratings on restore and pull (decision 103)', () => {
  const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };
  const pulp = {
    tmdbId: '680',
    type: 'movie' as const,
    meta: { title: 'Pulp Fiction', year: 1994, type: 'movie' },
    rating: 9,
    ratedAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
  };
  /** Our server (a page of every rating), one of the older family (404/405), or p-stream's list. */
  const served = (answer: 'page' | 404 | 405 | 'family') => {
    const fake = contractServer({
      account: { me: () => ({ user: testUser(profile), session: testSession() }) },
      sync: { bookmarks: () => [], progress: () => [], settings: () => emptySettings() },
      ratings: {
        ratings: () =>
          answer === 'page'
            ? { items: [pulp], removed: [], next: null, version: '3', reset: false }
            : answer === 'family'
              ? { userId: 'u1', ratings: [{ tmdb_id: 680, type: 'movie', rating: 9 }] }
              : refuse(answer, { code: 'route_not_found' }),
      },
    });
    vi.stubGlobal('fetch', vi.fn(fake.fetch));
    return fake;
  };

  it('restore reads the ratings; a pending rating of this device stays over them', async () => {
    const fake = served('page');
    useLibraryStore.getState().rate(heat, 6);
    expect(await setup().restore()).toBe('ok');
    expect(fake.requests.map((r) => r.endpoint)).toContain('ratings.ratings');
    const ratings = useLibraryStore.getState().ratings;
    expect(Object.keys(ratings).sort()).toEqual(['movie:680', 'movie:949']);
    expect(ratings['movie:680']).toMatchObject({ rating: 9, title: 'Pulp Fiction', year: 1994 });
  });

  it('a live change of ratings reads only them', async () => {
    const fake = served('page');
    expect(await setup().pull(['ratings'])).toBe('ok');
    expect(fake.requests.map((r) => r.endpoint)).toEqual(['ratings.ratings']);
    expect(Object.keys(useLibraryStore.getState().ratings)).toEqual(['movie:680']);
  });

  it('a server of the older family (404 or 405, or p-stream’s list of ratings) is no failure: the ratings stay on the device', async () => {
    for (const status of [404, 405, 'family'] as const) {
      served(status);
      useLibraryStore.getState().rate(heat, 7);
      expect(await setup().restore()).toBe('ok');
      expect(Object.keys(useLibraryStore.getState().ratings)).toEqual(['movie:949']);
      expect(await setup().pull(['ratings'])).toBe('ok');
      expect(useLibraryStore.getState().ratings['movie:949']!.rating).toBe(7);
    }
  });
});
