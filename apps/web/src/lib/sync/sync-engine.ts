import { isDue, type OutboxOp } from '../../stores/library/outbox.ts';
import { ApiError } from '../api/index.ts';
import { backoffDelay } from './backoff.ts';

/** Sync cadence (decision 031): the outbox is looked at every 5 s (and right after each change). */
export const SYNC_INTERVAL_MS = 5_000;

export interface SyncEngineDeps {
  /** Pending ops, oldest first, as stored now (after adopting other tabs' writes). */
  outbox(): readonly OutboxOp[];
  /** Acknowledged: the op leaves the outbox. */
  remove(id: string): void;
  /**
   * Refused for good (decision 070): the op must leave the outbox (the ones behind it go on) and be
   * kept where the user can see and export it. Without it the op is only removed.
   */
  reject?(op: OutboxOp, refusal: Refusal): void;
  send(op: OutboxOp): Promise<void>;
  /** Signed in: there is somewhere to send to. */
  canSend(): boolean;
  /** 401/403: the session may be gone; restore decides (and logs out if so). */
  onAuthError(): void;
  /**
   * Ops this device cannot send now and keeps, in order, while the ones of other libraries go on: a
   * PIN-locked profile's, until its PIN is entered here again (decision 104).
   */
  isHeld?(op: OutboxOp): boolean;
  now(): number;
  random?(): number;
  /** Cross-tab exclusion; `try` gives up at once when another tab holds it. */
  lock?<T>(mode: 'wait' | 'try', fn: () => Promise<T>): Promise<T | undefined>;
  timers?: { set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };
  log?(message: string, detail: unknown): void;
}

/** Why the server (or this client) will never take an op. */
export interface Refusal {
  /** HTTP status; 0 when the op could not even be sent. */
  status: number;
  code: string;
  message: string;
}

/**
 * Whether an answer is final for the op: any 4xx except 408 and 429 (retried) and 401/403 (the session
 * is checked first). Network errors (0) and 5xx are retried with backoff.
 */
export const isFinalRefusal = (status: number) =>
  status >= 400 && status < 500 && status !== 408 && status !== 429;

/** Cross-tab lock through the Web Locks API, where the browser has it. */
export async function webLock<T>(mode: 'wait' | 'try', fn: () => Promise<T>): Promise<T | undefined> {
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  if (!locks) return fn();
  return locks.request('marquee:sync', mode === 'try' ? { ifAvailable: true } : {}, async (lock) =>
    lock ? fn() : undefined,
  );
}

/**
 * Sends the outbox in order (docs/decisions/031). 2xx → the op leaves the outbox; no answer, 5xx, 408
 * or 429 → exponential backoff with jitter, then the same op again (order is kept); 401/403 → stop
 * and let restore decide; any other 4xx — or an op that cannot even be sent — can never succeed: it is
 * final for that op alone (decision 070), which is rejected (kept for the user, out of the outbox)
 * while the ops behind it go on. One pass at a time per tab, and one tab at a time (Web Locks);
 * restore runs under the same lock so an acknowledgement can never slip between the server's snapshot
 * and the merge.
 */
export class SyncEngine {
  private attempt = 0;
  private retryAt = 0;
  private retryTimer: unknown;
  private holdTimer: unknown;
  private holdAt = 0;
  private blocked = false;
  private readonly authFailedOnce = new Set<string>();
  /** Profiles the server refused as locked (decision 104): their ops wait until restore unblocks. */
  private readonly lockedProfiles = new Set<string>();
  private busy: Promise<unknown> = Promise.resolve();
  private isBusy = false;
  private flushAgain = false;

  constructor(private readonly deps: SyncEngineDeps) {}

  /** Sends what is pending, unless a pass is running (then another pass follows it) or we are backing off. */
  async flush(): Promise<void> {
    if (this.isBusy) {
      this.flushAgain = true;
      return;
    }
    await this.exclusive('try', () => this.drain());
  }

  /** Runs `fn` with sending paused in every tab; `fn` gets a `drain` it may call first. */
  runExclusive<T>(fn: (drain: () => Promise<void>) => Promise<T>): Promise<T | undefined> {
    return this.exclusive('wait', () => fn(() => this.drain()));
  }

  /** The network is back: retry now rather than at the end of the backoff. */
  resetBackoff(): void {
    this.attempt = 0;
    this.retryAt = 0;
  }

  /** Restore found the session valid (or a new one was made): sending may go on. */
  unblock(): void {
    this.blocked = false;
    this.lockedProfiles.clear();
    this.resetBackoff();
  }

  get state() {
    return { attempt: this.attempt, retryAt: this.retryAt, blocked: this.blocked };
  }

