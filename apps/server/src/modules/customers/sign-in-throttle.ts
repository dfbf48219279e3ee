import { createHash } from 'node:crypto';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import { FailureThrottle } from './failure-throttle.ts';

/** The longest wait a failing side is ever given. */
export const MAX_SIGN_IN_DELAY_MS = 15 * 60_000;

/** The wait after the `excess`-th failure past the free ones (1, 2, …): 2 s, 4 s, 8 s … up to 15 min. */
export const signInDelayMs = (excess: number): number =>
  Math.min(MAX_SIGN_IN_DELAY_MS, 1_000 * 2 ** Math.min(Math.max(excess, 1), 20));

/**
 * Password guessing is slowed where it comes from, never where it is aimed (decision 070). Counters
 * (plugins/rate-limit.ts buckets, in Redis when configured, else in this process) of failed sign-ins:
 * - per client address, whatever the account (`customer_login_address`);
 * - per account and address (`customer_login_email`): the owner's typos or one address guessing one account;
 * - per account from every address (`customer_login_account`): past its threshold the account is under
 *   attack, and every address gets a single free failure on it.
 * Past the free failures each failure makes that address (or that address on that account) wait,
 * doubling from 2 s to 15 min; an attempt during the wait is refused with 429 + Retry-After before any
 * password is checked. An address that has not been failing is never slowed, whatever happens to the
 * account elsewhere, so the owner always gets in with the right password. Failures since the last
 * successful sign-in are counted for the owner (`customer_login_notice`) and reported at sign-in.
 */
export class SignInThrottle {
  private readonly waits: FailureThrottle;

  constructor(private readonly limits: RateLimits) {
    this.waits = new FailureThrottle(limits, signInDelayMs);
  }

  /** Before the password is checked: 429 when this address must still wait. */
  async check(email: string, address: string): Promise<void> {
    await this.waits.check([
      ['customer_login_address', address],
      ['customer_login_email', pairKey(email, address)],
    ]);
  }

  /** A wrong password (or an unknown email: the attempt looks the same). */
  async failed(email: string, address: string): Promise<void> {
    if (!this.limits.enabled) return;
    const account = accountKey(email);
    const pair = pairKey(email, address);
    const [byAddress, byPair, byAccount] = await Promise.all([
      this.limits.add('customer_login_address', address),
      this.limits.add('customer_login_email', pair),
      this.limits.add('customer_login_account', account),
      this.limits.add('customer_login_notice', account),
    ]);
    const underAttack = byAccount > this.limits.rule('customer_login_account').points;
    const pairFree = underAttack ? 1 : this.limits.rule('customer_login_email').points;
    await Promise.all([
      this.waits.holdPast(
        ['customer_login_address', address],
        byAddress,
        this.limits.rule('customer_login_address').points,
      ),
      this.waits.holdPast(['customer_login_email', pair], byPair, pairFree),
    ]);
  }

  /**
   * The right password: this address's failures on this account are forgiven (not its failures on
   * others), and the owner learns how many failed attempts other addresses made since the last sign-in.
   */
  async succeeded(email: string, address: string): Promise<number> {
    if (!this.limits.enabled) return 0;
    const account = accountKey(email);
    const pair = pairKey(email, address);
    const [all, own] = await Promise.all([
      this.limits.count('customer_login_notice', account),
      this.limits.count('customer_login_email', pair),
    ]);
    await this.limits.reset('customer_login_email', pair);
    if (all > 0) await this.limits.reset('customer_login_notice', account);
    // The owner's own typos just now, from this address, are not news to them.
    return Math.max(0, all - own);
  }
}

/** Keys never hold an email address in clear (Redis is often less guarded than the database). */
const accountKey = (email: string) => createHash('sha256').update(email).digest('base64url').slice(0, 22);
const pairKey = (email: string, address: string) => `${accountKey(email)}:${address}`;
