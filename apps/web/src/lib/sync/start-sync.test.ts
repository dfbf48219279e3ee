import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initStores, useAccountStore, useLibraryStore, useSessionStatus } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { LIBRARY_REFRESH_EVENT } from '../library-refresh.ts';
import { appStorage, memoryStorage, setAppStorage } from '../storage.ts';
import { ACCESS_TOKEN_KEY } from './sign-out.ts';
import { createStartSync, PULL_AT_MOST_EVERY_MS } from './start-sync.ts';
import type { WireRequest } from './wire.ts';

const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };

/** startSync handed recording fakes of every job it drives; `calls` is what it asked of them, in order. */
function setup() {
  const calls: string[] = [];
  const delivered: WireRequest[] = [];
  const t = { now: 100_000, pulledAt: 0, leaving: false };
  const startSync = createStartSync({
    engine: {
      flush: async () => void calls.push('flush'),
      resetBackoff: () => void calls.push('resetBackoff'),
      stop: () => void calls.push('stop'),
    },
    delivery: {
      deliver: async (request) => void delivered.push(request),
      leaving: () => t.leaving,
      setLeaving: (leaving) => {
        t.leaving = leaving;
      },
    },
    restore: async () => void calls.push('restore'),
    pull: async (kinds) => void calls.push(`pull ${kinds.join(',')}`),
    lastPullAt: () => t.pulledAt,
    sendPendingSignOuts: async () => void calls.push('sendPendingSignOuts'),
    startLive: () => {
      calls.push('startLive');
      return () => void calls.push('stopLive');
    },
    now: () => t.now,
  });
  return { calls, delivered, t, startSync };
}

let stop: (() => void) | undefined;
beforeEach(() => {
  setAppStorage(memoryStorage());
  initStores();
  useSessionStatus.setState({ restoreFailed: false });
});
afterEach(() => {
  stop?.();
  stop = undefined;
});

describe('starting sync, handed its jobs', () => {
  it('starts by sending pending sign-outs, opening the stream and restoring; the stop undoes it', () => {
    const s = setup();
    useAccountStore.getState().setAccount(testAccount());
    stop = s.startSync(window);
    expect(s.calls).toEqual(['sendPendingSignOuts', 'startLive', 'restore']);
    stop();
    stop = undefined;
    expect(s.calls.slice(3)).toEqual(['stopLive', 'stop']);
    window.dispatchEvent(new Event('focus'));
    expect(s.calls).toHaveLength(5);
  });

  it('returning to the tab or opening a library screen reads changes at most every 5 s, else flushes', () => {
    const s = setup();
    useAccountStore.getState().setAccount(testAccount());
    stop = s.startSync(window);
    s.calls.length = 0;
    s.t.pulledAt = s.t.now - PULL_AT_MOST_EVERY_MS + 1;
    window.dispatchEvent(new Event('focus'));
    s.t.pulledAt = s.t.now - PULL_AT_MOST_EVERY_MS;
    window.dispatchEvent(new Event(LIBRARY_REFRESH_EVENT));
    expect(s.calls).toEqual(['flush', 'pull bookmarks,progress,history,ratings']);

    useAccountStore.getState().setAccount(null);
    s.calls.length = 0;
    window.dispatchEvent(new Event('focus'));
    expect(s.calls).toEqual([]);
  });

  it('the network back: backoff reset, pending sign-outs sent, and a restore that failed runs again', () => {
    const s = setup();
    useAccountStore.getState().setAccount(testAccount());
    stop = s.startSync(window);
    s.calls.length = 0;
    useSessionStatus.setState({ restoreFailed: true });
    window.dispatchEvent(new Event('online'));
    expect(s.calls).toEqual(['resetBackoff', 'sendPendingSignOuts', 'restore']);
  });

  it('leaving the page sets the delivery’s flag and sends pending progress through it at once', async () => {
    const s = setup();
    useAccountStore.getState().setAccount(testAccount());
    stop = s.startSync(window);
    useLibraryStore.getState().saveProgress({ meta: matrix, watched: 9, duration: 100 }, { hold: true });
    useLibraryStore.getState().addBookmark(matrix);
    window.dispatchEvent(new Event('pagehide'));
    expect(s.t.leaving).toBe(true);
    expect(s.delivered.map((r) => r.endpoint)).toEqual(['putProgress']);
    // While leaving, the player's last save goes out as it is made.
    useLibraryStore.getState().saveProgress({ meta: matrix, watched: 12, duration: 100 }, { hold: true });
    expect(s.delivered.map((r) => r.endpoint)).toEqual(['putProgress', 'putProgress']);

    s.calls.length = 0;
    window.dispatchEvent(new Event('pageshow'));
    expect(s.t.leaving).toBe(false);
    expect(s.calls).toEqual(['flush']);
  });

  it('no account but the older clients’ token: the session is adopted instead of restored', () => {
    const s = setup();
    appStorage().setItem(ACCESS_TOKEN_KEY, 'old');
    const adoptAccessToken = vi.fn(async () => undefined);
    stop = s.startSync(window, { adoptAccessToken });
    expect(adoptAccessToken).toHaveBeenCalledTimes(1);
    expect(s.calls).not.toContain('restore');
  });
});
