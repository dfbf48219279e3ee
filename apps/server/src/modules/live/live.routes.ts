import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import { syncEndpoints as e, type LibraryChangeKind } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { contractStream } from '../../plugins/contract-route.ts';
import { libraryOf, type LibraryRef } from '../library/library.ts';
import { EventStream } from '../sources/event-stream.ts';
import type { EventBus } from './event-bus.ts';

export interface LiveOptions {
  /** A comment line this often keeps proxies (nginx: 60 s by default) from closing a quiet stream. */
  heartbeatMs: number;
  /**
   * A stream is closed after about this long (± 10 %); the client reconnects at once and catches up,
   * so a revoked session or a process that should drain does not keep streams for ever.
   */
  maxAgeMs: number;
  /** Streams one account may hold open in one process (devices × tabs); more is 429. */
  maxPerAccount: number;
  /**
   * How often the sessions of the open streams are checked: a stream whose session ended (signed out
   * or removed on another process, the account deleted, expired) closes then.
   */
  sessionCheckMs: number;
}

export const LIVE_DEFAULTS: LiveOptions = {
  heartbeatMs: 25_000,
  maxAgeMs: 15 * 60_000,
  maxPerAccount: 20,
  sessionCheckMs: 15_000,
};

/** Which of these sessions are still live (one query for all the open streams of a process). */
export type LiveSessionCheck = (sessionIds: string[]) => Promise<Set<string>>;

/** The open library streams of this process. */
export class LiveStreams {
  private readonly perAccount = new Map<string, number>();
  private readonly closers = new Set<(shutdown: boolean) => void>();
  /** The closers of the open streams by session. */
  private readonly bySession = new Map<string, Set<(shutdown: boolean) => void>>();
  private checker: NodeJS.Timeout | null = null;

  constructor(
    readonly bus: EventBus,
    readonly options: LiveOptions = LIVE_DEFAULTS,
    private readonly liveSessions?: LiveSessionCheck,
  ) {}

  /** Closes the streams of a session that just ended in this process (a sign-out, a removal). */
  endSession(sessionId: string): void {
    for (const close of [...(this.bySession.get(sessionId) ?? [])]) close(false);
  }

  /** Closes the streams whose session ended elsewhere (checked every `sessionCheckMs` while any is open). */
  private async checkSessions(): Promise<void> {
    const ids = [...this.bySession.keys()];
    if (!this.liveSessions || ids.length === 0) return;
    const alive = new Set<string>();
    for (let i = 0; i < ids.length; i += 500) {
      const live = await this.liveSessions(ids.slice(i, i + 500)).catch(() => null);
      // The database does not answer: nothing is closed on a guess.
      if (!live) return;
      for (const id of live) alive.add(id);
    }
    for (const id of ids) if (!alive.has(id)) this.endSession(id);
  }

  get open(): number {
    return this.closers.size;
  }

  /** After a successful write: the account's other devices hear about it. Never fails the write. */
  announce(request: FastifyRequest, kind: LibraryChangeKind): void {
    const { userId, profileId } = libraryOf(request);
    void this.bus
      .publish({ userId, profileId, kind, origin: authOf(request).sessionId })
      .catch((error: unknown) => request.log.warn({ err: error }, 'a library change was not announced'));
  }

  /** A change the server made itself (a Trakt pull): every device of the library hears about it. */
  announceServerChange(lib: LibraryRef, kind: LibraryChangeKind, log: FastifyBaseLogger): void {
    void this.bus
      .publish({ userId: lib.userId, profileId: lib.profileId, kind, origin: '' })
      .catch((error: unknown) => log.warn({ err: error }, 'a library change was not announced'));
  }

  /** Ends every stream (the server is closing: clients reconnect to another process). */
  closeAll(): void {
    for (const close of [...this.closers]) close(true);
    if (this.checker) clearInterval(this.checker);
    this.checker = null;
  }

  /** Counts a new stream of the account; false when it has too many here. */
  take(userId: string): boolean {
    const n = this.perAccount.get(userId) ?? 0;
    if (n >= this.options.maxPerAccount) return false;
    this.perAccount.set(userId, n + 1);
    return true;
  }

  release(userId: string): void {
    const n = (this.perAccount.get(userId) ?? 1) - 1;
    if (n <= 0) this.perAccount.delete(userId);
    else this.perAccount.set(userId, n);
  }

  track(sessionId: string, close: (shutdown: boolean) => void): () => void {
    this.closers.add(close);
    let closers = this.bySession.get(sessionId);
    if (!closers) this.bySession.set(sessionId, (closers = new Set()));
    closers.add(close);
    if (!this.checker && this.liveSessions) {
      this.checker = setInterval(() => void this.checkSessions(), this.options.sessionCheckMs);
      this.checker.unref();
    }
    return () => {
      this.closers.delete(close);
      closers.delete(close);
      if (closers.size === 0) this.bySession.delete(sessionId);
      if (this.closers.size === 0 && this.checker) {
        clearInterval(this.checker);
        this.checker = null;
      }
    };
  }
}

/**
 * `GET /users/:uid/events` (decision 079): the library stream of one device. It hears the changes other
 * sessions make to the same library (the account's own or the X-Profile-Id profile's) and never
 * carries data: the client reads what changed since its marks with the ordinary conditional reads, on
 * `ready`, `changed` and `resync`, so a missed event costs at most a delay, never a change.
 */
export function registerLiveRoutes(app: FastifyInstance, live: LiveStreams): void {
  const { heartbeatMs, maxAgeMs } = live.options;
  contractStream(app, e.events, async (_input, request, reply) => {
    const lib = libraryOf(request);
    const { sessionId } = authOf(request);
    if (!live.take(lib.userId))
      throw new AppError(
        429,
        'rate_limited',
        'Too many open event streams for this account; close some tabs',
      );
    let released = false;
    const cleanups: (() => void)[] = [];
    const release = () => {
      if (released) return;
      released = true;
      for (const cleanup of cleanups) cleanup();
      live.release(lib.userId);
    };
    // Events before the stream exists are not needed: the client reads everything changed after `ready`.
    const target: { stream?: EventStream<typeof e.events.events> } = {};
    try {
      const unsubscribe = await live.bus.subscribe(lib.userId, (change) => {
        if (change.profileId !== lib.profileId || change.origin === sessionId) return;
        target.stream?.send('changed', { kind: change.kind });
      });
      cleanups.push(unsubscribe);
    } catch (error) {
      release();
      throw error;
    }
    const open = new EventStream(request, reply, e.events.events, {
      greeting: 'marquee library',
      keepAliveMs: heartbeatMs,
    });
    target.stream = open;
    cleanups.push(live.bus.onGap(() => open.send('resync', {})));
    const close = (shutdown: boolean) => {
      release();
      open.close({ dropConnection: shutdown });
    };
    cleanups.push(live.track(sessionId, close));
    const age = setTimeout(() => close(false), maxAgeMs * (0.9 + Math.random() * 0.2));
    age.unref();
    cleanups.push(() => clearTimeout(age));
    open.signal.addEventListener('abort', release);
    reply.raw.on('close', release);
    open.send('ready', { heartbeatMs });
  });
}
