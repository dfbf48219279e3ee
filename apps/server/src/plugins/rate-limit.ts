import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
// One file each, not the package index (see rate-limiter-flexible.d.ts).
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { AppError } from '../errors.ts';
import { CircuitBreaker, type BreakerState } from './redis.ts';

/**
 * Named buckets (the older servers' names and sizes where they had them). Imports are limited per
 * user, everything else per client IP. A bucket is checked before the work it guards is done.
 * `whenStoreFails` says what happens while Redis is unavailable: `memory` (fail closed — this
 * process's own counters go on refusing; every brute-force and abuse bucket) or `allow` (fail open — not
 * counted; buckets that only protect capacity, where refusing users would do more harm).
 */
export const rateLimitBuckets = {
  register_challenge_tokens: { points: 10, durationMs: 10 * 60_000 },
  register_complete: { points: 10, durationMs: 10 * 60_000 },
  /**
   * Registrations without a captcha token where the family's clients cannot solve our captcha
   * (decision 015): per IP, and (key `instance`) for every address together. Solved captchas skip both.
   */
  register_without_captcha: { points: 3, durationMs: 60 * 60_000 },
  register_without_captcha_instance: { points: 30, durationMs: 60 * 60_000 },
  login_challenge_tokens: { points: 20, durationMs: 10 * 60_000 },
  login_complete: { points: 20, durationMs: 10 * 60_000 },
  captcha_challenge: { points: 30, durationMs: 10 * 60_000 },
  // Clients import after every login; the older 5 / 10 min made repeated logins fail.
  progress_import: { points: 20, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  bookmark_import: { points: 20, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  history_import: { points: 20, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  rating_import: { points: 20, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  provider_metrics: { points: 300, durationMs: 30 * 60_000, whenStoreFails: 'allow' },
  captcha_solves: { points: 300, durationMs: 30 * 60_000, whenStoreFails: 'allow' },
  /**
   * Title matching for imports (POST /api/match, decision 098), per client IP: 300 batches of up to 25
   * titles (7,500 titles) per 10 min. It guards TMDB's capacity only, so it fails open: an import refused
   * because Redis is down would do more harm than a burst of cached look-ups.
   */
  title_match: { points: 300, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  /** Trakt links started per account (each asks Trakt for a device code), and scrobbles per account. */
  trakt_link: { points: 10, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  trakt_scrobble: { points: 300, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  // email accounts and payments (issue 6)
  customer_register: { points: 10, durationMs: 10 * 60_000 },
  /** Sign-in attempts per client IP, right or wrong (each one costs a password hash). */
  customer_login: { points: 20, durationMs: 10 * 60_000 },
  /*
   * Failed sign-ins (counters of modules/customers/sign-in-throttle.ts, decision 070; never consumed):
   * `points` failures are free within `durationMs` of the first, then each further one makes the
   * failing side wait, doubling from 2 s up to 15 min. Nothing here ever refuses another address.
   */
  /** Per client IP, whatever the account. */
  customer_login_address: { points: 10, durationMs: 60 * 60_000 },
  /** Per email address and client IP: the owner's typos, or one address guessing one account. */
  customer_login_email: { points: 5, durationMs: 60 * 60_000 },
  /**
   * Per email address, from every IP: past `points` the account is under attack and each address gets
   * one free failure on it (not `customer_login_email`'s). Addresses that have not failed are not slowed.
   */
  customer_login_account: { points: 10, durationMs: 15 * 60_000 },
  /** Per email address: failures since the last successful sign-in (the notice the owner then sees). */
  // 14 days: in memory a window is a timer, and Node timers stop at ~24.8 days.
  customer_login_notice: { points: 1_000_000, durationMs: 14 * 24 * 60 * 60_000 },
  /**
   * Wrong profile PINs (and wrong passwords given to change one), decision 104: per profile from every
   * device (5 free failures an hour), and per device (session) whatever the profile (10). Past the free
   * ones each failure makes that side wait, doubling from 2 s to 15 min.
   */
  profile_pin_profile: { points: 5, durationMs: 60 * 60_000 },
  profile_pin_device: { points: 10, durationMs: 60 * 60_000 },
  /** Per client IP: sign-in codes asked for by new devices (decision 105). */
  /** Passkey sign-in options and sign-ins, per client IP (each sign-in costs a signature check). */
  passkey_options: { points: 30, durationMs: 10 * 60_000 },
  passkey_login: { points: 20, durationMs: 10 * 60_000 },
  device_link_create: { points: 10, durationMs: 10 * 60_000 },
  /** Per client IP: a new device asks every 2 s for 10 minutes (300); a few devices behind one address. */
  device_link_poll: { points: 1_200, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  /** Per account: wrong sign-in codes looked up (10 free, then waits: FailureThrottle). */
  device_link_code: { points: 10, durationMs: 10 * 60_000 },
  /** Per account: wrong passwords given to approve a code (5 free an hour, then waits). */
  device_link_password: { points: 5, durationMs: 60 * 60_000 },
  /** Per user: promo code look-ups (codes must not be guessable by trying). */
  promo_check: { points: 30, durationMs: 10 * 60_000 },
  /** Per user: segment marks made and taken back (decision 111), shared with every viewer of the instance. */
  segment_marks: { points: 60, durationMs: 60 * 60_000 },
  /** Per user: payment requests (each one asks the gateway for an invoice). */
  payment_request: { points: 10, durationMs: 10 * 60_000 },
  /** Watch parties (decision 110): new parties per account; joins per client address. */
  party_create: { points: 20, durationMs: 10 * 60_000 },
  party_join: { points: 60, durationMs: 10 * 60_000 },
  /** Per member: commands (a scrub is one seek when it ends), chat lines and reactions, streams opened. */
  party_command: { points: 120, durationMs: 60_000, whenStoreFails: 'allow' },
  party_message: { points: 30, durationMs: 60_000, whenStoreFails: 'allow' },
  party_stream: { points: 60, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  /** Per member: how often buffering may hold the room (past it the room plays on without them). */
  party_hold: { points: 6, durationMs: 2 * 60_000, whenStoreFails: 'allow' },
  /** p-stream's player status: its client posts about once a second per member, per account here. */
  player_status: { points: 1_200, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
  /**
   * Casting (decision 113), per client address, signed in or not: captions relayed for a Chromecast (one
   * per caption chosen while casting; each is kept for hours, so the bucket bounds what an address can
   * store), and their reads (the receiver's, once per track it loads).
   */
  cast_caption_upload: { points: 60, durationMs: 10 * 60_000 },
  cast_caption_read: { points: 600, durationMs: 10 * 60_000, whenStoreFails: 'allow' },
} satisfies Record<string, RateLimitRule & { whenStoreFails?: 'memory' | 'allow' }>;

export type RateLimitBucket = keyof typeof rateLimitBuckets;
export interface RateLimitRule {
  points: number;
  durationMs: number;
}
/** Test and operator overrides: a different rule per bucket, or `false` to switch limits off. */
export type RateLimitOverrides = false | Partial<Record<RateLimitBucket, RateLimitRule>>;

export interface RateLimits {
  /** Counts `points` against `key` in `bucket`; throws a 429 AppError (with retryAfterSeconds) when over. */
  consume(bucket: RateLimitBucket, key: string, points?: number): Promise<void>;
  /**
   * Counters that refuse nothing by themselves (failed sign-ins): `add` counts and answers the count
   * within the bucket's window; `count` reads it; `reset` forgets it. `hold` makes `key` wait `ms`;
   * `heldFor` answers how long it still must (0: free).
   */
  add(bucket: RateLimitBucket, key: string): Promise<number>;
  count(bucket: RateLimitBucket, key: string): Promise<number>;
  reset(bucket: RateLimitBucket, key: string): Promise<void>;
  hold(bucket: RateLimitBucket, key: string, ms: number): Promise<void>;
  heldFor(bucket: RateLimitBucket, key: string): Promise<number>;
  /** The rule in force for `bucket` (overrides applied). */
  rule(bucket: RateLimitBucket): RateLimitRule;
  /** False when limits are switched off (overrides === false). */
  readonly enabled: boolean;
  /** Where the counters live: 'memory' (this process) or 'redis' (shared by every process). */
  readonly store: 'memory' | 'redis';
  /** Redis only: 'open' while calls go to this process's counters after Redis failed. */
  readonly breaker: BreakerState | null;
}

export class RateLimitedError extends AppError {
  constructor(override readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Ratelimited', { retryAfterSeconds });
  }
}

/** ioredis states in which a command cannot be answered now (skipped without trying). */
const deadStates = new Set(['reconnecting', 'close', 'end']);

interface BucketLimiters {
  memory: RateLimiterAbstract;
  redis: RateLimiterAbstract | undefined;
}

/**
 * Fixed-window counters from rate-limiter-flexible: in memory for one process, in Redis when the
 * instance runs several processes. Every Redis call goes through a circuit breaker: a failing or slow
 * Redis (REDIS_COMMAND_TIMEOUT_MS) is skipped for a cool-off, each bucket then failing closed (this
 * process's counters) or open (`whenStoreFails`), and Redis is tried again by itself.
 */
export function createRateLimits(options: {
  redis?: Redis | undefined;
  prefix: string;
  overrides?: RateLimitOverrides | undefined;
  breaker?: CircuitBreaker;
}): RateLimits {
  const { redis, prefix, overrides } = options;
  const breaker = redis ? (options.breaker ?? new CircuitBreaker()) : undefined;
  const limiters = new Map<string, BucketLimiters>();
  const rule = (bucket: RateLimitBucket): RateLimitRule =>
    (overrides && overrides[bucket]) || rateLimitBuckets[bucket];
  // `hold` keys live in a limiter of their own (blocking a key replaces its count).
  const limitersFor = (bucket: RateLimitBucket, kind: 'count' | 'hold' = 'count'): BucketLimiters => {
    const name = kind === 'count' ? bucket : `${bucket}:hold`;
    let found = limiters.get(name);
    if (!found) {
      const r = rule(bucket);
      const common = {
        points: kind === 'count' ? r.points : 1,
        duration: Math.max(1, Math.ceil(r.durationMs / 1000)),
        keyPrefix: `${prefix}rl:${name}`,
      };
      found = {
        memory: new RateLimiterMemory(common),
        redis: redis ? new RateLimiterRedis({ ...common, storeClient: redis }) : undefined,
      };
      limiters.set(name, found);
    }
    return found;
  };
  /** Runs `call` on Redis through the breaker, else (or when it fails) on this process's limiter. */
  const run = <T>(
    bucket: RateLimitBucket,
    { memory, redis: shared }: BucketLimiters,
    call: (limiter: RateLimiterAbstract) => Promise<T>,
    whenOpen: () => Promise<T> = () => call(memory),
  ): Promise<T> => {
    if (!shared || !breaker) return call(memory);
    const failOpen = (rateLimitBuckets[bucket] as { whenStoreFails?: string }).whenStoreFails === 'allow';
    return breaker.run(
      () => call(shared),
      failOpen ? whenOpen : () => call(memory),
      () => !deadStates.has(redis?.status ?? 'end'),
    );
  };
  // A refusal is an answer, not a store failure: it passes the breaker as a value.
  const settle = (promise: Promise<unknown>) =>
    promise.then(
      () => null,
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return error;
        throw error;
      },
    );
  const consumed = (res: RateLimiterRes | null) => res?.consumedPoints ?? 0;

  return {
    store: redis ? 'redis' : 'memory',
    enabled: overrides !== false,
    get breaker() {
      return breaker?.state ?? null;
    },
    rule,
    async consume(bucket, key, points = 1) {
      if (overrides === false) return;
      const refused = await run(
        bucket,
        limitersFor(bucket),
        (limiter) => settle(limiter.consume(key, points)),
        async () => null,
      );
      if (refused) throw new RateLimitedError(Math.max(1, Math.ceil(refused.msBeforeNext / 1000)));
    },
    async add(bucket, key) {
      if (overrides === false) return 0;
      return run(bucket, limitersFor(bucket), async (l) => consumed(await l.penalty(key, 1)));
    },
    async count(bucket, key) {
      if (overrides === false) return 0;
      return run(bucket, limitersFor(bucket), async (l) => consumed(await l.get(key)));
    },
    async reset(bucket, key) {
      if (overrides === false) return;
      await run(bucket, limitersFor(bucket), async (l) => void (await l.delete(key)));
    },
    async hold(bucket, key, ms) {
      if (overrides === false) return;
      const seconds = Math.max(1, Math.ceil(ms / 1000));
      await run(bucket, limitersFor(bucket, 'hold'), async (l) => void (await l.block(key, seconds)));
    },
    async heldFor(bucket, key) {
      if (overrides === false) return 0;
      return run(bucket, limitersFor(bucket, 'hold'), async (l) => {
        const res = await l.get(key);
        return res && res.consumedPoints > 1 ? Math.max(0, res.msBeforeNext) : 0;
      });
    },
  };
}

/** For routes: counts, and on refusal adds Retry-After to the 429. */
export async function limit(
  limits: RateLimits,
  reply: FastifyReply,
  bucket: RateLimitBucket,
  key: string,
  points = 1,
): Promise<void> {
  try {
    await limits.consume(bucket, key, points);
  } catch (error) {
    if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}

/** Runs a throttled attempt; a refusal's 429 says when to try again (Retry-After). */
export async function withRetryAfter<T>(reply: FastifyReply, attempt: () => Promise<T>): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    if (error instanceof RateLimitedError) reply.header('retry-after', String(error.retryAfterSeconds));
    throw error;
  }
}
