import type { LibraryChangeKind } from '@marquee/contract';
import { syncRoutes } from '@marquee/contract/values';
import { isProfileShut, liveUnlock, useAccountStore, type Account } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { accountBaseUrl, ApiError } from '../api/index.ts';
import { STOP, stream } from '../api/stream.ts';
import { backoffDelay } from './backoff.ts';
import { ALL_KINDS } from './library-kinds.ts';
import { profileHeaders } from './wire.ts';

/*
 * The library stream of this device (decision 079): the account server says when another device
 * changed this library; we then read what changed since our marks (`onChange`), through the same
 * merge as restore, so a pending local change is never overwritten. Nothing pushed can be missed:
 * every (re)connection starts with `ready`, after which everything changed since the marks is read.
 */

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

/**
 * What a connection is for: another account, session, server, profile or unlock of a PIN-locked profile
 * needs another one. None while the profile is locked on this device (decision 104): the PIN comes first.
 */
function connectionKey(): string | null {
  const a = account();
  if (!a) return null;
  const profile = useLibraryStore.getState().profile;
  if (isProfileShut(a, profile)) return null;
  return [accountBaseUrl(), a.userId, a.token, profile, liveUnlock(a, profile)?.token ?? ''].join('\n');
}

/** Reads asked for while one runs are gathered into the next: one read at a time, none lost. */
function coalescedPulls(onChange: LiveDeps['onChange']): (kinds: readonly LibraryChangeKind[]) => void {
  const pending = new Set<LibraryChangeKind>();
  let pulling = false;
  return (kinds) => {
    for (const kind of kinds) pending.add(kind);
    if (pulling) return;
    pulling = true;
    void (async () => {
      while (pending.size > 0) {
        const batch = [...pending];
        pending.clear();
        await onChange(batch).catch(() => undefined);
      }
      pulling = false;
    })();
  };
}

interface StreamHandlers {
  /** Whether this connection is still the one wanted (else the stream is stopped). */
  isCurrent(): boolean;
  /** Any byte arrived. */
  onActivity(): void;
  onReady(heartbeatMs: number): void;
  /** These kinds changed (all of them on `resync`). */
  onChanged(kinds: readonly LibraryChangeKind[]): void;
}

/** Reads the library stream of `current`'s active library until it ends (resolves) or fails (rejects). */
function readStream(current: Account, signal: AbortSignal, on: StreamHandlers): Promise<unknown> {
  const headers = profileHeaders(useLibraryStore.getState().profile);
  return stream(
    syncRoutes.events,
    {
      params: { uid: current.userId },
      token: current.token,
      baseUrl: accountBaseUrl(),
      signal,
      onActivity: on.onActivity,
      ...(headers ? { headers } : {}),
    },
    (event) => {
      if (!on.isCurrent()) return STOP;
      switch (event.event) {
        case 'ready':
          on.onReady(event.data.heartbeatMs);
          break;
        case 'changed':
          on.onChanged([event.data.kind]);
          break;
        case 'resync':
          on.onChanged(ALL_KINDS);
          break;
      }
      return undefined;
    },
  );
}

/**
 * What a failed stream means: the session or profile may be gone ('auth', restore decides), an account
 * server of the older family has no stream ('unsupported': changes arrive on the other occasions), or
 * anything else ('retry').
 */
function failureOf(error: unknown): 'auth' | 'unsupported' | 'retry' {
  if (!(error instanceof ApiError)) return 'retry';
  if (error.status === 401 || error.status === 403 || error.code === 'profile_not_found') return 'auth';
  return error.status === 404 ? 'unsupported' : 'retry';
}

/** What one connection of the stream reports to `startLive`, which owns the connection's state. */
interface ConnectionLink {
  signal: AbortSignal;
  /** Whether this connection is still the one wanted. */
  isCurrent(): boolean;
  /** (Re)arms the dead-connection timer, cleared on disconnect. */
  watch(ms: number, onDead: () => void): void;
  /** `ready` received: connected. */
  onReady(): void;
  requestPull(kinds: readonly LibraryChangeKind[]): void;
  /** Disconnects and connects again after the backoff. */
  retry(): void;
  onAuthProblem(): void;
  /** An account server of the older family: no stream to connect to. */
  onUnsupported(): void;
}

/** Opens one connection and reads it until it ends, fails or goes silent, then tells `link` what to do. */
function openConnection(current: Account, link: ConnectionLink): void {
  let heartbeatMs = DEFAULT_HEARTBEAT_MS;
  // No byte for two heartbeats: the connection is dead without having said so (a network change).
  const alive = () =>
    link.watch(heartbeatMs * 2 + 5_000, () => {
      if (link.isCurrent()) link.retry();
    });
  alive();
  const onReady = (ms: number) => {
    heartbeatMs = ms;
    alive();
    link.onReady();
    link.requestPull(ALL_KINDS);
  };
  readStream(current, link.signal, {
    isCurrent: link.isCurrent,
    onActivity: alive,
    onReady,
    onChanged: link.requestPull,
  }).then(
    () => {
      // The server ended it (its age, or it is shutting down): connect again, to another process if need be.
      if (link.isCurrent()) link.retry();
    },
    (error: unknown) => {
      if (!link.isCurrent()) return; // we aborted it
      const failure = failureOf(error);
      if (failure === 'unsupported') return link.onUnsupported();
      if (failure === 'auth') link.onAuthProblem();
      link.retry();
    },
  );
}

/**
 * Connects again (`reconnect`) when the account, session, server or profile changed from what the
 * connection is for, or the network came back; disconnects when it went away.
 */
function followChanges(
  win: Window,
  on: { connectedFor(): string | null; reconnect(): void; offline(): void },
): () => void {
  const change = () => {
    if (connectionKey() !== on.connectedFor()) on.reconnect();
  };
  const offAccount = useAccountStore.subscribe(change);
  const offLibrary = useLibraryStore.subscribe((s, prev) => {
    if (s.profile !== prev.profile) change();
  });
  const { reconnect, offline } = on;
  win.addEventListener('online', reconnect);
  win.addEventListener('offline', offline);
  return () => {
    offAccount();
    offLibrary();
    win.removeEventListener('online', reconnect);
    win.removeEventListener('offline', offline);
  };
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
  const requestPull = coalescedPulls(deps.onChange);

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
    const random = deps.random ? { random: deps.random } : {};
    retryTimer = setTimeout(connect, backoffDelay(state.attempt, { ...LIVE_RETRY, ...random }));
  };

  function connect() {
    disconnect();
    key = connectionKey();
    const current = account();
    if (stopped || !key || !current || key === unsupported) return;
    if (win.navigator.onLine === false) return; // the `online` event connects
    const c = new AbortController();
    controller = c;
    openConnection(current, {
      signal: c.signal,
      isCurrent: () => controller === c,
      watch: (ms, onDead) => {
        clearTimeout(watchdog);
        watchdog = setTimeout(onDead, ms);
      },
      onReady: () => {
        state.connected = true;
        state.attempt = 0;
      },
      requestPull,
      retry,
      onAuthProblem: () => deps.onAuthProblem(),
      onUnsupported: () => {
        unsupported = key;
        disconnect();
      },
    });
  }

  const unfollow = followChanges(win, {
    connectedFor: () => key,
    reconnect: () => {
      state.attempt = 0;
      connect();
    },
    offline: disconnect,
  });
  connect();

  return () => {
    stopped = true;
    disconnect();
    unfollow();
  };
}
