import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  initStores,
  preferredAudioLanguage,
  useAccountStore,
  useLibraryStore,
  usePreferencesStore,
  useSubtitlesStore,
} from '../../stores/index.ts';
import { appStorage, memoryStorage, setAppStorage } from '../storage.ts';
import {
  changeSyncedSettings,
  importLocalData,
  logout,
  PENDING_SIGN_OUTS_KEY,
  pull,
  restore,
  startSync,
  syncEngine,
  useSessionStatus,
} from './session.ts';
import { IMPORT_PAGE_SIZE } from './local-import.ts';
import { useRejectedChanges } from './rejected-changes.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import type { Bookmark } from '@marquee/contract';
import { emptySettings, testAccount, testSession, testUser } from '../../test/account-fixtures.ts';

/**
 * The sync API as the contract types it, with enough state to check what the client sends and how it
 * merges: each handler answers its endpoint's response type.
 */
function fakeServer() {
  const s = {
    meStatus: 200,
    down: false,
    bookmarks: [] as Bookmark[],
    /** What the client imported, as it sent it. */
    progress: [] as Record<string, unknown>[],
    settings: emptySettings(),
    calls: [] as string[],
    /** Progress writes received (answered 503, so they stay pending on the device). */
    progressPuts: [] as { watched: number }[],
    /** Bookmarks the server refuses for good (400). */
    refuse: new Set<string>(),
  };
  const api = contractServer({
    account: {
      me: () =>
        s.meStatus === 200
          ? {
              user: testUser({ colorA: '#0A54FF', colorB: '#2ECFA8', icon: 'couch' }),
              session: testSession(),
            }
          : refuse(s.meStatus as 401, { code: 'unauthorized' }),
      patchSession: ({ params }) => testSession('enc', params.sid ?? 's1'),
      deleteSession: ({ params }) => ({ id: params.sid ?? 's1' }),
    },
    sync: {
      bookmarks: () => s.bookmarks,
      importBookmarks: ({ body }) => {
        for (const b of body as Bookmark[])
          if (!s.bookmarks.some((x) => x.tmdbId === b.tmdbId)) s.bookmarks.push(b);
        return s.bookmarks;
      },
      addBookmark: ({ body }) => {
        const b = body as Bookmark;
        if (s.refuse.has(b.tmdbId))
          return refuse(400, { code: 'validation_failed', errorType: 'validation' });
        s.bookmarks = s.bookmarks.filter((x) => x.tmdbId !== b.tmdbId).concat([b]);
        return b;
      },
      deleteBookmark: ({ params }) => {
        s.bookmarks = s.bookmarks.filter((b) => b.tmdbId !== params.tmdbId);
        return { tmdbId: params.tmdbId! };
      },
      progress: () => [],
      putProgress: ({ body }) => {
        s.progressPuts.push(body as { watched: number });
        return refuse(503, { code: 'database_unavailable' });
      },
      importProgress: ({ body }) => {
        s.progress.push(...(body as Record<string, unknown>[]));
        return [];
      },
      settings: () => s.settings,
      putSettings: ({ body }) => Object.assign(s.settings, body),
    },
  });
  const handler = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    s.calls.push(`${init.method ?? 'GET'} ${url.pathname}`);
    if (s.down) throw new TypeError('Failed to fetch');
    return api.fetch(input, init);
  };
  return { s, handler };
}

const account = testAccount();
const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
const alien = { tmdbId: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  server = fakeServer();
  vi.stubGlobal('fetch', vi.fn(server.handler));
  syncEngine.unblock();
});
afterEach(() => vi.unstubAllGlobals());

