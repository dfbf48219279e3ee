import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  initStores,
  useAccountStore,
  useLibraryStore,
  usePreferencesStore,
  useSubtitlesStore,
  type Account,
} from '../../stores/index.ts';
import { coalesce, type OutboxOp } from '../../stores/library/outbox.ts';
import { switchLibrary } from '../../stores/library/profiles.ts';
import type { Bookmark, UserSettings } from '@marquee/contract';
import { emptySettings, testSession, testUser } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import { memoryStorage, setAppStorage } from '../storage.ts';
import {
  chooseProfile,
  changeSyncedSettings,
  logout,
  profileDeleted,
  restore,
  syncEngine,
} from './session.ts';

const session = testSession();

/**
 * A sync server with one library per household profile, chosen by the X-Profile-Id header; its
 * handlers answer what the contract types for each endpoint.
 */
function fakeServer() {
  type Lib = { bookmarks: Bookmark[]; settings: UserSettings };
  const s = {
    down: false,
    profiles: new Set(['kid']),
    libs: new Map<string, Lib>(),
    calls: [] as string[],
  };
  const lib = (p: string) => {
    if (!s.libs.has(p)) s.libs.set(p, { bookmarks: [], settings: emptySettings() });
    return s.libs.get(p)!;
  };
  const profileOf = (headers: Headers) => headers.get('x-profile-id') ?? '';
  const api = contractServer({
    account: {
      me: () => ({ user: testUser({ colorA: '#2E5BFF', colorB: '#8C3DD6', icon: 'cat' }, null), session }),
      patchSession: () => session,
      deleteSession: () => ({ id: 's1' }),
    },
    customer: {
      me: () => ({
        user: {
          id: 'u1',
          fullname: 'Ada',
          email: 'ada@example.com',
          icon: 'cat',
          profiles: [...s.profiles].map((id) => ({ _id: id, fullname: id, icon: 'couch' as const })),
          isAdmin: false,
          endSubcriptionDate: null,
          hasMembership: false,
        },
        access_token: 't',
      }),
    },
    sync: {
      bookmarks: ({ headers }) => lib(profileOf(headers)).bookmarks,
      addBookmark: ({ headers, body }) => {
        const l = lib(profileOf(headers));
        const b = body as Bookmark;
        l.bookmarks = l.bookmarks.filter((x) => x.tmdbId !== b.tmdbId).concat([b]);
        return b;
      },
      progress: () => [],
      settings: ({ headers }) => lib(profileOf(headers)).settings,
      putSettings: ({ headers, body }) => Object.assign(lib(profileOf(headers)).settings, body),
    },
  });
  const handler = async (input: string | URL | Request, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const profile = profileOf(new Headers(init.headers));
    s.calls.push(`${init.method ?? 'GET'} ${url.pathname} [${profile}]`);
    if (s.down) throw new TypeError('Failed to fetch');
    if (profile && !s.profiles.has(profile))
      return new Response(
        JSON.stringify({ errorType: 'message', code: 'profile_not_found', message: 'Profile not found' }),
        { status: 404, headers: { 'content-type': 'application/json' } },
      );
    return api.fetch(input, init);
  };
  return { s, handler, lib };
}

const account: Account = {
  kind: 'email',
  token: 't',
  userId: 'u1',
  sessionId: 's1',
  deviceName: 'Laptop',
  seed: '',
  profile: { colorA: 'a', colorB: 'b', icon: 'cat' },
};
const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
const alien = { tmdbId: '348', type: 'movie' as const, title: 'Alien', year: 1979, poster: null };
const keys = () => Object.keys(useLibraryStore.getState().bookmarks).sort();

let server: ReturnType<typeof fakeServer>;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  server = fakeServer();
  vi.stubGlobal('fetch', vi.fn(server.handler));
  syncEngine.unblock();
});
afterEach(() => vi.unstubAllGlobals());

describe('switching household profiles (pure)', () => {
  it('stashes the library left and takes the chosen one out of the stash; the outbox is untouched', () => {
    const state = {
      bookmarks: { 'movie:603': { ...matrix, updatedAt: 1 } },
      progress: {},
      profile: '',
      stash: {},
    };
    const toKid = switchLibrary(state, 'kid', {
      enableAutoplay: false,
      subtitleStyling: { color: '#ffffff', backgroundOpacity: 0.5, backgroundBlur: 0, size: 1, bold: false },
    })!;
    expect(toKid.data.profile).toBe('kid');
    expect(toKid.data.bookmarks).toEqual({});
    expect(toKid.data.stash['']!.bookmarks).toEqual(state.bookmarks);
    const back = switchLibrary({ ...toKid.data }, '')!;
    expect(back.data.bookmarks).toEqual(state.bookmarks);
    expect(back.prefs?.enableAutoplay).toBe(false);
    expect(Object.keys(back.data.stash)).toEqual(['kid']);
    expect(switchLibrary(back.data, '')).toBeNull();
  });
  it('each profile keeps its own order of lists (a stash from before lists: none)', () => {
    const state = { bookmarks: {}, progress: {}, groupOrder: ['Mine'], profile: '', stash: {} };
    const toKid = switchLibrary(state, 'kid')!;
    expect(toKid.data.groupOrder).toEqual([]);
    expect(toKid.data.stash['']!.groupOrder).toEqual(['Mine']);
    const back = switchLibrary({ ...toKid.data, groupOrder: ['Kid'] }, '')!;
    expect(back.data.groupOrder).toEqual(['Mine']);
    expect(back.data.stash.kid!.groupOrder).toEqual(['Kid']);
  });
  it('coalescing never drops another profile’s pending change', () => {
    const own: OutboxOp = {
      kind: 'bookmark-add',
      id: 'a',
      at: 1,
      type: 'movie',
      tmdbId: '603',
      meta: matrix,
    };
    const kid: OutboxOp = {
      kind: 'bookmark-remove',
      id: 'b',
      at: 2,
      type: 'movie',
      tmdbId: '603',
      profile: 'kid',
    };
    expect(coalesce([own], kid).map((op) => op.id)).toEqual(['a', 'b']);
    const kidAgain: OutboxOp = {
      kind: 'bookmark-add',
      id: 'c',
      at: 3,
      type: 'movie',
      tmdbId: '603',
      meta: matrix,
      profile: 'kid',
    };
    expect(coalesce([own, kid], kidAgain).map((op) => op.id)).toEqual(['a', 'c']);
  });
});