  stop(): void {
    if (this.retryTimer !== undefined) this.timers().clear(this.retryTimer);
    this.retryTimer = undefined;
    if (this.holdTimer !== undefined) this.timers().clear(this.holdTimer);
    this.holdTimer = undefined;
  }

  /** A pass when the earliest held op becomes due (progress saved while playing). */
  private wakeAt(at: number): void {
    if (this.holdTimer !== undefined && this.holdAt <= at) return;
    if (this.holdTimer !== undefined) this.timers().clear(this.holdTimer);
    this.holdAt = at;
    this.holdTimer = this.timers().set(
      () => {
        this.holdTimer = undefined;
        void this.flush();
      },
      Math.max(0, at - this.deps.now()),
    );
  }

  private timers() {
    return (
      this.deps.timers ?? {
        set: (fn: () => void, ms: number) => setTimeout(fn, ms),
        clear: (h: unknown) => clearTimeout(h as number),
      }
    );
  }

  private exclusive<T>(mode: 'wait' | 'try', fn: () => Promise<T>): Promise<T | undefined> {
    const lock = this.deps.lock ?? (<R>(_m: 'wait' | 'try', f: () => Promise<R>) => f());
    const run = async () => {
      this.isBusy = true;
      try {
        return await lock(mode, fn);
      } finally {
        this.isBusy = false;
        if (this.flushAgain) {
          this.flushAgain = false;
          queueMicrotask(() => void this.flush());
        }
      }
    };
    const next = this.busy.then(run, run);
    this.busy = next.catch(() => undefined);
    return next;
  }

  private scheduleRetry(): void {
    if (this.retryTimer !== undefined) this.timers().clear(this.retryTimer);
    this.retryTimer = this.timers().set(
      () => {
        this.retryTimer = undefined;
        void this.flush();
      },
      Math.max(0, this.retryAt - this.deps.now()),
    );
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.blocked || !this.deps.canSend()) return;
      const now = this.deps.now();
      if (now < this.retryAt) return;
      // Held ops (progress while playing) wait; those behind them are independent rows and go on.
      const pending = this.deps.outbox();
      const op = pending.find((o) => isDue(o, now) && !this.held(o));
      const held = pending.filter((o) => !isDue(o, now));
      if (held.length) this.wakeAt(Math.min(...held.map((o) => o.sendAfter!)));
      if (!op) {
        this.attempt = 0;
        return;
      }
      try {
        await this.deps.send(op);
        this.deps.remove(op.id);
        this.attempt = 0;
        this.retryAt = 0;
      } catch (error) {
        if (!(error instanceof ApiError)) {
          // Not an answer: the op could not be sent at all (a stored op this version cannot read).
          // Retrying would block every change behind it for ever.
          this.reject(op, {
            status: 0,
            code: 'unsendable',
            message: error instanceof Error ? error.message : String(error),
          });
          continue;
        }
        const status = error.status;
        // Its profile is locked here now, or this device is in a kids' profile: the op waits for the PIN
        // (or for the device to leave the kid's profile), the other libraries' ops go on.
        if (error.code === 'profile_locked' || error.code === 'kids_profile') {
          this.lockedProfiles.add(op.profile ?? '');
          continue;
        }
        if (status === 401 || status === 403) {
          if (this.authFailedOnce.has(op.id)) {
            // Refused again after restore confirmed the session: this op is not ours to send.
            this.reject(op, refusalOf(error));
            continue;
          }
          this.authFailedOnce.add(op.id);
          this.blocked = true;
          this.deps.onAuthError();
          return;
        }
        if (isFinalRefusal(status)) {
          this.reject(op, refusalOf(error));
          continue;
        }
        this.attempt += 1;
        this.retryAt =
          this.deps.now() + backoffDelay(this.attempt, this.deps.random ? { random: this.deps.random } : {});
        this.scheduleRetry();
        return;
      }
    }
  }

  private held(op: OutboxOp): boolean {
    return this.lockedProfiles.has(op.profile ?? '') || this.deps.isHeld?.(op) === true;
  }

  private reject(op: OutboxOp, refusal: Refusal): void {
    this.log('a change the server refuses for good was set aside', { op, refusal });
    // Kept first, then removed: a crash in between leaves it in the outbox rather than losing it.
    this.deps.reject?.(op, refusal);
    this.deps.remove(op.id);
    this.authFailedOnce.delete(op.id);
  }

  private log(message: string, detail: unknown) {
    (this.deps.log ?? ((m, d) => console.error(`[sync] ${m}`, d)))(message, detail);
  }
}

const refusalOf = (error: ApiError): Refusal => ({
  status: error.status,
  code: error.code,
  message: error.message,
});
