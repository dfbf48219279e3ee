import type { LibraryChangeKind } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { useSessionStatus } from '../../stores/session-status.ts';
import { LIBRARY_REFRESH_EVENT } from '../library-refresh.ts';
import { appStorage } from '../storage.ts';
import { startLiveWhenSignedIn } from './live-loader.ts';
import type { OutboxDelivery } from './outbox-delivery.ts';
import { ACCESS_TOKEN_KEY } from './sign-out.ts';
import { SYNC_INTERVAL_MS, type SyncEngine } from './sync-engine.ts';
import { requestFor } from './wire.ts';

/** Account restore cadence (decision 031). */
export const RESTORE_INTERVAL_MS = 12 * 60 * 60_000;
/** Returning to the tab or opening home / My List reads changes at most this often. */
export const PULL_AT_MOST_EVERY_MS = 5_000;

const account = () => useAccountStore.getState().account;

/**
 * Leaving the page: pending progress goes out at once with `keepalive` (it outlives the page), held
 * or not — the final position must not wait for the next visit. The ops stay in the outbox until
 * acknowledged, so the next visit sends them again if these were lost (writes are idempotent).
 */
function sendProgressWhileLeaving(deliver: OutboxDelivery['deliver']): void {
  const uid = account()?.userId;
  if (!uid) return;
  for (const op of useLibraryStore.getState().outbox)
    if (op.kind === 'progress-put') void deliver(requestFor(op, uid)).catch(() => undefined);
}

type Listener = readonly [EventTarget, string, () => void];

/** Adds the listeners; returns what removes them. */
function listen(listeners: readonly Listener[]): () => void {
  for (const [target, type, fn] of listeners) target.addEventListener(type, fn);
  return () => {
    for (const [target, type, fn] of listeners) target.removeEventListener(type, fn);
  };
}

export interface StartSyncDeps {
  engine: Pick<SyncEngine, 'flush' | 'resetBackoff' | 'stop'>;
  /** Its `leaving` flag follows pagehide/pageshow; progress is sent through it while leaving. */
  delivery: Pick<OutboxDelivery, 'deliver' | 'leaving' | 'setLeaving'>;
  restore(): Promise<unknown>;
  pull(kinds: readonly LibraryChangeKind[]): Promise<unknown>;
  /** When the library was last read from the server. */
  lastPullAt(): number;
  sendPendingSignOuts(): Promise<unknown>;
  /** The library stream (live.ts). */
  startLive?: typeof startLiveWhenSignedIn;
  now?(): number;
}

export interface StartSyncOptions {
  adoptAccessToken?: () => Promise<unknown>;
}

export type StartSync = (win?: Window, options?: StartSyncOptions) => () => void;

/**
 * Starts syncing (decision 079): the outbox every 5 s and right after each change (progress saved
 * while playing waits up to 15 s), when the network comes back and when the page is shown again; the
 * library stream (changes from the account's other devices, within seconds); reads of what changed on
 * returning to the tab and on opening home or My List; restore at start and every 12 h.
 * `adoptAccessToken` (the account layer's, given by the app: that layer sits above this module, see
 * docs/architecture.md, "Layers"): with no account stored but the token the older clients' customer
 * login left, the session is adopted instead of restored.
 */
export function createStartSync(deps: StartSyncDeps): StartSync {
  const { engine, delivery, restore, pull, lastPullAt, sendPendingSignOuts } = deps;
  const live = deps.startLive ?? startLiveWhenSignedIn;
  const now = deps.now ?? (() => Date.now());
  return (win = window, { adoptAccessToken } = {}) => {
    const flush = () => void engine.flush();
    const pullSoon = () => {
      if (!account()) return;
      if (now() - lastPullAt() < PULL_AT_MOST_EVERY_MS) flush();
      else void pull(['bookmarks', 'progress', 'history', 'ratings']);
    };
    const interval = setInterval(flush, SYNC_INTERVAL_MS);
    const restoreTimer = setInterval(() => void restore(), RESTORE_INTERVAL_MS);
    const unsubscribe = useLibraryStore.subscribe((state, prev) => {
      if (state.outbox.length === 0 || state.outbox === prev.outbox) return;
      // Leaving: the player's last save must start its request before the page goes.
      if (delivery.leaving()) sendProgressWhileLeaving(delivery.deliver);
      else queueMicrotask(flush);
    });
    const onOnline = () => {
      engine.resetBackoff();
      void sendPendingSignOuts();
      // A restore that failed offline runs again (its notice was hidden while offline).
      if (useSessionStatus.getState().restoreFailed) void restore();
      else pullSoon();
    };
    void sendPendingSignOuts();
    const onVisible = () => {
      if (win.document.visibilityState === 'visible') pullSoon();
      else flush();
    };
    const onPageHide = () => {
      delivery.setLeaving(true);
      sendProgressWhileLeaving(delivery.deliver);
    };
    const onPageShow = () => {
      delivery.setLeaving(false);
      flush();
    };
    const unlisten = listen([
      [win, 'online', onOnline],
      [win, 'pageshow', onPageShow],
      [win, 'pagehide', onPageHide],
      [win, 'focus', pullSoon],
      [win, LIBRARY_REFRESH_EVENT, pullSoon],
      [win.document, 'visibilitychange', onVisible],
    ]);
    const stopLive = live({ onChange: (kinds) => pull(kinds), onAuthProblem: () => void restore(), win });
    if (adoptAccessToken && !account() && appStorage().getItem(ACCESS_TOKEN_KEY)) void adoptAccessToken();
    else void restore();
    return () => {
      clearInterval(interval);
      clearInterval(restoreTimer);
      unsubscribe();
      stopLive();
      engine.stop();
      unlisten();
    };
  };
}
