import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

// Several servers behind one balancer act as one for conversions (docs/decisions/087-shared-conversions.md):
// each rendition is run by one process, which holds a lease on it in Redis; a process that receives a
// request for a rendition another one runs asks that one (pub/sub) to make the segment and reads it from
// the shared TRANSCODE_DIR.

/** What a process asks of the one running a rendition. */
export interface PeerRequest {
  /** The rendition (`<fileId>/<planId>`). */
  key: string;
  fileId: string;
  plan: string;
  /** The init segment, or a segment's index. */
  what: 'init' | number;
  viewer: string;
}

/** The files that hold what was asked (paths in the shared folder), or why it could not be made. */
export type PeerAnswer =
  | { files: string[] }
  | { error: { status: number; code: string; message: string; details?: Record<string, unknown> } };

/** The processes that may run conversions for each other. */
export interface ConversionPeers {
  /** This process's name among its peers. */
  readonly id: string;
  /** Takes `key` for this process (null), or names the process that holds it. */
  claim(key: string): Promise<string | null>;
  /** Keeps this process's leases alive (called regularly while it runs them). */
  renew(keys: readonly string[]): Promise<void>;
  /** Gives `key` up (the rendition was stopped). */
  release(key: string): Promise<void>;
  /**
   * Asks `owner` for a segment. Resolves with its answer; rejects with PeerGone when no such process
   * listens any more (its lease is then taken away, so the next claim succeeds).
   */
  ask(owner: string, request: PeerRequest): Promise<PeerAnswer>;
  /** What this process answers when a peer asks it. */
  serve(handler: (request: PeerRequest) => Promise<PeerAnswer>): void;
  close(): Promise<void>;
}

export class PeerGone extends Error {
  constructor(owner: string) {
    super(`conversion peer ${owner} is gone`);
  }
}

export class PeerTimeout extends Error {
  constructor(owner: string) {
    super(`conversion peer ${owner} did not answer`);
  }
}

interface Envelope {
  /** Ask: the request id and who asked; answer: the id it answers. */
  rid: string;
  from?: string;
  request?: PeerRequest;
  answer?: PeerAnswer;
}

const RENEW_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

export interface RedisPeersOptions {
  redis: Redis;
  prefix: string;
  /** A lease not renewed for this long lapses (its process died). */
  leaseMs?: number;
  /** Longest wait for a peer's answer (a segment may take a while to convert). */
  answerTimeoutMs?: number;
  log?: (level: 'info' | 'warn', message: string, details: Record<string, unknown>) => void;
}

/**
 * Leases are `<prefix>hls:lease:<key>` = the owner's id, with an expiry the owner renews; each process
 * listens on `<prefix>hls:peer:<id>` for asks and for the answers to its own asks. When Redis is not
 * reachable, every process converts for itself (claim answers "mine"): viewers still play.
 */
export class RedisConversionPeers implements ConversionPeers {
  readonly id = `${process.pid}-${randomUUID().slice(0, 8)}`;
  private readonly subscriber: Redis;
  private readonly pending = new Map<string, (envelope: Envelope) => void>();
  private handler: ((request: PeerRequest) => Promise<PeerAnswer>) | null = null;
  private readonly subscribed: Promise<unknown>;

  constructor(private readonly o: RedisPeersOptions) {
    this.subscriber = o.redis.duplicate({ enableOfflineQueue: true });
    this.subscriber.on('error', () => undefined); // the shared connection already logs outages
    this.subscriber.on('messageBuffer', (_channel: Buffer, message: Buffer) => {
      let envelope: Envelope;
      try {
        envelope = JSON.parse(message.toString('utf8')) as Envelope;
      } catch {
        return;
      }
      if (envelope.request && envelope.from) void this.answer(envelope.from, envelope.rid, envelope.request);
      else if (envelope.answer) this.pending.get(envelope.rid)?.(envelope);
    });
    this.subscribed = this.subscriber.subscribe(this.channel(this.id)).catch(() => undefined);
  }

  private get leaseMs() {
    return this.o.leaseMs ?? 20_000;
  }

  private channel(id: string) {
    return `${this.o.prefix}hls:peer:${id}`;
  }

  private lease(key: string) {
    return `${this.o.prefix}hls:lease:${key}`;
  }

  async claim(key: string): Promise<string | null> {
    try {
      const taken = await this.o.redis.set(this.lease(key), this.id, 'PX', this.leaseMs, 'NX');
      if (taken === 'OK') return null;
      const owner = await this.o.redis.get(this.lease(key));
      if (owner === null || owner === this.id) {
        await this.o.redis.set(this.lease(key), this.id, 'PX', this.leaseMs);
        return null;
      }
      return owner;
    } catch (error) {
      this.o.log?.('warn', 'library: Redis unavailable, this process converts on its own', {
        error: String(error),
      });
      return null;
    }
  }

  async renew(keys: readonly string[]): Promise<void> {
    await Promise.all(
      keys.map((key) =>
        this.o.redis.eval(RENEW_SCRIPT, 1, this.lease(key), this.id, this.leaseMs).catch(() => undefined),
      ),
    );
  }

  async release(key: string): Promise<void> {
    await this.o.redis.eval(RELEASE_SCRIPT, 1, this.lease(key), this.id).catch(() => undefined);
  }

  async ask(owner: string, request: PeerRequest): Promise<PeerAnswer> {
    await this.subscribed;
    const rid = randomUUID();
    let timer: NodeJS.Timeout | undefined;
    const forget = () => {
      clearTimeout(timer);
      this.pending.delete(rid);
    };
    const answered = new Promise<PeerAnswer>((resolve, reject) => {
      timer = setTimeout(() => {
        forget();
        reject(new PeerTimeout(owner));
      }, this.o.answerTimeoutMs ?? 40_000);
      this.pending.set(rid, (envelope) => {
        forget();
        resolve(envelope.answer!);
      });
    });
    const listeners = await this.o.redis
      .publish(this.channel(owner), JSON.stringify({ rid, from: this.id, request } satisfies Envelope))
      .catch(() => null);
    if (listeners === null || listeners === 0) {
      forget();
      if (listeners === null) throw new PeerTimeout(owner);
      // Nobody listens there: that process is gone. Its lease goes so that this one can take over.
      await this.o.redis.eval(RELEASE_SCRIPT, 1, this.lease(request.key), owner).catch(() => undefined);
      throw new PeerGone(owner);
    }
    return answered;
  }

  serve(handler: (request: PeerRequest) => Promise<PeerAnswer>): void {
    this.handler = handler;
  }

  private async answer(to: string, rid: string, request: PeerRequest): Promise<void> {
    const answer: PeerAnswer = this.handler
      ? await this.handler(request).catch((error: unknown) => ({
          error: { status: 502, code: 'conversion_failed', message: String(error) },
        }))
      : { error: { status: 503, code: 'server_busy', message: 'Not ready yet' } };
    await this.o.redis
      .publish(this.channel(to), JSON.stringify({ rid, answer } satisfies Envelope))
      .catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const [rid, resolve] of [...this.pending])
      resolve({ rid, answer: { error: { status: 503, code: 'server_busy', message: 'Shutting down' } } });
    await this.subscriber.quit().catch(() => this.subscriber.disconnect());
  }
}
