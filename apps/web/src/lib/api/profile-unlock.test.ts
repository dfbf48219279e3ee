import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { initStores, isProfileShut, useAccountStore } from '../../stores/index.ts';
import { appStorage, memoryStorage, setAppStorage } from '../storage.ts';
import { storageKey } from '../../stores/persisted.ts';
import { api } from './index.ts';
import { keepOnlyUnlock, openProfile } from '../account/profile-unlocks.ts';

/* Decision 104: the client sends this device's unlock of a PIN-locked profile with that profile's calls. */

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.setState({
    account: {
      kind: 'email',
      token: 'tok',
      userId: 'u1',
      sessionId: 's1',
      deviceName: 'd',
      seed: '',
      profile: { colorA: '#000', colorB: '#fff', icon: 'cat' },
      profileId: 'kid',
      user: {
        id: 'u1',
        fullname: 'Parent',
        email: 'p@example.org',
        icon: 'cat',
        hasPin: false,
        profiles: [
          { _id: 'kid', fullname: 'Kid', icon: 'cat', hasPin: true },
          { _id: 'teen', fullname: 'Teen', icon: 'cat', hasPin: false },
        ],
        isAdmin: false,
        endSubcriptionDate: null,
        hasMembership: false,
      },
    },
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  useAccountStore.setState({ account: null, backendUrl: null });
});

const HOUR = 60 * 60_000;
const profileTokens = () => {
  const seen: (string | null)[] = [];
  const server = contractServer({
    sync: {
      progress: ({ headers }) => {
        seen.push(headers.get('x-profile-token'));
        return [];
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
  return seen;
};
const read = (profile?: string) =>
  api.sync.progress({ params: { uid: 'u1' }, ...(profile ? { headers: { 'x-profile-id': profile } } : {}) });

describe('profile unlocks', () => {
  it('sends the unlock of the profile a call is for, only while it lasts, and never another profile’s', async () => {
    const seen = profileTokens();
    expect(isProfileShut(useAccountStore.getState().account, 'kid')).toBe(true);
    openProfile('kid', { token: 'kid-token', expiresAt: Date.now() + HOUR });
    expect(isProfileShut(useAccountStore.getState().account, 'kid')).toBe(false);
    await read('kid');
    await read('teen');
    await read();
    expect(seen).toEqual(['kid-token', null, null]);
    // Expired: not sent, and the profile is shut again.
    openProfile('kid', { token: 'old', expiresAt: Date.now() - 1 });
    await read('kid');
    expect(seen.at(-1)).toBe(null);
    expect(isProfileShut(useAccountStore.getState().account, 'kid')).toBe(true);
  });

  it('keeps one profile open: entering another profile ends the unlock of the one left', () => {
    openProfile('kid', { token: 'kid-token', expiresAt: Date.now() + HOUR });
    keepOnlyUnlock('kid');
    expect(useAccountStore.getState().account?.unlocks).toEqual({
      kid: { token: 'kid-token', expiresAt: expect.any(Number) },
    });
    keepOnlyUnlock('teen');
    expect(useAccountStore.getState().account?.unlocks).toEqual({});
  });

  it('a refusal as locked ends the unlock and marks the profile locked (a PIN set elsewhere)', async () => {
    const server = contractServer({
      sync: { progress: () => refuse(403, { code: 'profile_locked' }) },
    });
    vi.stubGlobal('fetch', server.fetch);
    openProfile('teen', { token: 'teen-token', expiresAt: Date.now() + HOUR });
    await expect(read('teen')).rejects.toMatchObject({ status: 403, code: 'profile_locked' });
    const account = useAccountStore.getState().account;
    expect(account?.unlocks?.teen).toBeUndefined();
    expect(account?.user?.profiles.find((p) => p._id === 'teen')?.hasPin).toBe(true);
    expect(isProfileShut(account, 'teen')).toBe(true);
    // The account's own profile: no X-Profile-Id.
    await expect(read()).rejects.toMatchObject({ code: 'profile_locked' });
    expect(useAccountStore.getState().account?.user?.hasPin).toBe(true);
  });

  it('survives a reload, and drops what is not an unlock', () => {
    openProfile('kid', { token: 'kid-token', expiresAt: 123 });
    const raw = JSON.parse(appStorage().getItem(storageKey('account'))!) as {
      state: { account: { unlocks: Record<string, unknown> } };
    };
    raw.state.account.unlocks = { ...raw.state.account.unlocks, bad: { token: 5 }, worse: 'x' };
    setAppStorage(memoryStorage({ [storageKey('account')]: JSON.stringify(raw) }));
    useAccountStore.controls.hydrate();
    expect(useAccountStore.getState().account?.unlocks).toEqual({
      kid: { token: 'kid-token', expiresAt: 123 },
    });
  });
});
