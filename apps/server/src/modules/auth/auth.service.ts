import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { AuthResponse, UserProfile } from '@marquee/contract';
import type { AuthChallengesTable, Database } from '../../db/schema.ts';
import { AppError } from '../../errors.ts';
import type { AuthContext, SessionAuthenticator } from '../../plugins/auth.ts';
import type { CaptchaVerifier } from '../captcha/captcha.service.ts';
import type { SessionsRepository, SessionRow } from '../users/sessions.repository.ts';
import { toSessionDto, toUserDto } from '../users/users.dto.ts';
import type { UserAccountsService, UserRow } from '../users/user-accounts.service.ts';
import type { ChallengesRepository } from './auth.repository.ts';
import { canonicalPublicKey, verifyChallengeSignature } from './passphrase-crypto.ts';

/** A challenge is signed right after it is issued; the older server's ~35-day lifetime was a bug. */
export const CHALLENGE_TTL_MS = 5 * 60_000;
/** Expiry slides on use, but the session row is written at most this often (not on every request). */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

export interface AuthServiceOptions {
  db: Kysely<Database>;
  users: UserAccountsService;
  sessions: SessionsRepository;
  challenges: ChallengesRepository;
  captcha: CaptchaVerifier;
  /**
   * The family's clients cannot solve this captcha (decision 015): registration may start without a
   * token (the route applies the tighter rate limits first); a token that is sent is still checked.
   */
  captchaOptional?: boolean;
  now: () => number;
  sessionTtlMs: number;
  /** Called once per new account (the user-count metric). */
  onRegistered?: (namespace: string) => void;
}

interface ChallengeSolution {
  code: string;
  signature: string;
}

const challengeInvalid = () => new AppError(401, 'challenge_invalid', 'Challenge Code Invalid');

/** Opaque bearer tokens: 256 random bits; only their SHA-256 is stored (decision 010). */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');
/** Same alphabet and length as the older servers' nanoid(12) ids. */
export const newUserId = () => randomBytes(9).toString('base64url');

export class AuthService implements SessionAuthenticator {
  constructor(private readonly o: AuthServiceOptions) {}

  /**
   * What `register/start` without a captcha token meets: `refused` by the captcha, `limited` (allowed
   * under tighter rate limits, decision 015), or `free` on an instance without captcha.
   */
  get registrationWithoutCaptcha(): 'refused' | 'limited' | 'free' {
    if (this.o.captcha.provider === 'none') return 'free';
    return this.o.captchaOptional ? 'limited' : 'refused';
  }

  async startRegistration(
    captchaToken: string | undefined,
    remoteIp: string,
  ): Promise<{ challenge: string }> {
    if (captchaToken || this.registrationWithoutCaptcha === 'refused')
      await this.o.captcha.verify(captchaToken, remoteIp);
    const open = !captchaToken && this.registrationWithoutCaptcha === 'limited';
    return { challenge: await this.issueChallenge(open ? 'register-open' : 'registration', null) };
  }

  /**
   * `beforeCreate` runs once the challenge is proven, before the account is made; `open` says the
   * registration started without a captcha (the route then spends the instance's budget for those).
   */
  async completeRegistration(
    input: {
      publicKey: string;
      challenge: ChallengeSolution;
      namespace: string;
      device: string;
      profile: UserProfile;
    },
    userAgent: string,
    beforeCreate?: (o: { open: boolean }) => Promise<void>,
  ): Promise<AuthResponse> {
    const { publicKey, flow } = await this.useRegistrationChallenge(input.publicKey, input.challenge);
    await beforeCreate?.({ open: flow === 'register-open' });
    const now = this.o.now();
    const user: UserRow = {
      id: newUserId(),
      namespace: input.namespace,
      public_key: publicKey,
      email: null,
      password_hash: null,
      roles: '[]',
      profile: JSON.stringify({
        colorA: input.profile.colorA,
        colorB: input.profile.colorB,
        icon: input.profile.icon,
      }),
      created_at: now,
      last_logged_in: now,
      fullname: null,
    };
    const result = await this.o.db.transaction().execute(async (trx) => {
      if (!(await this.o.users.insertIfKeyFree(user, trx))) return null;
      return this.createSession(trx, user.id, input.device, userAgent, now);
    });
    if (!result) throw new AppError(409, 'account_exists', 'An account with this passphrase already exists');
    this.o.onRegistered?.(user.namespace);
    return { user: toUserDto(user), session: toSessionDto(result.session), token: result.token };
  }

  /** 401 for an unknown key: clients show "invalid passphrase" at once (the key is secret-derived, so this reveals nothing). */
  async startLogin(publicKeyText: string): Promise<{ challenge: string }> {
    const publicKey = canonicalPublicKey(publicKeyText);
    const user = publicKey ? await this.o.users.findByPublicKey(publicKey) : undefined;
    if (!publicKey || !user) throw new AppError(401, 'user_not_found', 'User cannot be found');
    return { challenge: await this.issueChallenge('login', publicKey) };
  }

