import { randomBytes } from 'node:crypto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  isSealedName,
  MAX_PASSKEYS,
  PASSKEY_CHALLENGE_TTL_MS,
  type CustomerAuthResponse,
  type Passkey,
  type PasskeyLoginResponse,
  type WrappedSeed,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { AuthContext } from '../../plugins/auth.ts';
import type { ChallengesRepository } from '../auth/auth.repository.ts';
import type { AuthService } from '../auth/auth.service.ts';
import { deviceNameOf, type CustomersService } from '../customers/customers.service.ts';
import type { KeyProof, OwnerProof } from '../customers/owner-proof.ts';
import { toSessionDto } from '../users/users.dto.ts';
import type { UserAccountsService, UserRow } from '../users/user-accounts.service.ts';
import type { PasskeyRow, PasskeysRepository } from './passkeys.repository.ts';

/** Where the browser must have been: the relying party's id (a host name) and the page's origin. */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

export interface PasskeysOptions {
  passkeys: PasskeysRepository;
  challenges: ChallengesRepository;
  users: UserAccountsService;
  auth: AuthService;
  customers: CustomersService;
  owner: OwnerProof;
  now: () => number;
  /** The name authenticators show for this site. */
  rpName: string;
}

const invalid = (status: 400 | 401, message = 'That passkey could not be verified here') =>
  new AppError(status, 'passkey_invalid', message);
const PLAIN_NAME_MAX_LENGTH = 100;
// A challenge fits the challenges table's code column (36): 24 random bytes, base64url.
const newChallenge = () => randomBytes(24).toString('base64url');
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

const toDto = (row: PasskeyRow): Passkey => ({
  id: row.id,
  name: row.name,
  createdAt: new Date(row.created_at).toISOString(),
  lastUsedAt: iso(row.last_used_at),
  unlocksAccount: row.wrapped_seed !== null,
});
const transportsOf = (row: PasskeyRow): AuthenticatorTransport[] => {
  try {
    return JSON.parse(row.transports) as AuthenticatorTransport[];
  } catch {
    return [];
  }
};

/**
 * Passkeys (WebAuthn, decision 109), verified with SimpleWebAuthn. Adding one is the owner's: a fresh
 * password or 12 words (OwnerProof), and for a passphrase account the seed wrapped by the passkey's PRF
 * output, which the server keeps and hands back only to a verified use of that passkey. Challenges are
 * the auth challenges' rows (flows `passkey-add`, bound to the account, and `passkey-login`), used once.
 */
export class PasskeysService {
  constructor(private readonly o: PasskeysOptions) {}

  async registerOptions(auth: AuthContext, rp: RelyingParty): Promise<Record<string, unknown>> {
    const user = await this.userOf(auth.userId);
    const kept = await this.o.passkeys.listOf(user.id);
    if (kept.length >= MAX_PASSKEYS) throw limitReached();
    const challenge = await this.issue('passkey-add', user.id);
    const label = user.email ?? `Marquee ${user.id.slice(0, 6)}`;
    const options = await generateRegistrationOptions({
      rpName: this.o.rpName,
      rpID: rp.rpID,
      userName: label,
      userDisplayName: label,
      userID: new TextEncoder().encode(user.id),
      challenge,
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      attestationType: 'none',
      // The same authenticator once per account; a discoverable passkey, so sign-in needs no name typed.
      excludeCredentials: kept.map((row) => ({ id: row.id, transports: transportsOf(row) })),
      authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
    });
    return options as unknown as Record<string, unknown>;
  }

  async register(
    auth: AuthContext,
    rp: RelyingParty,
    input: {
      response: RegistrationResponseJSON;
      name: string;
      password?: string | undefined;
      proof?: KeyProof | undefined;
      wrappedSeed?: WrappedSeed | undefined;
    },
  ): Promise<Passkey> {
    const user = await this.userOf(auth.userId);
    const passphrase = user.password_hash === null;
    assertName(passphrase, input.name);
    if (passphrase && !input.wrappedSeed)
      throw new AppError(
        400,
        'passkey_unlock_required',
        'A passphrase account’s passkey must be able to unlock it',
      );
    await this.o.owner.check(
      auth,
      input,
      () => new AppError(403, 'proof_required', 'Give the account’s password or its 12 words'),
    );
    const verified = await verifyRegistrationResponse({
      response: input.response,
      expectedChallenge: (challenge) => this.use(challenge, 'passkey-add', user.id),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification: false,
    }).catch((error: unknown) => {
      throw error instanceof AppError ? error : invalid(400, messageOf(error));
    });
    if (!verified.verified) throw invalid(400);
    const { credential } = verified.registrationInfo;
    const row: PasskeyRow = {
      id: credential.id,
      user_id: user.id,
      public_key: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: JSON.stringify(credential.transports ?? input.response.response.transports ?? []),
      name: input.name.trim(),
      wrapped_seed: passphrase ? JSON.stringify(input.wrappedSeed) : null,
      created_at: this.o.now(),
      last_used_at: null,
    };
    if ((await this.o.passkeys.countOf(user.id)) >= MAX_PASSKEYS) throw limitReached();
    if (!(await this.o.passkeys.insert(row))) throw invalid(400, 'This passkey is already kept');
    return toDto(row);
  }

