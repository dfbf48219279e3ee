import { z } from './z.ts';
import { defineEndpoint } from './endpoint.ts';
import { accountRoutes } from './routes.ts';

/*
 * Passphrase accounts, sessions, /meta and client metrics: the account backend protocol that existing
 * clients of this app family speak (decision 013). Field names,
 * shapes and status codes (always 200 on success) are theirs; limits are ours (the older servers had
 * none and answered 500 where we answer 400).
 */

/** An instant on the wire: `Date.toISOString()`, UTC with milliseconds. */
export const IsoInstant = z.string();
/** A change time sent by a client: ISO 8601 with `Z` or an offset. */
export const ChangeTime = z.iso.datetime({ offset: true });

export const UserProfile = z.object({
  colorA: z.string().max(64),
  colorB: z.string().max(64),
  icon: z.string().max(64),
});
export type UserProfile = z.infer<typeof UserProfile>;

export const User = z.object({
  id: z.string(),
  namespace: z.string(),
  /** base64url Ed25519 key of a passphrase account; null for an email account. */
  publicKey: z.string().nullable(),
  roles: z.array(z.string()),
  createdAt: IsoInstant,
  lastLoggedIn: IsoInstant.optional(),
  profile: UserProfile,
  /**
   * p-stream's display name (decision 094). This server always sends it, `''` until the user sets one
   * (p-stream's client shows the user id then); the older servers never send it.
   */
  nickname: z.string().optional(),
});
export type User = z.infer<typeof User>;

export const Session = z.object({
  id: z.string(),
  userId: z.string(),
  createdAt: IsoInstant,
  accessedAt: IsoInstant,
  /** Opaque to the server: clients store their AES-GCM-encrypted device name here. */
  device: z.string(),
  userAgent: z.string(),
});
export type Session = z.infer<typeof Session>;

/** A 32-byte Ed25519 key or 64-byte signature, base64url (padding and +/ tolerated). */
const Base64Key = z.string().min(1).max(128);
const Device = z.string().min(1).max(500);

export const ChallengeResponse = z.object({ challenge: z.string() });
export const ChallengeSolution = z.object({ code: z.string().min(1).max(64), signature: Base64Key });

export const RegisterStartBody = z.object({ captchaToken: z.string().max(8192).optional() }).nullish();
export const RegisterCompleteBody = z.object({
  publicKey: Base64Key,
  challenge: ChallengeSolution,
  namespace: z.string().min(1).max(255),
  device: Device,
  profile: UserProfile,
});
export const LoginStartBody = z.object({ publicKey: Base64Key });
/** Clients also send `namespace`; it is accepted and ignored. */
export const LoginCompleteBody = z.object({
  publicKey: Base64Key,
  challenge: ChallengeSolution,
  device: Device,
});
export const AuthResponse = z.object({ user: User, session: Session, token: z.string() });
export type AuthResponse = z.infer<typeof AuthResponse>;

export const UserIdParams = z.object({ uid: z.string().min(1).max(64) });
export const SessionIdParams = z.object({ sid: z.string().min(1).max(64) });

/** The most characters (code points) a nickname may have, after trimming. */
export const NICKNAME_MAX_CHARS = 64;
/** Control characters, line and paragraph separators, and the bidirectional overrides that can disguise a name. */
const NOT_IN_A_NAME = /[\p{Cc}\u2028\u2029\u202A-\u202E\u2066-\u2069]/u;
/** p-stream's display name: trimmed, 1–64 characters, one line of visible text. */
export const Nickname = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(2 * NICKNAME_MAX_CHARS)
  .refine(
    (name) => [...name].length <= NICKNAME_MAX_CHARS,
    `must be at most ${NICKNAME_MAX_CHARS} characters`,
  )
  .refine((name) => !NOT_IN_A_NAME.test(name), 'must not contain control characters or line breaks');
/**
 * `name` is accepted for compatibility and ignored, as the older servers did. `nickname` is p-stream's
 * (alone or with `profile`; it cannot be cleared, as on p-stream's own server).
 */
export const PatchUserBody = z.object({
  profile: UserProfile.optional(),
  name: z.string().min(1).max(500).optional(),
  nickname: Nickname.optional(),
});
export const PatchSessionBody = z.object({ deviceName: Device.optional() });

export const Meta = z.object({
  name: z.string(),
  description: z.string().optional(),
  version: z.string(),
  hasCaptcha: z.boolean(),
  /** Only for reCAPTCHA: existing clients wrap registration in a reCAPTCHA v3 provider with this key. */
  captchaClientKey: z.string().optional(),
});
export type Meta = z.infer<typeof Meta>;

/** ALTCHA v1 challenge (the widget solves it and sends base64(JSON) back as `captchaToken`). */
export const AltchaChallenge = z.object({
  algorithm: z.string(),
  challenge: z.string(),
  maxnumber: z.number(),
  salt: z.string(),
  signature: z.string(),
});
export type AltchaChallenge = z.infer<typeof AltchaChallenge>;

const LabelText = z.string().max(255);
export const ProviderMetricItem = z.object({
  tmdbId: LabelText,
  type: LabelText,
  title: z.string().max(1000),
  seasonId: LabelText.optional(),
  episodeId: LabelText.optional(),
  status: z.enum(['failed', 'notfound', 'success']),
  providerId: LabelText,
  embedId: LabelText.optional(),
  errorMessage: z.string().max(4000).optional(),
  fullError: z.string().max(20000).optional(),
});
export const ProviderMetricsBody = z.object({
  items: z.array(ProviderMetricItem).min(1).max(10),
  tool: LabelText.optional(),
});
export const CaptchaMetricsBody = z.object({ success: z.boolean() });

