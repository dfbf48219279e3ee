import { useEffect, useSyncExternalStore } from 'react';
import { PING_INTERVAL_MS, shouldPing } from './calendar.ts';
import { ping } from './api/index.ts';

type Listener = () => void;

/**
 * The online check: a 5 s tick; while online only every 10th tick pings /ping.txt,
 * while offline every tick does; online is set only after a success, any failure sets offline.
 * The browser's own `offline` event sets offline at once (the banner shows without waiting up to 50 s
 * for the next ping), and its `online` event pings right away instead of at the next tick.
 */
export class OnlineStatus {
  private online = true;
  private tick = 0;
  private timer: ReturnType<typeof setInterval> | undefined;
  private inflight: AbortController | undefined;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly ping: (signal: AbortSignal) => Promise<boolean>,
    private readonly intervalMs = PING_INTERVAL_MS,
    private readonly events:
      Pick<Window, 'addEventListener' | 'removeEventListener'> | undefined = typeof window !== 'undefined'
      ? window
      : undefined,
  ) {}

  private readonly onOffline = () => {
    this.inflight?.abort();
    this.set(false);
  };
  private readonly onOnline = () => void this.check();

  get isOnline() {
    return this.online;
  }

  subscribe = (listener: Listener) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.onTick(), this.intervalMs);
    this.events?.addEventListener('offline', this.onOffline);
    this.events?.addEventListener('online', this.onOnline);
    // Started offline (the app opened from its service worker's cache): no `offline` event will come.
    if (globalThis.navigator?.onLine === false) this.set(false);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.inflight?.abort();
    this.events?.removeEventListener('offline', this.onOffline);
    this.events?.removeEventListener('online', this.onOnline);
  }

  /** One tick; exposed so tests can drive the schedule without waiting. */
  async onTick(): Promise<void> {
    this.tick += 1;
    if (!shouldPing(this.tick, this.online)) return;
    await this.check();
  }

  /** Pings now; online only after a success. */
  private async check(): Promise<void> {
    this.inflight?.abort();
    const controller = new AbortController();
    this.inflight = controller;
    let ok: boolean;
    try {
      ok = await this.ping(controller.signal);
    } catch {
      if (controller.signal.aborted && this.inflight !== controller) return;
      ok = false;
    }
    if (this.inflight === controller) this.inflight = undefined;
    this.set(ok);
  }

  private set(online: boolean) {
    if (online === this.online) return;
    this.online = online;
    for (const l of this.listeners) l();
  }
}

export const pingServer = ping;

let shared: OnlineStatus | undefined;
const sharedStatus = () => (shared ??= new OnlineStatus(pingServer));

export function useIsOnline(status: OnlineStatus = sharedStatus()): boolean {
  useEffect(() => {
    status.start();
    return () => status.stop();
  }, [status]);
  return useSyncExternalStore(status.subscribe, () => status.isOnline);
}
