import type { Redis } from 'ioredis';
import type { LibraryChangeKind } from '@marquee/contract';

/** A library change the account's other devices should hear about (decision 079). */
export interface LibraryChange {
  userId: string;
  /** The household profile whose library changed ('' = the account's own). */
  profileId: string;
  kind: LibraryChangeKind;
  /** The session that made it: its own stream does not hear it back. */
  origin: string | null;
}

export type ChangeListener = (change: LibraryChange) => void;

/**
 * How changes travel between the processes of one instance: in this process alone (one server), or
 * through Redis pub/sub (REDIS_URL: every process hears every other's). Delivery is at most once;
 * clients never depend on it alone — they read what changed since their marks on every (re)connect,
 * and on `onGap` (the bus may have dropped messages) streams tell them to.
 */
export interface EventBus {
  readonly kind: 'process' | 'redis';
  publish(change: LibraryChange): Promise<void>;
  /**
   * Hears the changes of one account (all its profiles) from when it resolves on (the subscription is in
   * place then, or the bus is down and `onGap` will follow). Resolves to the unsubscribe.
   */
  subscribe(userId: string, listener: ChangeListener): Promise<() => void>;
  /** Called after the bus may have missed changes (its connection came back). Returns the unsubscribe. */
  onGap(listener: () => void): () => void;
  close(): Promise<void>;
}

interface Log {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Listeners of this process, by account. */
class Listeners {
  private readonly byUser = new Map<string, Set<ChangeListener>>();
  private readonly gapListeners = new Set<() => void>();

  /** Adds one; true when it is the account's first here. */
  add(userId: string, listener: ChangeListener): boolean {
    let set = this.byUser.get(userId);
    const first = !set;
    if (!set) this.byUser.set(userId, (set = new Set()));
    set.add(listener);
    return first;
  }

  /** Removes one; true when it was the account's last here. */
  remove(userId: string, listener: ChangeListener): boolean {
    const set = this.byUser.get(userId);
    if (!set?.delete(listener)) return false;
    if (set.size > 0) return false;
    this.byUser.delete(userId);
    return true;
  }

  users(): string[] {
    return [...this.byUser.keys()];
  }

  dispatch(change: LibraryChange): void {
    for (const listener of [...(this.byUser.get(change.userId) ?? [])]) listener(change);
  }

  onGap(listener: () => void): () => void {
    this.gapListeners.add(listener);
    return () => this.gapListeners.delete(listener);
  }

  gap(): void {
    for (const listener of [...this.gapListeners]) listener();
  }
}

/** One server process: changes go straight to this process's streams. */
export class ProcessEventBus implements EventBus {
  readonly kind = 'process';
  private readonly listeners = new Listeners();

  async publish(change: LibraryChange): Promise<void> {
    this.listeners.dispatch(change);
  }

  async subscribe(userId: string, listener: ChangeListener): Promise<() => void> {
    this.listeners.add(userId, listener);
    return () => void this.listeners.remove(userId, listener);
  }

  onGap(listener: () => void): () => void {
    return this.listeners.onGap(listener);
  }

  async close(): Promise<void> {}
}

const isChange = (value: unknown): value is LibraryChange => {
  const v = value as Partial<LibraryChange> | null;
  return (
    typeof v?.userId === 'string' &&
    typeof v.profileId === 'string' &&
    typeof v.kind === 'string' &&
    (v.origin === null || typeof v.origin === 'string')
  );
};

/**
 * Redis pub/sub: one channel per account (`<prefix>library:<userId>`), subscribed while this process has
 * a stream of that account open, on a connection of its own (a subscribed connection can do nothing
 * else). Publishing uses the shared connection; when Redis refuses, the change still reaches this
 * process's streams. After the subscriber reconnects, every channel is subscribed again and `onGap`
 * listeners run (messages published meanwhile were lost).
 */
export class RedisEventBus implements EventBus {
  readonly kind = 'redis';
  private readonly listeners = new Listeners();
  private readonly subscriber: Redis;
  private wasReady = false;
  private publishFailing = false;
  /** Settles when the subscriber's first connection is made, or fails. */
  private readonly firstAttempt: Promise<void>;

  constructor(
    private readonly publisher: Redis,
    private readonly prefix: string,
    private readonly log: Log,
  ) {
    // Own connection; channels are subscribed again by us on every `ready` (below), not by ioredis.
    this.subscriber = publisher.duplicate({ autoResubscribe: false, enableOfflineQueue: true });
    this.subscriber.on('error', () => undefined); // the shared connection already logs outages
    this.subscriber.on('ready', () => {
      const users = this.listeners.users();
      if (users.length)
        void this.subscriber.subscribe(...users.map((u) => this.channel(u))).catch(() => undefined);
      if (this.wasReady) {
        this.log.info({}, 'event bus reconnected: open streams catch up');
        this.listeners.gap();
      }
      this.wasReady = true;
    });
    this.firstAttempt = new Promise<void>((resolve) => {
      for (const outcome of ['ready', 'error', 'end'] as const)
        this.subscriber.once(outcome, () => resolve());
    });
    this.subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
      let change: unknown;
      try {
        change = JSON.parse(message.toString('utf8'));
      } catch {
        return;
      }
      if (isChange(change)) this.listeners.dispatch(change);
    });
  }

  private readonly pending = new Map<string, Promise<void>>();

  private async subscribeChannel(userId: string): Promise<void> {
    // The process's first connection still being made: a stream opened now would say `ready` before its
    // channel is heard, and lose what is published meanwhile (no gap is told for a first connection).
    // It waits for that connection (or its failure) instead.
    if (!this.wasReady) await this.firstAttempt;
    // Down after having been up: subscribed on `ready` again, and the gap tells streams to catch up.
    if (this.subscriber.status !== 'ready') return;
    await this.subscriber.subscribe(this.channel(userId)).catch(() => undefined);
  }

  private channel(userId: string): string {
    return `${this.prefix}library:${userId}`;
  }

  async publish(change: LibraryChange): Promise<void> {
    try {
      await this.publisher.publish(this.channel(change.userId), JSON.stringify(change));
      this.publishFailing = false;
    } catch (error) {
      if (!this.publishFailing)
        this.log.warn({ err: error }, 'event bus: Redis refused a change; only this process hears it');
      this.publishFailing = true;
      this.listeners.dispatch(change);
    }
  }

  async subscribe(userId: string, listener: ChangeListener): Promise<() => void> {
    // A second stream of the account waits for the first one's SUBSCRIBE too (the same promise).
    if (this.listeners.add(userId, listener)) this.pending.set(userId, this.subscribeChannel(userId));
    await this.pending.get(userId);
    return () => {
      if (!this.listeners.remove(userId, listener)) return;
      this.pending.delete(userId);
      if (this.subscriber.status === 'ready')
        void this.subscriber.unsubscribe(this.channel(userId)).catch(() => undefined);
    };
  }

  onGap(listener: () => void): () => void {
    return this.listeners.onGap(listener);
  }

  async close(): Promise<void> {
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
