import type { FastifyReply } from 'fastify';
import type { Redis } from 'ioredis';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';
// One file each, not the package index (see rate-limiter-flexible.d.ts).
import RateLimiterMemory from 'rate-limiter-flexible/lib/RateLimiterMemory.js';
import RateLimiterRedis from 'rate-limiter-flexible/lib/RateLimiterRedis.js';
import RateLimiterRes from 'rate-limiter-flexible/lib/RateLimiterRes.js';
import { AppError } from '../errors.ts';

/**
 * Named buckets (the older servers' names and sizes where they had them). Imports are limited per
 * user, everything else per client IP. A bucket is checked before the work it guards is done.
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
  progress_import: { points: 20, durationMs: 10 * 60_000 },
  bookmark_import: { points: 20, durationMs: 10 * 60_000 },
  provider_metrics: { points: 300, durationMs: 30 * 60_000 },
  captcha_solves: { points: 300, durationMs: 30 * 60_000 },
  // email accounts and payments (issue 6)
  customer_register: { points: 10, durationMs: 10 * 60_000 },
  customer_login: { points: 20, durationMs: 10 * 60_000 },
  /** Per email address: slows password guessing against one account from many addresses. */
  customer_login_email: { points: 10, durationMs: 10 * 60_000 },
  /** Per user: promo code look-ups (codes must not be guessable by trying). */
  promo_check: { points: 30, durationMs: 10 * 60_000 },
  /** Per user: payment requests (each one asks the gateway for an invoice). */
  payment_request: { points: 10, durationMs: 10 * 60_000 },
} satisfies Record<string, RateLimitRule>;

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
  /** Where the counters live: 'memory' (this process) or 'redis' (shared by every process). */
  readonly store: 'memory' | 'redis';
}

export class RateLimitedError extends AppError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, 'rate_limited', 'Ratelimited');
  }
}

/**
 * Fixed-window counters from rate-limiter-flexible: in memory for one process, in Redis when the
 * instance runs several processes. A Redis outage falls back to per-process counters rather than
 * failing every sign-in.
 */
export function createRateLimits(options: {
  redis?: Redis;
  prefix: string;
  overrides?: RateLimitOverrides;
}): RateLimits {
  const { redis, prefix, overrides } = options;
  const limiters = new Map<RateLimitBucket, RateLimiterAbstract>();
  const limiterFor = (bucket: RateLimitBucket) => {
    let limiter = limiters.get(bucket);
    if (!limiter) {
      const rule = (overrides && overrides[bucket]) || rateLimitBuckets[bucket];
      const common = {
        points: rule.points,
        duration: Math.max(1, Math.ceil(rule.durationMs / 1000)),
        keyPrefix: `${prefix}rl:${bucket}`,
      };
      const memory = new RateLimiterMemory(common);
      limiter = redis
        ? new RateLimiterRedis({ ...common, storeClient: redis, insuranceLimiter: memory })
        : memory;
      limiters.set(bucket, limiter);
    }
    return limiter;
  };
  return {
    store: redis ? 'redis' : 'memory',
    async consume(bucket, key, points = 1) {
      if (overrides === false) return;
      try {
        await limiterFor(bucket).consume(key, points);
      } catch (error) {
        if (error instanceof RateLimiterRes)
          throw new RateLimitedError(Math.max(1, Math.ceil(error.msBeforeNext / 1000)));
        throw error;
      }
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
