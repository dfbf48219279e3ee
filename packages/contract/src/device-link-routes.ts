import type { Route } from './endpoint.ts';

/**
 * Signing in on another device with a code (decision 105). Schema-free, like `customerPaths`, so the web
 * app's first view can name them.
 */
export const deviceLinkPaths = {
  /** POST (anyone): a new device asks for a code {device} → {linkId, code, pollToken, linkUrl, qr, expiresAt}. */
  create: '/auth/device-links',
  /** POST (the new device, with its poll token): pending, or — once approved — its sign-in, once. */
  poll: '/auth/device-links/:linkId/poll',
  /** GET (signed in): which device asks with this code. */
  byCode: '/auth/device-links/code/:code',
  /** POST (signed in, with the password or a passphrase account's proof and sealed seed): let it in. */
  approve: '/auth/device-links/code/:code/approve',
} as const;

/** The web page a signed-in viewer opens to approve a code (`?code=`), and the QR code's target. */
export const DEVICE_LINK_PAGE = '/link';
/** Codes are 6 digits and live 10 minutes (Jellyfin's Quick Connect, Netflix's TV code). */
export const DEVICE_LINK_CODE_LENGTH = 6;
export const DEVICE_LINK_TTL_MS = 10 * 60_000;
/** How often the new device asks whether it was let in. */
export const DEVICE_LINK_POLL_MS = 2_000;
/**
 * The HKDF info of a sealed seed (decision 107): the key is HKDF-SHA256(X25519 secret, salt = the link's
 * code, info = this), so a box is good for one link only.
 */
export const DEVICE_LINK_SEAL_INFO = 'marquee device link seed v1';

/** Routes of `deviceLinkEndpoints`. */
export const deviceLinkRoutes = {
  create: { method: 'POST', path: deviceLinkPaths.create },
  poll: { method: 'POST', path: deviceLinkPaths.poll },
  byCode: { method: 'GET', path: deviceLinkPaths.byCode },
  approve: { method: 'POST', path: deviceLinkPaths.approve },
} as const satisfies Record<string, Route>;
