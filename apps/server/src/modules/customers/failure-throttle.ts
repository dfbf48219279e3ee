import { RateLimitedError, type RateLimitBucket, type RateLimits } from '../../plugins/rate-limit.ts';

/**
 * The wait after the `excess`-th failure past the free ones: 30 s, 1 min, 2 min … up to 15 min. For
 * secrets with few values (PINs, sign-in codes), harsher than passwords' waits (decision 070).
 */
export const shortSecretDelayMs = (excess: number): number =>
  Math.min(15 * 60_000, 30_000 * 2 ** Math.min(Math.max(excess, 1) - 1, 10));

/** A counter of failures: a rate-limit bucket and the key it counts for. */
export type FailureCounter = readonly [bucket: RateLimitBucket, key: string];

/**
 * Failed guesses of a short secret, counted on several sides at once (a profile and a device; an
 * account): each side has its bucket's points free per window, then waits (shortSecretDelayMs). An
 * attempt while any side waits is refused (429 with Retry-After) before the secret is checked.
 */
export class FailureThrottle {
  constructor(
    private readonly limits: RateLimits,
    /** The wait after the n-th failure past the free ones. */
    private readonly delayMs: (excess: number) => number = shortSecretDelayMs,
  ) {}

  async check(counters: readonly FailureCounter[]): Promise<void> {
    if (!this.limits.enabled) return;
    const waits = await Promise.all(counters.map(([bucket, key]) => this.limits.heldFor(bucket, key)));
    const wait = Math.max(0, ...waits);
    if (wait > 0) throw new RateLimitedError(Math.max(1, Math.ceil(wait / 1000)));
  }

  async failed(counters: readonly FailureCounter[]): Promise<void> {
    if (!this.limits.enabled) return;
    await Promise.all(
      counters.map(async ([bucket, key]) => {
        const failures = await this.limits.add(bucket, key);
        await this.holdPast([bucket, key], failures, this.limits.rule(bucket).points);
      }),
    );
  }

  /** `failures` counted on `counter` so far: past `free` of them, it waits (longer each time). */
  async holdPast([bucket, key]: FailureCounter, failures: number, free: number): Promise<void> {
    if (failures >= free) await this.limits.hold(bucket, key, this.delayMs(failures - free + 1));
  }

  async forgive(counters: readonly FailureCounter[]): Promise<void> {
    if (!this.limits.enabled) return;
    await Promise.all(counters.map(([bucket, key]) => this.limits.reset(bucket, key)));
  }
}
