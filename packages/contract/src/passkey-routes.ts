import type { Route } from './endpoint.ts';

/**
 * Passkeys (WebAuthn, decision 109). Schema-free, like `deviceLinkPaths`, so the web app can name them
 * without the schema library.
 */
export const passkeyPaths = {
  /** POST (signed in): the options of a new passkey (a challenge for this account, 5 minutes). */
  registerOptions: '/auth/passkeys/register/options',
  /** POST (signed in, with the password or the 12 words' proof): keep the passkey the browser made. */
  register: '/auth/passkeys/register',
  /** POST (anyone): the options of a passkey sign-in (a challenge, 5 minutes; any of the site's passkeys). */
  loginOptions: '/auth/passkeys/login/options',
  /** POST (anyone): sign in with what the passkey signed. */
  login: '/auth/passkeys/login',
  /** GET (signed in): the account's passkeys. */
  list: '/users/:uid/passkeys',
  /** DELETE (signed in): remove one. */
  passkey: '/users/:uid/passkeys/:passkeyId',
} as const;

/** A passkey challenge's lifetime. */
export const PASSKEY_CHALLENGE_TTL_MS = 5 * 60_000;
/** Passkeys an account may keep. */
export const MAX_PASSKEYS = 20;
/**
 * The WebAuthn PRF input of every Marquee passkey: SHA-256 of this text. The authenticator's PRF output
 * for it is the passkey's secret, from which a passphrase account's seed is wrapped (decision 109).
 */
export const PASSKEY_PRF_LABEL = 'marquee passkey prf v1';
/** The HKDF info of the key that wraps the seed (HKDF-SHA256 of the PRF output, AES-256-GCM). */
export const PASSKEY_WRAP_INFO = 'marquee passkey seed wrap v1';

/** Routes of `passkeyEndpoints`. */
export const passkeyRoutes = {
  registerOptions: { method: 'POST', path: passkeyPaths.registerOptions },
  register: { method: 'POST', path: passkeyPaths.register },
  loginOptions: { method: 'POST', path: passkeyPaths.loginOptions },
  login: { method: 'POST', path: passkeyPaths.login },
  list: { method: 'GET', path: passkeyPaths.list },
  remove: { method: 'DELETE', path: passkeyPaths.passkey },
} as const satisfies Record<string, Route>;
