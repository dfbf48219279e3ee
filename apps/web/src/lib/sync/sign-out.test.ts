import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { appStorage, memoryStorage, setAppStorage } from '../storage.ts';
import { ACCESS_TOKEN_KEY, createSignOut, PENDING_SIGN_OUTS_KEY, type PendingSignOut } from './sign-out.ts';

const stored = (): unknown => JSON.parse(appStorage().getItem(PENDING_SIGN_OUTS_KEY) ?? 'null');
const store = (list: PendingSignOut[]) => appStorage().setItem(PENDING_SIGN_OUTS_KEY, JSON.stringify(list));

beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
});

describe('sign-out, handed the end of a session and the engine’s stop', () => {
  it('logout forgets the account here and stops sending; a session not ended waits for the network', async () => {
    useAccountStore.getState().setAccount(testAccount());
    appStorage().setItem(ACCESS_TOKEN_KEY, 'old');
    useLibraryStore
      .getState()
      .addBookmark({ tmdbId: '603', type: 'movie', title: 'M', year: 1999, poster: null });
    const stopSending = vi.fn();
    const ended: string[] = [];
    const { logout } = createSignOut({
      stopSending,
      endSession: async (p) => {
        ended.push(p.sid);
        return false;
      },
    });
    await logout();
    expect(stopSending).toHaveBeenCalledTimes(1);
    expect(ended).toEqual(['s1']);
    expect(useAccountStore.getState().account).toBeNull();
    expect(appStorage().getItem(ACCESS_TOKEN_KEY)).toBeNull();
    expect(useLibraryStore.getState()).toMatchObject({ bookmarks: {}, outbox: [] });
    expect(stored()).toEqual([{ sid: 's1', token: 't' }]);
  });

  it('a session the server ended is not kept', async () => {
    useAccountStore.getState().setAccount(testAccount());
    const { logout } = createSignOut({ stopSending: () => undefined, endSession: async () => true });
    await logout();
    expect(stored()).toBeNull();
  });

  it('pending sign-outs: the confirmed ones go, the others stay, and those made meanwhile are kept', async () => {
    store([
      { sid: 'a', token: '1' },
      { sid: 'b', token: '2' },
    ]);
    const { sendPendingSignOuts } = createSignOut({
      stopSending: () => undefined,
      endSession: async (p) => {
        // Signed out again (offline) while this runs.
        if (p.sid === 'a') store([...(stored() as PendingSignOut[]), { sid: 'c', token: '3' }]);
        return p.sid === 'a';
      },
    });
    await sendPendingSignOuts();
    expect(stored()).toEqual([
      { sid: 'b', token: '2' },
      { sid: 'c', token: '3' },
    ]);
  });
});