describe('restore', () => {
  it('merges: the server’s state, with pending local changes re-applied over it', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.bookmarks.push({
      tmdbId: '348',
      meta: { title: 'Alien', year: 1979, type: 'movie' },
      group: [],
      favoriteEpisodes: [],
      updatedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    server.s.settings.applicationTheme = 'red';
    // A change made while the server was unreachable stays pending…
    server.s.down = true;
    useLibraryStore.getState().addBookmark(matrix);
    await syncEngine.flush();
    expect(useLibraryStore.getState().outbox).toHaveLength(1);
    expect(await restore()).toBe('failed');
    expect(useSessionStatus.getState().restoreFailed).toBe(true);
    expect(useAccountStore.getState().account).not.toBeNull();
    expect(Object.keys(useLibraryStore.getState().bookmarks)).toEqual(['movie:603']);
    // …and when the server is back, restore sends it first, then merges.
    server.s.down = false;
    syncEngine.resetBackoff();
    expect(await restore()).toBe('ok');
    expect(Object.keys(useLibraryStore.getState().bookmarks).sort()).toEqual(['movie:348', 'movie:603']);
    expect(server.s.bookmarks.map((b) => b.tmdbId).sort()).toEqual(['348', '603']);
    expect(useLibraryStore.getState().outbox).toEqual([]);
    expect(usePreferencesStore.getState().theme).toBe('red');
    expect(useAccountStore.getState().account?.profile.icon).toBe('couch');
  });

  it('a server bookmark the user removed on this device (pending) stays removed', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.bookmarks.push({
      tmdbId: '348',
      meta: { title: 'Alien', year: 1979, type: 'movie' },
      group: [],
      favoriteEpisodes: [],
      updatedAt: new Date(Date.now() - 60_000).toISOString(),
    });
    await restore();
    server.s.down = true;
    useLibraryStore.getState().removeBookmark('movie', '348');
    await syncEngine.flush();
    server.s.down = false;
    // The pull happens before the removal is acknowledged (sending paused): the merge keeps the removal.
    vi.stubGlobal(
      'fetch',
      vi.fn((i: string, init?: RequestInit) =>
        init?.method === 'DELETE' ? Promise.reject(new TypeError('offline')) : server.handler(i, init),
      ),
    );
    syncEngine.resetBackoff();
    await restore();
    expect(useLibraryStore.getState().bookmarks).toEqual({});
    expect(useLibraryStore.getState().outbox.map((o) => o.kind)).toEqual(['bookmark-remove']);
  });

  it('400/401/403 from /users/@me logs out and clears the library', async () => {
    useAccountStore.getState().setAccount(account);
    useLibraryStore.getState().addBookmark(matrix);
    server.s.meStatus = 401;
    expect(await restore()).toBe('signed-out');
    expect(useAccountStore.getState().account).toBeNull();
    expect(useLibraryStore.getState().bookmarks).toEqual({});
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });
});

