import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import { FailureThrottle, type FailureCounter } from './failure-throttle.ts';
import type { PasswordHasher } from './password-hasher.ts';

/** A passphrase account's key signed a login challenge just issued. */
export interface KeyProof {
  publicKey: string;
  challenge: { code: string; signature: string };
}

export interface OwnerProofOptions {
  users: UserAccountsService;
  hasher: PasswordHasher;
  limits: RateLimits;
  /** Which account a fresh signed login challenge proves (a passphrase account's 12 words). */
  prover: { proveKey(proof: KeyProof): Promise<string> };
}

/**
 * A fresh proof that the owner of a signed-in account is asking (changing a PIN, decisions 104 and 108;
 * adding a passkey, decision 109): an email account's password, or a passphrase account's 12 words (a
 * login challenge just issued, signed by its key). Wrong answers count with the PIN guesses — per
 * account (`profile_pin_profile`, key `<user>:password` or `<user>:words`) and per device
 * (`profile_pin_device`) — and past the free ones every attempt waits, the right one too.
 */
export class OwnerProof {
  private readonly throttle: FailureThrottle;

  constructor(private readonly o: OwnerProofOptions) {
    this.throttle = new FailureThrottle(o.limits);
  }

  /** Throws `missing()` when neither proof is given. */
  async check(
    auth: AuthContext,
    input: { password?: string | undefined; proof?: KeyProof | undefined },
    missing: () => AppError,
  ): Promise<void> {
    if (input.password !== undefined) return this.checkPassword(auth, input.password);
    if (input.proof !== undefined) return this.checkWords(auth, input.proof);
    throw missing();
  }

  private async checkPassword(auth: AuthContext, password: string): Promise<void> {
    const user = await this.o.users.findById(auth.userId);
    if (!user?.password_hash)
      throw new AppError(
        400,
        'wrong_account_kind',
        'This account signs in with a passphrase, not a password',
      );
    const keys = this.counters(`${auth.userId}:password`, auth.sessionId);
    await this.throttle.check(keys);
    if (!(await this.o.hasher.verify(password, user.password_hash))) {
      await this.throttle.failed(keys);
      throw new AppError(403, 'password_incorrect', 'That password is not right');
    }
  }

  /**
   * Any failure of the words' proof (stale or replayed challenge, bad signature, another account's
   * words) is one wrong answer; the server's own failures (its database) are not the caller's.
   */
  private async checkWords(auth: AuthContext, proof: KeyProof): Promise<void> {
    const user = await this.o.users.findById(auth.userId);
    if (!user || user.password_hash)
      throw new AppError(
        400,
        'wrong_account_kind',
        'This account signs in with a password, not a passphrase',
      );
    const keys = this.counters(`${auth.userId}:words`, auth.sessionId);
    await this.throttle.check(keys);
    const prover = await this.o.prover.proveKey(proof).catch((error: unknown) => {
      if (error instanceof AppError && error.status < 500) return null;
      throw error;
    });
    if (prover !== auth.userId) {
      await this.throttle.failed(keys);
      throw new AppError(403, 'words_incorrect', 'These 12 words are not this account’s');
    }
  }

  private counters(accountKey: string, sessionId: string): FailureCounter[] {
    return [
      ['profile_pin_profile', accountKey],
      ['profile_pin_device', sessionId],
    ];
  }
}
