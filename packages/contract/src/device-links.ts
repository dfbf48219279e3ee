import { z } from './z.ts';
import { CustomerAuthResponse } from './customers.ts';
import { DEVICE_LINK_CODE_LENGTH, deviceLinkRoutes } from './device-link-routes.ts';
import { defineEndpoint } from './endpoint.ts';

/*
 * Signing in on another device with a code (decision 105): the new device shows a code and a QR code of
 * the /link page; a signed-in viewer opens it, checks the device's name and approves with their password;
 * the new device, polling with a secret only it holds, picks its session up once.
 */

export const DeviceLinkCode = z
  .string()
  .regex(new RegExp(`^[0-9]{${DEVICE_LINK_CODE_LENGTH}}$`), `A code is ${DEVICE_LINK_CODE_LENGTH} digits`);

export const DeviceLinkCreateBody = z.object({
  /** Shown to the approving viewer and in the session list; defaults to the browser's user agent. */
  device: z.string().trim().max(500).optional(),
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
});
export type DeviceLinkCreated = z.infer<typeof DeviceLinkCreated>;

export const DeviceLinkParams = z.object({ linkId: z.string().min(1).max(64) });
export const DeviceLinkPollBody = z.object({ pollToken: z.string().min(1).max(128) });
export const DeviceLinkPollResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('pending'), expiresAt: z.string() }),
  /** Approved: the new device's sign-in, answered once (the link is gone after). */
  z.object({ status: z.literal('approved'), auth: CustomerAuthResponse }),
]);
export type DeviceLinkPollResponse = z.infer<typeof DeviceLinkPollResponse>;

export const DeviceLinkCodeParams = z.object({ code: DeviceLinkCode });
export const DeviceLinkInfo = z.object({
  /** The name the new device gave (its browser and system by default). */
  device: z.string(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export const DeviceLinkApproveBody = z.object({
  /** A fresh sign-in on the approving side: the account's password (email accounts). */
  password: z.string().max(1024),
});

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
    summary: "Let the device with this code into the caller's account (needs the account's password)",
    auth: 'session',
    tags: ['accounts'],
    errors: {
      400: ['wrong_account_kind'],
      403: ['password_incorrect'],
      404: ['link_not_found'],
      429: ['rate_limited'],
    },
    params: DeviceLinkCodeParams,
    body: DeviceLinkApproveBody,
    response: DeviceLinkInfo,
  }),
} as const;