describe('sign-in import, settings and logout', () => {
  it('imports the anonymous library with change times, then restore keeps both sides', async () => {
    useLibraryStore.getState().addBookmark(alien);
    useLibraryStore.getState().saveProgress({ meta: matrix, watched: 100, duration: 8000 });
    useAccountStore.getState().setAccount(account);
    await importLocalData();
    expect(server.s.calls).toContain('PUT /users/u1/bookmarks');
    expect(server.s.progress[0]).toMatchObject({
      tmdbId: '603',
      watched: 100,
      duration: 8000,
      meta: { type: 'movie', title: 'The Matrix' },
    });
    expect(typeof server.s.progress[0]?.updatedAt).toBe('string');
  });

  it('imports a large library in pages that every proxy lets through', async () => {
    const count = IMPORT_PAGE_SIZE * 2 + 500;
    // One entry saved as the player saves it, then copied for many titles (saving each is slow here).
    useLibraryStore.getState().saveProgress({ meta: matrix, watched: 100, duration: 8000 });
    const [key, entry] = Object.entries(useLibraryStore.getState().progress)[0]!;
    const progress = Object.fromEntries(
      Array.from({ length: count }, (_, i) => {
        const tmdbId = String(10_000 + i);
        return [key.replace('603', tmdbId), { ...entry, tmdbId }];
      }),
    );
    useLibraryStore.setState({ progress, outbox: [] });
    useAccountStore.getState().setAccount(account);
    await importLocalData();
    expect(server.s.calls.filter((c) => c === 'PUT /users/u1/progress/import')).toHaveLength(3);
    expect(new Set(server.s.progress.map((p) => p.tmdbId)).size).toBe(count);
    expect(useLibraryStore.getState().outbox).toEqual([]);
  });

  it('when the import cannot reach the server, the local items become outbox ops', async () => {
    useLibraryStore.getState().addBookmark(alien);
    useAccountStore.getState().setAccount(account);
    server.s.down = true;
    await importLocalData();
    expect(useLibraryStore.getState().outbox.map((o) => o.kind)).toEqual(['bookmark-add']);
  });

  it('synced settings apply at once and are queued; a pending change survives restore', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.down = true;
    changeSyncedSettings({ applicationTheme: 'teal', defaultSubtitleLanguage: 'es' });
    expect(usePreferencesStore.getState().theme).toBe('teal');
    expect(useSubtitlesStore.getState().lastSelectedLanguage).toBe('es');
    server.s.down = false;
    server.s.settings.applicationTheme = 'gray';
    vi.stubGlobal(
      'fetch',
      vi.fn((i: string, init?: RequestInit) =>
        init?.method === 'PUT' ? Promise.reject(new TypeError('offline')) : server.handler(i, init),
      ),
    );
    syncEngine.resetBackoff();
    await restore();
    expect(usePreferencesStore.getState().theme).toBe('teal');
  });

  it('the preferred audio language syncs like the other settings; cleared, it follows the UI language', async () => {
    useAccountStore.getState().setAccount(account);
    usePreferencesStore.getState().setPreferences({ language: 'fr' });
    expect(preferredAudioLanguage()).toBe('fr');
    changeSyncedSettings({ defaultAudioLanguage: 'ja' });
    expect(usePreferencesStore.getState().audioLanguage).toBe('ja');
    expect(preferredAudioLanguage()).toBe('ja');
    await syncEngine.flush();
    expect(server.s.settings.defaultAudioLanguage).toBe('ja');

    // Another device chose German: a restore brings it here.
    server.s.settings.defaultAudioLanguage = 'de';
    expect(await restore()).toBe('ok');
    expect(preferredAudioLanguage()).toBe('de');

    changeSyncedSettings({ defaultAudioLanguage: null });
    // After the restore a pass may still be running: wait for the engine, then send.
    await syncEngine.runExclusive((drain) => drain());
    expect(server.s.settings.defaultAudioLanguage).toBeNull();
    expect(preferredAudioLanguage()).toBe('fr');

    // A server of the older family knows nothing of it: this device's choice stays.
    changeSyncedSettings({ defaultAudioLanguage: 'it' });
    await syncEngine.runExclusive((drain) => drain());
    const { defaultAudioLanguage: _dropped, ...older } = server.s.settings;
    server.s.settings = older as typeof server.s.settings;
    expect(await restore()).toBe('ok');
    expect(usePreferencesStore.getState().audioLanguage).toBe('it');
  });

  it('a sign-out made offline ends the session when the network is back', async () => {
    // Offline, the session used to stay alive on the server: a token left on a shared computer worked.
    useAccountStore.getState().setAccount(account);
    server.s.down = true;
    await logout();
    expect(useAccountStore.getState().account).toBeNull();
    expect(server.s.calls.filter((c) => c.startsWith('DELETE /sessions/'))).toHaveLength(1);
    expect(JSON.parse(appStorage().getItem(PENDING_SIGN_OUTS_KEY)!)).toEqual([
      { sid: account.sessionId, token: account.token },
    ]);
    server.s.down = false;
    const stop = startSync();
    try {
      await vi.waitFor(() => expect(appStorage().getItem(PENDING_SIGN_OUTS_KEY)).toBeNull());
      expect(server.s.calls.filter((c) => c === `DELETE /sessions/${account.sessionId}`)).toHaveLength(2);
    } finally {
      stop();
    }
  });

  it('logout deletes the session and clears account, bookmarks, progress and outbox; preferences stay', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.down = true;
    useLibraryStore.getState().addBookmark(matrix);
    usePreferencesStore.getState().setPreferences({ theme: 'blue' });
    server.s.down = false;
    await logout();
    expect(server.s.calls).toContain('DELETE /sessions/s1');
    expect(useAccountStore.getState().account).toBeNull();
    expect(useLibraryStore.getState()).toMatchObject({ bookmarks: {}, progress: {}, outbox: [] });
    expect(usePreferencesStore.getState().theme).toBe('blue');
  });
});