describe('switching household profiles (with the sync engine)', () => {
  it('keeps the pending changes of the profile left and sends each to its own library', async () => {
    useAccountStore.getState().setAccount(account);
    server.s.down = true;
    useLibraryStore.getState().addBookmark(matrix);
    await chooseProfile('kid');
    expect(useAccountStore.getState().account?.profileId).toBe('kid');
    expect(keys()).toEqual([]);
    useLibraryStore.getState().addBookmark(alien);
    const outbox = useLibraryStore.getState().outbox;
    expect(outbox.map((op) => [op.kind, op.profile ?? ''])).toEqual([
      ['bookmark-add', ''],
      ['bookmark-add', 'kid'],
    ]);

    server.s.down = false;
    syncEngine.resetBackoff();
    await syncEngine.flush();
    expect(useLibraryStore.getState().outbox).toHaveLength(0);
    expect(server.lib('').bookmarks.map((b) => b.tmdbId)).toEqual(['603']);
    expect(server.lib('kid').bookmarks.map((b) => b.tmdbId)).toEqual(['348']);
    expect(server.s.calls).toContain('POST /users/u1/bookmarks/348 [kid]');
    expect(server.s.calls).toContain('POST /users/u1/bookmarks/603 []');

    await chooseProfile('');
    expect(keys()).toEqual(['movie:603']);
    await chooseProfile('kid');
    expect(keys()).toEqual(['movie:348']);
  });

  it('a switch during offline keeps the library of each profile on the device', async () => {
    useAccountStore.getState().setAccount(account);
    await chooseProfile('kid');
    server.s.down = true;
    useLibraryStore.getState().addBookmark(alien);
    await chooseProfile('');
    expect(keys()).toEqual([]);
    await chooseProfile('kid');
    expect(keys()).toEqual(['movie:348']);
    expect(useLibraryStore.getState().outbox).toHaveLength(1);
  });

  it('each profile keeps its own autoplay, caption style, watched threshold and "stop watching" marks', async () => {
    useAccountStore.getState().setAccount(account);
    await chooseProfile('kid');
    changeSyncedSettings({
      enableAutoplay: false,
      subtitleStyling: { color: '#e2e535', backgroundOpacity: 0.2, backgroundBlur: 0, size: 1.5, bold: true },
      watchedThreshold: 0.7,
      continueHidden: { 'show:1396': 1_700_000_000_000 },
    });
    await syncEngine.flush();
    // A pass started by the restore may be the one that sends it.
    await vi.waitFor(() => expect(server.lib('kid').settings.enableAutoplay).toBe(false));
    expect(server.lib('kid').settings.watchedThreshold).toBe(0.7);
    expect(server.lib('kid').settings.continueHidden).toEqual({ 'show:1396': 1_700_000_000_000 });
    expect(server.lib('').settings.enableAutoplay).toBeNull();

    await chooseProfile('');
    expect(usePreferencesStore.getState().enableAutoplay).toBe(true);
    expect(usePreferencesStore.getState().watchedThreshold).toBe(0.9);
    expect(usePreferencesStore.getState().continueHidden).toEqual({});
    expect(useSubtitlesStore.getState().styling.color).toBe('#ffffff');
    await chooseProfile('kid');
    expect(usePreferencesStore.getState().enableAutoplay).toBe(false);
    expect(usePreferencesStore.getState().watchedThreshold).toBe(0.7);
    expect(usePreferencesStore.getState().continueHidden).toEqual({ 'show:1396': 1_700_000_000_000 });
    expect(useSubtitlesStore.getState().styling.color).toBe('#e2e535');
  });

  it('a profile deleted on another device: back to the account’s own library, asked again who is watching', async () => {
    useAccountStore.getState().setAccount(account);
    await chooseProfile('kid');
    server.s.profiles.delete('kid');
    expect(await restore()).toBe('ok');
    expect(useLibraryStore.getState().profile).toBe('');
    expect(useAccountStore.getState().account?.profileId).toBeUndefined();
    expect(useAccountStore.getState().account?.user?.profiles).toEqual([]);
  });

  it('deleting a profile here forgets its library and pending changes; logout forgets every profile', async () => {
    useAccountStore.getState().setAccount(account);
    await chooseProfile('kid');
    server.s.down = true;
    useLibraryStore.getState().addBookmark(alien);
    await chooseProfile('');
    profileDeleted('kid');
    expect(useLibraryStore.getState().stash).not.toHaveProperty('kid');
    expect(useLibraryStore.getState().outbox).toHaveLength(0);

    await chooseProfile('kid');
    await logout();
    expect(useLibraryStore.getState()).toMatchObject({ profile: '', stash: {}, outbox: [], bookmarks: {} });
  });
});