  async loginOptions(rp: RelyingParty): Promise<Record<string, unknown>> {
    const options = await generateAuthenticationOptions({
      rpID: rp.rpID,
      challenge: await this.issue('passkey-login', null),
      timeout: PASSKEY_CHALLENGE_TTL_MS,
      // Any of this site's passkeys: the browser offers those it has.
      allowCredentials: [],
      userVerification: 'preferred',
    });
    return options as unknown as Record<string, unknown>;
  }

  /**
   * A verified use of a kept passkey: an email account gets a session; a passphrase account its wrapped
   * seed (the device signs in with the seed). Unknown passkeys, other sites' answers, used or stale
   * challenges and replayed signatures all answer 401 `passkey_invalid` alike.
   */
  async login(
    rp: RelyingParty,
    input: { response: AuthenticationResponseJSON; device?: string | undefined },
    userAgent: string,
  ): Promise<PasskeyLoginResponse> {
    const row = await this.o.passkeys.find(input.response.id);
    if (!row) throw invalid(401);
    const verified = await verifyAuthenticationResponse({
      response: input.response,
      expectedChallenge: (challenge) => this.use(challenge, 'passkey-login', null),
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      credential: {
        id: row.id,
        publicKey: new Uint8Array(Buffer.from(row.public_key, 'base64url')),
        counter: row.counter,
        transports: transportsOf(row),
      },
      requireUserVerification: false,
    }).catch((error: unknown) => {
      throw error instanceof AppError ? error : invalid(401, messageOf(error));
    });
    if (!verified.verified) throw invalid(401);
    const now = this.o.now();
    if (!(await this.o.passkeys.used(row.id, row.counter, verified.authenticationInfo.newCounter, now)))
      throw invalid(401);
    const user = await this.o.users.findById(row.user_id);
    if (!user) throw invalid(401);
    if (row.wrapped_seed !== null && user.public_key) {
      return {
        kind: 'passphrase',
        wrappedSeed: JSON.parse(row.wrapped_seed) as WrappedSeed,
        publicKey: user.public_key,
      };
    }
    return { kind: 'email', auth: await this.signIn(user, input.device, userAgent) };
  }

  async list(auth: AuthContext): Promise<Passkey[]> {
    return (await this.o.passkeys.listOf(auth.userId)).map(toDto);
  }

  async remove(auth: AuthContext, id: string): Promise<{ id: string }> {
    if (!(await this.o.passkeys.remove(auth.userId, id)))
      throw new AppError(404, 'passkey_not_found', 'Passkey not found');
    return { id };
  }

  private async signIn(
    user: UserRow,
    device: string | undefined,
    userAgent: string,
  ): Promise<CustomerAuthResponse> {
    const name = device?.trim() || deviceNameOf(userAgent);
    const { session, token, at } = await this.o.auth.signIn(user.id, name, userAgent);
    return {
      user: await this.o.customers.customerOf({ ...user, last_logged_in: at }),
      token,
      session: toSessionDto(session),
    };
  }

  private async issue(flow: 'passkey-add' | 'passkey-login', userId: string | null): Promise<string> {
    const code = newChallenge();
    const now = this.o.now();
    await this.o.challenges.insert({
      code,
      flow,
      public_key: userId,
      created_at: now,
      expires_at: now + PASSKEY_CHALLENGE_TTL_MS,
    });
    return code;
  }

  /** The browser signed this challenge: it must be a live one of this flow (and account), used once. */
  private async use(
    code: string,
    flow: 'passkey-add' | 'passkey-login',
    userId: string | null,
  ): Promise<boolean> {
    // The options carry the code's UTF-8 bytes, base64url (how SimpleWebAuthn encodes a text challenge).
    const text = Buffer.from(code, 'base64url').toString('utf8');
    if (text.length > 36) return false;
    const row = await this.o.challenges.consume(text);
    return (
      row !== undefined && row.flow === flow && row.public_key === userId && row.expires_at > this.o.now()
    );
  }

  private async userOf(userId: string): Promise<UserRow> {
    const user = await this.o.users.findById(userId);
    if (!user) throw new AppError(401, 'unauthorized', 'Not logged in');
    return user;
  }
}

const limitReached = () =>
  new AppError(409, 'passkey_limit', `An account keeps at most ${MAX_PASSKEYS} passkeys`);

/** A passphrase account's passkey names are sealed with its key (decision 108), an email account's plain. */
function assertName(passphrase: boolean, name: string): void {
  const trimmed = name.trim();
  if (passphrase ? !isSealedName(trimmed) : trimmed.length > PLAIN_NAME_MAX_LENGTH)
    throw new AppError(
      400,
      'profile_name_form',
      passphrase
        ? "This account's names are sealed with its key on the device"
        : 'A name has at most 100 characters',
    );
}

const messageOf = (error: unknown) =>
  error instanceof Error
    ? `That passkey could not be verified here: ${error.message}`
    : 'That passkey could not be verified here';
