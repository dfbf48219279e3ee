import type { LibraryChangeKind } from '@marquee/contract';
import { syncRoutes } from '@marquee/contract/values';
import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { accountBaseUrl, ApiError, STOP, stream } from '../api/index.ts';
import { backoffDelay } from './backoff.ts';
import { profileHeaders } from './wire.ts';

/*
 * The library stream of this device (decision 079): the account server says when another device
 * changed this library; we then read what changed since our marks (`onChange`), through the same
 * merge as restore, so a pending local change is never overwritten. Nothing pushed can be missed:
 * every (re)connection starts with `ready`, after which everything changed since the marks is read.
 */

export const ALL_KINDS: readonly LibraryChangeKind[] = ['bookmarks', 'progress', 'settings'];
/** Reconnection backoff: from about 1 s, doubling, at most 30 s. */
export const LIVE_RETRY = { baseMs: 1_000, maxMs: 30_000 } as const;
/** Heartbeat assumed until the server says its own. */
const DEFAULT_HEARTBEAT_MS = 25_000;

export interface LiveDeps {
  /** Reads and merges what changed for these kinds (coalesced: one read at a time). */
  onChange(kinds: readonly LibraryChangeKind[]): Promise<unknown>;
  /** 401/403: the session may be gone; restore decides (and signs out if so). */
  onAuthProblem(): void;
  win?: Window;
  random?: () => number;
}

export interface LiveState {
  /** Connected and `ready` received. */
  connected: boolean;
  /** Reconnection attempts since the last `ready`. */
  attempt: number;
}

const account = () => useAccountStore.getState().account;

/** What a connection is for: another account, session, server or profile needs another one. */
function connectionKey(): string | null {
  const a = account();
  if (!a) return null;
  return [accountBaseUrl(), a.userId, a.token, useLibraryStore.getState().profile].join('\n');
}

/** Opens the stream while signed in and keeps it open; returns the stop function. */
export function startLive(deps: LiveDeps): () => void {
  const win = deps.win ?? window;
  const state: LiveState = { connected: false, attempt: 0 };
  let key: string | null = null;
  /** A server of the older family has no stream: not asked again for the same connection key. */
  let unsupported: string | null = null;
  let controller: AbortController | null = null;
  let retryTimer: ReturnType<typeof setTimeout> | undefined;
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const pending = new Set<LibraryChangeKind>();
  let pulling = false;
  const requestPull = (kinds: readonly LibraryChangeKind[]) => {
    for (const kind of kinds) pending.add(kind);
    if (pulling) return;
    pulling = true;
    void (async () => {
      while (pending.size > 0) {
        const batch = [...pending];
        pending.clear();
        await deps.onChange(batch).catch(() => undefined);
      }
      pulling = false;
    })();
  };

  const disconnect = () => {
    controller?.abort();
    controller = null;
    state.connected = false;
    clearTimeout(retryTimer);
    clearTimeout(watchdog);
  };

  const retry = () => {
    disconnect();
    if (stopped) return;
    state.attempt += 1;
    retryTimer = setTimeout(
      connect,
      backoffDelay(state.attempt, { ...LIVE_RETRY, ...(deps.random ? { random: deps.random } : {}) }),
    );
  };

  function connect() {
    disconnect();
    key = connectionKey();
    const current = account();
    if (stopped || !key || !current || key === unsupported) return;
    if (win.navigator.onLine === false) return; // the `online` event connects
    const c = new AbortController();
    controller = c;
    let heartbeatMs = DEFAULT_HEARTBEAT_MS;
    // No byte for two heartbeats: the connection is dead without having said so (a network change).
    const alive = () => {
      clearTimeout(watchdog);
      watchdog = setTimeout(
        () => {
          if (controller === c) retry();
        },
        heartbeatMs * 2 + 5_000,
      );
    };
    alive();
    const profile = useLibraryStore.getState().profile;
    const headers = profileHeaders(profile);
    stream(
      syncRoutes.events,
      {
        params: { uid: current.userId },
        token: current.token,
        baseUrl: accountBaseUrl(),
        signal: c.signal,
        onActivity: alive,
        ...(headers ? { headers } : {}),
      },
      (event) => {
        if (controller !== c) return STOP;
        switch (event.event) {
          case 'ready':
            heartbeatMs = event.data.heartbeatMs;
            alive();
            state.connected = true;
            state.attempt = 0;
            requestPull(ALL_KINDS);
            break;
          case 'changed':
            requestPull([event.data.kind]);
            break;
          case 'resync':
            requestPull(ALL_KINDS);
            break;
        }
        return undefined;
      },
    ).then(
      () => {
        // The server ended it (its age, or it is shutting down): connect again, to another process if need be.
        if (controller === c) retry();
      },
      (error: unknown) => {
        if (controller !== c) return; // we aborted it
        if (error instanceof ApiError) {
          if (error.status === 401 || error.status === 403 || error.code === 'profile_not_found') {
            deps.onAuthProblem();
          } else if (error.status === 404) {
            // An account server of the older family: it has no stream; changes arrive on the other occasions.
            unsupported = key;
            disconnect();
            return;
          }
        }
        retry();
      },
    );
  }

  /** Connects, reconnects or disconnects when the account, session, server or profile changed. */
  const follow = () => {
    if (connectionKey() !== key) {
      state.attempt = 0;
      connect();
    }
  };
  const onOnline = () => {
    state.attempt = 0;
    connect();
  };
  const onOffline = () => disconnect();
  const offAccount = useAccountStore.subscribe(follow);
  const offLibrary = useLibraryStore.subscribe((s, prev) => {
    if (s.profile !== prev.profile) follow();
  });
  win.addEventListener('online', onOnline);
  win.addEventListener('offline', onOffline);
  connect();

  return () => {
    stopped = true;
    disconnect();
    offAccount();
    offLibrary();
    win.removeEventListener('online', onOnline);
    win.removeEventListener('offline', onOffline);
  };
}