describe('a change the server refuses for good', () => {
  it('leaves the outbox for the refused list, and the changes behind it still sync', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.refuse.add(matrix.tmdbId);
    server.s.down = true;
    useLibraryStore.getState().addBookmark(matrix);
    useLibraryStore.getState().addBookmark(alien);
    await syncEngine.flush();
    expect(useLibraryStore.getState().outbox).toHaveLength(2);
    server.s.down = false;
    syncEngine.resetBackoff();
    await syncEngine.flush();
    expect(useLibraryStore.getState().outbox).toEqual([]);
    expect(server.s.bookmarks.map((b) => b.tmdbId)).toEqual([alien.tmdbId]);
    const refused = useRejectedChanges.getState().rejected;
    expect(
      refused.map((r) => [r.op.kind, (r.op as { tmdbId: string }).tmdbId, r.status, r.code, r.seen]),
    ).toEqual([['bookmark-add', matrix.tmdbId, 400, 'validation_failed', false]]);
  });
});

describe('live reads (pull) and clock-safe writes', () => {
  it('a pull brings another device’s change in, never over a newer change still pending here', async () => {
    useAccountStore.getState().setAccount(account);
    expect(await restore()).toBe('ok');
    // Another device bookmarked Alien and The Matrix; this one removed The Matrix later, offline.
    const earlier = new Date(Date.now() - 60_000).toISOString();
    server.s.bookmarks.push(
      {
        tmdbId: '348',
        meta: { title: 'Alien', year: 1979, type: 'movie' },
        group: [],
        favoriteEpisodes: [],
        updatedAt: earlier,
      },
      {
        tmdbId: '603',
        meta: { title: 'The Matrix', year: 1999, type: 'movie' },
        group: [],
        favoriteEpisodes: [],
        updatedAt: earlier,
      },
    );
    server.s.down = true;
    useLibraryStore.getState().addBookmark(matrix);
    useLibraryStore.getState().removeBookmark('movie', '603');
    await syncEngine.flush();
    server.s.down = false;
    server.s.calls.length = 0;
    // Held by the engine's lock like restore, so nothing is sent between the read and the merge.
    expect(await pull(['bookmarks'])).toBe('ok');
    expect(server.s.calls[0]).toBe('GET /users/u1/bookmarks');
    expect(Object.keys(useLibraryStore.getState().bookmarks)).toEqual(['movie:348']);
    // The pending removal then reaches the server: both sides agree.
    await syncEngine.flush();
    await expect.poll(() => useLibraryStore.getState().outbox).toEqual([]);
    expect(server.s.bookmarks.map((b) => b.tmdbId)).toEqual(['348']);
  });

  it('writes to this instance carry the device clock; writes to another account server do not', async () => {
    useAccountStore.getState().setAccount(account);
    useLibraryStore.getState().addBookmark(matrix);
    await syncEngine.flush();
    const headersOf = (path: string) => {
      const call = vi
        .mocked(fetch)
        .mock.calls.filter(([url]) => String(url).endsWith(path))
        .at(-1);
      return new Headers(call?.[1]?.headers);
    };
    const sent = Number(headersOf('/users/u1/bookmarks/603').get('x-client-time'));
    expect(Math.abs(sent - Date.now())).toBeLessThan(5_000);

    useAccountStore.getState().setBackendUrl('https://backend.example');
    useLibraryStore.getState().addBookmark(alien);
    await syncEngine.flush();
    expect(headersOf('/users/u1/bookmarks/348').has('x-client-time')).toBe(false);
  });
});

describe('progress saved while playing', () => {
  it('waits in the outbox, and leaving the page sends the last position at once with keepalive', async () => {
    useAccountStore.getState().setAccount(account);
    const stop = startSync();
    try {
      await expect.poll(() => server.s.calls).toContain('GET /users/@me');
      const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
      for (const watched of [3, 6, 9])
        useLibraryStore.getState().saveProgress({ meta, watched, duration: 8160 }, { hold: true });
      await syncEngine.flush();
      // Held: nothing sent yet, one op carrying the latest position.
      expect(server.s.progressPuts).toEqual([]);
      expect(useLibraryStore.getState().outbox).toMatchObject([{ kind: 'progress-put', watched: 9 }]);

      window.dispatchEvent(new Event('pagehide'));
      await expect.poll(() => server.s.progressPuts.map((p) => p.watched)).toEqual([9]);
      const put = vi.mocked(fetch).mock.calls.find(([url]) => String(url).endsWith('/progress/603'));
      expect(put?.[1]?.keepalive).toBe(true);
      // Not acknowledged (the server answered 503): it stays, to go again on the next visit.
      expect(useLibraryStore.getState().outbox).toHaveLength(1);
    } finally {
      stop();
      window.dispatchEvent(new Event('pageshow'));
    }
  });
});