export const accountEndpoints = {
  meta: defineEndpoint({
    ...accountRoutes.meta,
    summary: 'Instance name, version and captcha needs',
    auth: 'none',
    tags: ['accounts'],
    response: Meta,
  }),
  captchaChallenge: defineEndpoint({
    ...accountRoutes.captchaChallenge,
    summary: 'A fresh ALTCHA challenge (only when CAPTCHA_PROVIDER=altcha)',
    auth: 'none',
    tags: ['accounts'],
    errors: { 404: ['not_found'], 429: ['rate_limited'] },
    response: AltchaChallenge,
  }),
  registerStart: defineEndpoint({
    ...accountRoutes.registerStart,
    summary: 'Start registration: checks the captcha token, returns a challenge code to sign',
    auth: 'none',
    tags: ['accounts'],
    errors: {
      400: ['captcha_required', 'captcha_invalid'],
      429: ['rate_limited'],
      503: ['captcha_unavailable'],
    },
    body: RegisterStartBody,
    response: ChallengeResponse,
  }),
  registerComplete: defineEndpoint({
    ...accountRoutes.registerComplete,
    summary: 'Finish registration with the signed challenge; creates the user and a session',
    auth: 'none',
    tags: ['accounts'],
    errors: {
      401: ['challenge_invalid', 'challenge_expired', 'signature_invalid'],
      409: ['account_exists'],
      429: ['rate_limited'],
    },
    body: RegisterCompleteBody,
    response: AuthResponse,
  }),
  loginStart: defineEndpoint({
    ...accountRoutes.loginStart,
    summary: 'Start login for a registered public key; returns a challenge code to sign',
    auth: 'none',
    tags: ['accounts'],
    errors: { 401: ['user_not_found'], 429: ['rate_limited'] },
    body: LoginStartBody,
    response: ChallengeResponse,
  }),
  loginComplete: defineEndpoint({
    ...accountRoutes.loginComplete,
    summary: 'Finish login with the signed challenge; creates a session',
    auth: 'none',
    tags: ['accounts'],
    errors: {
      401: ['challenge_invalid', 'challenge_expired', 'signature_invalid', 'user_not_found'],
      429: ['rate_limited'],
    },
    body: LoginCompleteBody,
    response: AuthResponse,
  }),
  me: defineEndpoint({
    ...accountRoutes.me,
    summary: 'The signed-in user and the calling session (bearer token)',
    auth: 'session',
    kids: 'allowed',
    tags: ['accounts'],
    response: z.object({ user: User, session: Session }),
  }),
  getUser: defineEndpoint({
    ...accountRoutes.getUser,
    summary: 'One user (yourself only)',
    auth: 'session',
    kids: 'allowed',
    tags: ['accounts'],
    params: UserIdParams,
    response: z.object({ user: User }),
  }),
  patchUser: defineEndpoint({
    ...accountRoutes.patchUser,
    summary: 'Change your profile colours and icon, or your nickname',
    auth: 'session',
    tags: ['accounts'],
    params: UserIdParams,
    body: PatchUserBody,
    response: User,
  }),
  deleteUser: defineEndpoint({
    ...accountRoutes.deleteUser,
    summary: 'Delete your account and all its data',
    auth: 'session',
    tags: ['accounts'],
    params: UserIdParams,
    response: z.object({ id: z.string() }),
  }),
  userSessions: defineEndpoint({
    ...accountRoutes.userSessions,
    summary: 'Your live sessions (devices)',
    auth: 'session',
    tags: ['accounts'],
    params: UserIdParams,
    response: z.array(Session),
  }),
  deleteOtherSessions: defineEndpoint({
    ...accountRoutes.deleteOtherSessions,
    summary: 'Sign out everywhere else: every session of yours but the one calling',
    auth: 'session',
    tags: ['accounts'],
    params: UserIdParams,
    response: z.object({ count: z.number() }),
  }),
  patchSession: defineEndpoint({
    ...accountRoutes.patchSession,
    summary: 'Rename one of your sessions (encrypted device name)',
    auth: 'session',
    tags: ['accounts'],
    errors: { 403: ['forbidden'], 404: ['session_not_found'] },
    params: SessionIdParams,
    body: PatchSessionBody,
    response: Session,
  }),
  deleteSession: defineEndpoint({
    ...accountRoutes.deleteSession,
    summary: 'Sign one of your sessions out (idempotent)',
    auth: 'session',
    tags: ['accounts'],
    errors: { 403: ['forbidden'] },
    params: SessionIdParams,
    response: z.object({ id: z.string() }),
  }),
  providerMetrics: defineEndpoint({
    ...accountRoutes.providerMetrics,
    summary: 'Report scrape results (counted in Prometheus metrics)',
    auth: 'none',
    tags: ['accounts'],
    errors: { 429: ['rate_limited'] },
    body: ProviderMetricsBody,
    response: z.literal(true),
  }),
  captchaMetrics: defineEndpoint({
    ...accountRoutes.captchaMetrics,
    summary: 'Report a captcha solve',
    auth: 'none',
    tags: ['accounts'],
    errors: { 429: ['rate_limited'] },
    body: CaptchaMetricsBody,
    response: z.literal(true),
  }),
} as const;