  /**
   * A fresh proof that the caller holds a passphrase account's key: its signature over a login challenge
   * issued for that key (single use). Answers the account's id; 401 like a login's failures otherwise.
   */
  async proveKey(input: { publicKey: string; challenge: ChallengeSolution }): Promise<string> {
    const publicKey = await this.useChallenge('login', input.publicKey, input.challenge);
    const user = await this.o.users.findByPublicKey(publicKey);
    if (!user) throw new AppError(401, 'user_not_found', 'User cannot be found');
    return user.id;
  }

  async completeLogin(
    input: { publicKey: string; challenge: ChallengeSolution; device: string },
    userAgent: string,
  ): Promise<AuthResponse> {
    const publicKey = await this.useChallenge('login', input.publicKey, input.challenge);
    const user = await this.o.users.findByPublicKey(publicKey);
    if (!user) throw new AppError(401, 'user_not_found', 'User cannot be found');
    const now = this.o.now();
    const { session, token } = await this.o.db.transaction().execute(async (trx) => {
      await this.o.users.setLastLoggedIn(user.id, now, trx);
      return this.createSession(trx, user.id, input.device, userAgent, now);
    });
    return { user: toUserDto({ ...user, last_logged_in: now }), session: toSessionDto(session), token };
  }

  /**
   * A new session for a user who proved who they are some other way (email and password): the same
   * opaque bearer tokens as passphrase sign-ins, so every signed-in route treats both alike.
   */
  async signIn(
    userId: string,
    device: string,
    userAgent: string,
  ): Promise<{ session: SessionRow; token: string; at: number }> {
    const now = this.o.now();
    const result = await this.o.db.transaction().execute(async (trx) => {
      await this.o.users.setLastLoggedIn(userId, now, trx);
      return this.createSession(trx, userId, device, userAgent, now);
    });
    return { ...result, at: now };
  }

  async authenticate(token: string, _userAgent: string): Promise<AuthContext | null> {
    const now = this.o.now();
    const session = await this.o.sessions.findLiveByTokenHash(hashToken(token), now);
    if (!session) return null;
    if (now - session.accessed_at >= SESSION_TOUCH_INTERVAL_MS) {
      await this.o.sessions.touch(session.id, now, now + this.o.sessionTtlMs);
    }
    return { userId: session.user_id, sessionId: session.id, kidsProfileId: session.kids_profile ?? null };
  }

  private async issueChallenge(flow: AuthChallengesTable['flow'], publicKey: string | null): Promise<string> {
    const now = this.o.now();
    const code = randomUUID();
    await this.o.challenges.insert({
      code,
      flow,
      public_key: publicKey,
      created_at: now,
      expires_at: now + CHALLENGE_TTL_MS,
    });
    return code;
  }

  /**
   * Single use (consumed atomically before anything else), bound to its flow and, for logins, to the
   * key that asked for it; then the signature over the code's exact bytes. Returns the canonical key.
   */
  private async useChallenge(
    flow: 'registration' | 'login',
    publicKeyText: string,
    solution: ChallengeSolution,
  ): Promise<string> {
    return (await this.useChallengeOf([flow], publicKeyText, solution)).publicKey;
  }

  /** A registration challenge, with or without a captcha behind it. */
  private useRegistrationChallenge(publicKeyText: string, solution: ChallengeSolution) {
    return this.useChallengeOf(['registration', 'register-open'], publicKeyText, solution);
  }

  private async useChallengeOf(
    flows: AuthChallengesTable['flow'][],
    publicKeyText: string,
    solution: ChallengeSolution,
  ): Promise<{ publicKey: string; flow: AuthChallengesTable['flow'] }> {
    const challenge = await this.o.challenges.consume(solution.code);
    if (!challenge || !flows.includes(challenge.flow)) throw challengeInvalid();
    if (challenge.expires_at <= this.o.now())
      throw new AppError(401, 'challenge_expired', 'Challenge Code Expired');
    const publicKey = canonicalPublicKey(publicKeyText);
    if (challenge.public_key !== null && challenge.public_key !== publicKey) throw challengeInvalid();
    if (!publicKey || !verifyChallengeSignature(publicKey, challenge.code, solution.signature)) {
      throw new AppError(401, 'signature_invalid', 'Challenge Code Signature Invalid');
    }
    return { publicKey, flow: challenge.flow };
  }

  private async createSession(
    trx: Kysely<Database>,
    userId: string,
    device: string,
    userAgent: string,
    now: number,
  ): Promise<{ session: SessionRow; token: string }> {
    const token = newToken();
    const session: SessionRow = {
      id: randomUUID(),
      user_id: userId,
      token_hash: hashToken(token),
      created_at: now,
      accessed_at: now,
      expires_at: now + this.o.sessionTtlMs,
      device,
      // A missing User-Agent made the older server answer 500; it is only informational.
      user_agent: userAgent.slice(0, 512),
    };
    await this.o.sessions.insert(session, trx);
    return { session, token };
  }
}
