import type { Redis } from 'ioredis';

/**
 * How long one Redis command may take. Redis answers in well under a millisecond on a healthy network;
 * past this the caller uses its in-process fallback instead of waiting (ioredis' default is no limit).
 */
export const REDIS_COMMAND_TIMEOUT_MS = 250;
/** How long start-up waits for the first connection; after that the process starts anyway. */
const REDIS_START_WAIT_MS = 2_000;

interface Log {
  info(details: object, message: string): void;
  warn(details: object, message: string): void;
}

/** A Redis connection and what the readiness check reports about it. */
export interface RedisConnection {
  client: Redis;
  /** Why the connection is not usable now (null while it is). */
  problem(): string | null;
}

const describe = (error: unknown): string => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : error instanceof Error ? error.message : String(error);
};

/**
 * The shared Redis connection (REDIS_URL), set up to fail fast: commands time out after
 * REDIS_COMMAND_TIMEOUT_MS; while disconnected they are refused at once (no offline queue, which used to
 * hold every sign-in for ~15 s while Redis was down); reconnection is retried every ≤ 2 s for ever.
 * ioredis is loaded only when configured: a single process never needs it in memory.
 */
export async function connectRedis(url: string, log: Log): Promise<RedisConnection> {
  const { Redis } = await import('ioredis');
  const client = new Redis(url, {
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    connectTimeout: REDIS_START_WAIT_MS,
    enableOfflineQueue: false,
    // Commands in flight when the connection drops fail at once (not after a reconnection).
    maxRetriesPerRequest: 0,
    // No auto-pipelining: with it, a command defined after a pipeline opened (rate-limiter-flexible's
    // script, defined at a bucket's first use) failed and threw out of the process (ioredis#1931).
    enableAutoPipelining: false,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
  });
  let lastError: string | null = null;
  let down = false;
  // Logged once per outage, not once per reconnection attempt.
  client.on('error', (error) => {
    lastError = describe(error);
    if (!down)
      log.warn({ err: error }, 'redis is unavailable; rate limits use this process until it is back');
    down = true;
  });
  client.on('ready', () => {
    if (down) log.info({}, 'redis is available again');
    down = false;
    lastError = null;
  });
  await new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off('ready', done);
      client.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, REDIS_START_WAIT_MS);
    client.once('ready', done);
    client.once('error', done);
  });
  return {
    client,
    problem: () =>
      client.status === 'ready' ? null : `${client.status}${lastError ? `: ${lastError}` : ''}`,
  };
}

export type BreakerState = 'closed' | 'open' | 'half-open';

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the breaker. */
  failureThreshold?: number;
  /** How long an open breaker sends every call straight to the fallback before probing again. */
  coolOffMs?: number;
  now?: () => number;
  /** Called when the state changes (logging). */
  onChange?: (state: BreakerState) => void;
}

/**
 * A circuit breaker in front of a remote store: after `failureThreshold` failures in a row it opens and
 * every call takes its fallback at once for `coolOffMs`; then one call probes the store again (half-open)
 * — success closes the breaker, failure opens it for another cool-off. It recovers by itself.
 */
export class CircuitBreaker {
  private failures = 0;
  private openUntil = 0;
  private probing = false;
  private current: BreakerState = 'closed';
  private readonly failureThreshold: number;
  private readonly coolOffMs: number;
  private readonly now: () => number;

  constructor(private readonly options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? 3;
    this.coolOffMs = options.coolOffMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  get state(): BreakerState {
    return this.current;
  }

  /**
   * Runs `call` unless the breaker is open; when it is open, or `call` fails, `fallback` answers.
   * `usable` (the connection is up) is checked first, so a known-down store costs nothing.
   */
  async run<T>(
    call: () => Promise<T>,
    fallback: () => Promise<T>,
    usable: () => boolean = () => true,
  ): Promise<T> {
    let probe = false;
    if (this.current !== 'closed') {
      // Cooling off, or another call is already probing: straight to the fallback.
      if (this.probing || this.now() < this.openUntil) return fallback();
      this.probing = probe = true;
      this.set('half-open');
    }
    let result: T;
    try {
      if (!usable()) throw new Error('store not connected');
      result = await call();
    } catch {
      this.failed(probe);
      return fallback();
    } finally {
      if (probe) this.probing = false;
    }
    this.failures = 0;
    if (probe) this.set('closed');
    return result;
  }

  private failed(probe: boolean): void {
    this.failures += 1;
    if (probe || this.failures >= this.failureThreshold) {
      this.openUntil = this.now() + this.coolOffMs;
      this.set('open');
    }
  }

  private set(state: BreakerState): void {
    if (state === this.current) return;
    this.current = state;
    this.options.onChange?.(state);
  }
}
