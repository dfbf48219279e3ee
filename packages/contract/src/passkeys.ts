import { z } from './z.ts';
import { ChallengeSolution, UserIdParams } from './accounts.ts';
import { CustomerAuthResponse, ProfileName } from './customers.ts';
import { defineEndpoint } from './endpoint.ts';
import { passkeyRoutes } from './passkey-routes.ts';

/*
 * Passkeys (WebAuthn, decision 109). An email account signs in with one instead of its password. A
 * passphrase account's passkey carries the account's seed wrapped with the authenticator's PRF output
 * (never a key derived from the credential id, which is not a secret): signing in with it answers the
 * wrapped seed, which only that authenticator can open, and the device then signs in with the seed as
 * with the 12 words. The browser's WebAuthn answers travel as their JSON forms (base64url).
 */

const B64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/, 'must be base64url');

/** Options for `navigator.credentials.create()` / `.get()` in their JSON form (WebAuthn Level 3). */
const WebAuthnOptions = z.record(z.string(), z.unknown());

/** What the browser answered `create()` with (RegistrationResponseJSON); extension outputs are not sent. */
export const PasskeyRegistration = z.object({
  id: B64url(1366).min(1),
  rawId: B64url(1366).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64url(8192).min(1),
    attestationObject: B64url(65536).min(1),
    transports: z.array(z.string().max(32)).max(10).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
});

/** What the browser answered `get()` with (AuthenticationResponseJSON); extension outputs are not sent. */
export const PasskeyAssertion = z.object({
  id: B64url(1366).min(1),
  rawId: B64url(1366).min(1),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: B64url(8192).min(1),
    authenticatorData: B64url(8192).min(1),
    signature: B64url(2048).min(1),
    userHandle: B64url(128).optional(),
  }),
  authenticatorAttachment: z.string().max(32).optional(),
});

/**
 * A passphrase account's 32-byte seed wrapped by the passkey: AES-256-GCM under HKDF-SHA256 of the PRF
 * output (PASSKEY_WRAP_INFO), the credential id as additional data.
 */
export const WrappedSeed = z.object({
  /** 12 bytes, base64url. */
  iv: z.string().regex(/^[A-Za-z0-9_-]{16}$/, 'must be 12 bytes, base64url'),
  /** The 32-byte seed and the 16-byte tag, base64url. */
  ciphertext: z.string().regex(/^[A-Za-z0-9_-]{64}$/, 'must be 48 bytes, base64url'),
});
export type WrappedSeed = z.infer<typeof WrappedSeed>;

export const PasskeyOptionsResponse = z.object({
  /** Pass to the browser as it is; its challenge comes back in what the browser answers. */
  options: WebAuthnOptions,
});

export const PasskeyRegisterBody = z.object({
  response: PasskeyRegistration,
  /** Shown in the list: plain for an email account, sealed with the account key for a passphrase account. */
  name: ProfileName,
  /** A fresh sign-in (adding a way in is the owner's): an email account's password … */
  password: z.string().max(1024).optional(),
  /** … or a passphrase account's 12 words: its key signed a login challenge just issued. */
  proof: z.object({ publicKey: z.string().min(1).max(128), challenge: ChallengeSolution }).optional(),
  /** A passphrase account's seed wrapped by this passkey's PRF output: required for such an account. */
  wrappedSeed: WrappedSeed.optional(),
});

export const Passkey = z.object({
  id: z.string(),
  /** As it was given (a passphrase account's sealed). */
  name: z.string(),
  createdAt: z.string(),
  /** Its last sign-in; null when never used. */
  lastUsedAt: z.string().nullable(),
  /** It carries a passphrase account's wrapped seed (it can open the account on a new device). */
  unlocksAccount: z.boolean(),
});
export type Passkey = z.infer<typeof Passkey>;

export const PasskeyLoginBody = z.object({
  response: PasskeyAssertion,
  /** An email account's session name (a passphrase device names itself when it signs in with the seed). */
  device: z.string().trim().max(500).optional(),
});

export const PasskeyLoginResponse = z.discriminatedUnion('kind', [
  /** An email account: signed in. */
  z.object({ kind: z.literal('email'), auth: CustomerAuthResponse }),
  /**
   * A passphrase account: its seed, wrapped by this passkey; the device opens it with the PRF output of
   * the same ceremony and signs in with the seed (the account's public key tells it opened right).
   */
  z.object({ kind: z.literal('passphrase'), wrappedSeed: WrappedSeed, publicKey: z.string() }),
]);
export type PasskeyLoginResponse = z.infer<typeof PasskeyLoginResponse>;

export const PasskeyParams = UserIdParams.extend({ passkeyId: z.string().min(1).max(1366) });

export const passkeyEndpoints = {
  registerOptions: defineEndpoint({
    ...passkeyRoutes.registerOptions,
    summary: 'Options for a new passkey of your account (a challenge for 5 minutes)',
    auth: 'session',
    tags: ['accounts'],
    errors: { 409: ['passkey_limit'] },
    response: PasskeyOptionsResponse,
  }),
  register: defineEndpoint({
    ...passkeyRoutes.register,
    summary:
      "Keep a passkey of your account (with your password, or a passphrase account's 12 words and its seed wrapped by the passkey)",
    auth: 'session',
    tags: ['accounts'],
    errors: {
      400: ['passkey_invalid', 'passkey_unlock_required', 'wrong_account_kind', 'profile_name_form'],
      403: ['proof_required', 'password_incorrect', 'words_incorrect'],
      409: ['passkey_limit'],
      429: ['rate_limited'],
    },
    body: PasskeyRegisterBody,
    response: Passkey,
  }),
  loginOptions: defineEndpoint({
    ...passkeyRoutes.loginOptions,
    summary: 'Options for signing in with a passkey (a challenge for 5 minutes)',
    auth: 'none',
    tags: ['accounts'],
    errors: { 429: ['rate_limited'] },
    response: PasskeyOptionsResponse,
  }),
  login: defineEndpoint({
    ...passkeyRoutes.login,
    summary:
      "Sign in with a passkey: an email account's session, or a passphrase account's wrapped seed to sign in with",
    auth: 'none',
    tags: ['accounts'],
    errors: { 401: ['passkey_invalid'], 429: ['rate_limited'] },
    body: PasskeyLoginBody,
    response: PasskeyLoginResponse,
  }),
  list: defineEndpoint({
    ...passkeyRoutes.list,
    summary: "Your account's passkeys",
    auth: 'session',
    tags: ['accounts'],
    params: UserIdParams,
    response: z.array(Passkey),
  }),
  remove: defineEndpoint({
    ...passkeyRoutes.remove,
    summary: 'Remove one of your passkeys (it signs in no more)',
    auth: 'session',
    tags: ['accounts'],
    errors: { 404: ['passkey_not_found'] },
    params: PasskeyParams,
    response: z.object({ id: z.string() }),
  }),
} as const;
