import { z } from './z.ts';
import { ChallengeSolution } from './accounts.ts';
import { CustomerAuthResponse } from './customers.ts';
import { DEVICE_LINK_CODE_LENGTH, deviceLinkRoutes } from './device-link-routes.ts';
import { defineEndpoint } from './endpoint.ts';

/*
 * Signing in on another device with a code (decision 105): the new device shows a code and a QR code of
 * the /link page; a signed-in viewer opens it, checks the device's name and approves with their password;
 * the new device, polling with a secret only it holds, picks its session up once. A passphrase account
 * (decision 107) approves with its 12 words instead and seals the account's seed to the new device's
 * X25519 key: the server relays the sealed seed and never sees it.
 */

/** A 32-byte X25519 public key, base64url without padding. */
export const X25519Key = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 32-byte X25519 key, base64url without padding');

/**
 * The account's seed sealed to the new device's key: AES-256-GCM under HKDF-SHA256 of the X25519 secret
 * of `publicKey` (the approving device's one-time key) and the new device's key (DEVICE_LINK_SEAL_INFO).
 */
export const SealedSeed = z.object({
  publicKey: X25519Key,
  /** 12 bytes, base64url. */
  iv: z.string().regex(/^[A-Za-z0-9_-]{16}$/, 'must be 12 bytes, base64url'),
  /** The 32-byte seed and the 16-byte tag, base64url. */
  ciphertext: z.string().regex(/^[A-Za-z0-9_-]{64}$/, 'must be 48 bytes, base64url'),
});
export type SealedSeed = z.infer<typeof SealedSeed>;

export const DeviceLinkCode = z
  .string()
  .regex(new RegExp(`^[0-9]{${DEVICE_LINK_CODE_LENGTH}}$`), `A code is ${DEVICE_LINK_CODE_LENGTH} digits`);

export const DeviceLinkCreateBody = z.object({
  /** Shown to the approving viewer and in the session list; defaults to the browser's user agent. */
  device: z.string().trim().max(500).optional(),
  /** The new device's one-time X25519 key: a passphrase account's seed is sealed to it (decision 107). */
  publicKey: X25519Key.optional(),
});
export const DeviceLinkCreated = z.object({
  linkId: z.string(),
  code: z.string(),
  /** Only the new device knows it: the session is handed to whoever polls with it. */
  pollToken: z.string(),
  /** The approval page with the code (what the QR code opens). */
  linkUrl: z.string(),
  /** The QR code of `linkUrl`, a PNG data URL. */
  qr: z.string(),
  expiresAt: z.string(),
  /** The name the approving viewer sees (the one sent, or the browser and system). */
  device: z.string(),
});
export type DeviceLinkCreated = z.infer<typeof DeviceLinkCreated>;

export const DeviceLinkParams = z.object({ linkId: z.string().min(1).max(64) });
export const DeviceLinkPollBody = z.object({ pollToken: z.string().min(1).max(128) });
export const DeviceLinkPollResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), expiresAt: z.string() }),
  /** Approved: the new device's sign-in, answered once (the link is gone after). */
  z.object({ status: z.literal('approved'), auth: CustomerAuthResponse }),
  /**
   * Approved by a passphrase account: its seed, sealed to the new device's key, answered once; the new
   * device opens it and signs in with it as with the 12 words.
   */
  z.object({ status: z.literal('sealed'), sealed: SealedSeed }),
]);
export type DeviceLinkPollResponse = z.infer<typeof DeviceLinkPollResponse>;

export const DeviceLinkCodeParams = z.object({ code: DeviceLinkCode });
export const DeviceLinkInfo = z.object({
  /** The name the new device gave (its browser and system by default). */
  device: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** The new device's X25519 key, when it offered one (both devices show its fingerprint to compare). */
  publicKey: X25519Key.nullable(),
});
export type DeviceLinkInfo = z.infer<typeof DeviceLinkInfo>;
export const DeviceLinkApproveBody = z.union([
  /** A fresh sign-in on the approving side: the account's password (email accounts). */
  z.object({ password: z.string().max(1024) }),
  /**
   * Passphrase accounts: the account's key signed a login challenge just issued (`loginStart`: a fresh
   * sign-in), and the seed sealed to the new device's key.
   */
  z.object({
    proof: z.object({ publicKey: z.string().min(1).max(128), challenge: ChallengeSolution }),
    sealed: SealedSeed,
  }),
]);

export const deviceLinkEndpoints = {
  create: defineEndpoint({
    ...deviceLinkRoutes.create,
    summary: 'A new device asks for a sign-in code (6 digits, 10 minutes) and a QR code of the approval page',
    auth: 'none',
    tags: ['accounts'],
    errors: { 429: ['rate_limited'] },
    body: DeviceLinkCreateBody,
    response: DeviceLinkCreated,
  }),
  poll: defineEndpoint({
    ...deviceLinkRoutes.poll,
    summary: 'The new device asks whether its code was approved; the sign-in is answered once',
    auth: 'none',
    tags: ['accounts'],
    errors: { 404: ['link_not_found'], 410: ['link_expired'], 429: ['rate_limited'] },
    params: DeviceLinkParams,
    body: DeviceLinkPollBody,
    response: DeviceLinkPollResponse,
  }),
  byCode: defineEndpoint({
    ...deviceLinkRoutes.byCode,
    summary: 'Which device asks with this code (wrong codes are throttled)',
    auth: 'session',
    tags: ['accounts'],
    errors: { 404: ['link_not_found'], 429: ['rate_limited'] },
    params: DeviceLinkCodeParams,
    response: DeviceLinkInfo,
  }),
  approve: defineEndpoint({
    ...deviceLinkRoutes.approve,
    summary:
      "Let the device with this code into the caller's account (the account's password, or a passphrase account's signed challenge and its seed sealed to the device)",
    auth: 'session',
    tags: ['accounts'],
    errors: {
      400: ['wrong_account_kind'],
      401: ['challenge_invalid', 'challenge_expired', 'signature_invalid', 'user_not_found'],
      403: ['password_incorrect'],
      404: ['link_not_found'],
      429: ['rate_limited'],
    },
    params: DeviceLinkCodeParams,
    body: DeviceLinkApproveBody,
    response: DeviceLinkInfo,
  }),
} as const;
