import { createHmac, timingSafeEqual } from 'node:crypto';
import { PROFILE_UNLOCK_TTL_MS, type ProfileUnlockResponse } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import type { UserAccountsService } from '../users/user-accounts.service.ts';
import type { CustomersRepository } from './customers.repository.ts';
import { FailureThrottle, type FailureCounter } from './failure-throttle.ts';
import type { PasswordHasher } from './password-hasher.ts';
import type { KeyProof, OwnerProof } from './owner-proof.ts';
import type { ProfilePinsRepository } from './profile-pins.repository.ts';

export const profileLocked = () =>
  new AppError(403, 'profile_locked', 'This profile is locked: enter its PIN on this device first');
const pinIncorrect = () => new AppError(403, 'pin_incorrect', 'That PIN is not right');
const profileNotFound = () => new AppError(404, 'profile_not_found', 'Profile not found');

export interface ProfileLocksOptions {
  pins: ProfilePinsRepository;
  customers: CustomersRepository;
  users: UserAccountsService;
  hasher: PasswordHasher;
  limits: RateLimits;
  /** The owner's password or 12 words (decision 108). */
  owner: OwnerProof;
  /** The instance's key for unlock tokens (made once, shared by every process through the database). */
  key: () => Promise<string>;
  now: () => number;
}

/** What an unlock token says: this session opened this profile, under this PIN, until then. */
interface UnlockClaims {
  s: string;
  p: string;
  c: number;
  e: number;
}

/**
 * Profile PINs (decision 104). A locked profile's library, settings and playback answer 403
 * `profile_locked` unless the call carries an unlock token: made by `unlock` with the right PIN, signed
 * with the instance's key, bound to the session (device) that entered the PIN, to the profile, to the
 * PIN's version (a new PIN, or none, ends it) and to a lifetime (PROFILE_UNLOCK_TTL_MS). Wrong PINs are
 * slowed per profile and per device (FailureThrottle).
 */
export class ProfileLocks {
  private readonly throttle: FailureThrottle;

  constructor(private readonly o: ProfileLocksOptions) {
    this.throttle = new FailureThrottle(o.limits);
  }

  lockedIds(userId: string): Promise<Set<string>> {
    return this.o.pins.lockedIds(userId);
  }

  /**
   * Sets, changes (`pin`) or removes (`pin: null`) a profile's PIN. The owner proves it is them with the
   * profile's current PIN, the account's password or a passphrase account's 12 words (`proof`); a
   * profile without a PIN takes the password or the words only.
   */
  async setPin(
    auth: AuthContext,
    input: {
      profileId: string;
      pin: string | null;
      currentPin?: string | undefined;
      password?: string | undefined;
      proof?: KeyProof | undefined;
    },
  ): Promise<void> {
    const { userId } = auth;
    await this.assertProfileExists(userId, input.profileId);
    const current = await this.o.pins.find(userId, input.profileId);
    if (input.currentPin !== undefined && current) await this.checkCurrentPin(auth, input, current);
    else
      await this.o.owner.check(
        auth,
        input,
        () =>
          new AppError(
            403,
            'pin_proof_required',
            current
              ? "Give the profile's current PIN or the account's password"
              : "Give the account's password",
          ),
      );
    if (input.pin === null) await this.o.pins.remove(userId, input.profileId);
    else
      await this.o.pins.put({
        user_id: userId,
        profile_id: input.profileId,
        pin_hash: await this.o.hasher.hash(input.pin),
        // Strictly later than the PIN it replaces, so the unlocks made under that one end.
        changed_at: Math.max(this.o.now(), (current?.changed_at ?? 0) + 1),
      });
  }

  private async checkCurrentPin(
    auth: AuthContext,
    input: { profileId: string; currentPin?: string | undefined },
    current: { pin_hash: string },
  ): Promise<void> {
    const keys = this.counters(`${auth.userId}:${input.profileId}`, auth.sessionId);
    await this.throttle.check(keys);
    if (!(await this.o.hasher.verify(input.currentPin ?? '', current.pin_hash))) {
      await this.throttle.failed(keys);
      throw pinIncorrect();
    }
  }

  /** The right PIN opens the profile on the calling device; a profile without a PIN opens with any. */
  async unlock(auth: AuthContext, input: { profileId: string; pin: string }): Promise<ProfileUnlockResponse> {
    await this.assertProfileExists(auth.userId, input.profileId);
    const keys = this.counters(`${auth.userId}:${input.profileId}`, auth.sessionId);
    await this.throttle.check(keys);
    const row = await this.o.pins.find(auth.userId, input.profileId);
    if (row && !(await this.o.hasher.verify(input.pin, row.pin_hash))) {
      await this.throttle.failed(keys);
      throw pinIncorrect();
    }
    if (row) await this.throttle.forgive(keys.slice(0, 1));
    const expiresAt = this.o.now() + PROFILE_UNLOCK_TTL_MS;
    const claims: UnlockClaims = {
      s: auth.sessionId,
      p: input.profileId,
      c: row?.changed_at ?? 0,
      e: expiresAt,
    };
    return {
      profileId: input.profileId,
      token: await this.sign(claims),
      expiresAt: new Date(expiresAt).toISOString(),
    };
  }

  /** 403 `profile_locked` unless the profile has no PIN or `token` is this session's live unlock of it. */
  async assertOpen(
    auth: AuthContext,
    profileId: string,
    token: string | string[] | undefined,
  ): Promise<void> {
    const row = await this.o.pins.find(auth.userId, profileId);
    if (!row) return;
    const claims = typeof token === 'string' ? await this.verify(token) : null;
    if (
      !claims ||
      claims.s !== auth.sessionId ||
      claims.p !== profileId ||
      claims.c !== row.changed_at ||
      claims.e <= this.o.now()
    )
      throw profileLocked();
  }

  private async assertProfileExists(userId: string, profileId: string): Promise<void> {
    if (profileId === '') return;
    if (!(await this.o.customers.findProfile(userId, profileId))) throw profileNotFound();
  }

  // ---- tokens: base64url(JSON claims) "." base64url(HMAC-SHA256) ----

  private async mac(payload: string): Promise<Buffer> {
    return createHmac('sha256', await this.o.key())
      .update(`profile-unlock:${payload}`)
      .digest();
  }

  private async sign(claims: UnlockClaims): Promise<string> {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${(await this.mac(payload)).toString('base64url')}`;
  }

  /** The claims of a token this instance signed; null for anything else (never throws). */
  private async verify(token: string): Promise<UnlockClaims | null> {
    if (token.length > 1024) return null;
    const [payload, signature, extra] = token.split('.');
    if (!payload || !signature || extra !== undefined) return null;
    const given = Buffer.from(signature, 'base64url');
    const expected = await this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<UnlockClaims>;
      if (
        typeof claims.s !== 'string' ||
        typeof claims.p !== 'string' ||
        typeof claims.c !== 'number' ||
        typeof claims.e !== 'number'
      )
        return null;
      return claims as UnlockClaims;
    } catch {
      return null;
    }
  }

  /** Wrong PINs count for the profile from every device, and for this device whatever the profile. */
  private counters(profileKey: string, sessionId: string): FailureCounter[] {
    return [
      ['profile_pin_profile', profileKey],
      ['profile_pin_device', sessionId],
    ];
  }
}
