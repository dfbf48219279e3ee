import { z } from './z.ts';

/** Every error code the API can answer with. Clients switch on `code`, never on `message`. */
export const errorCodes = [
  'validation_failed',
  'bad_request',
  'not_found',
  'route_not_found',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'payload_too_large',
  'unsupported_media_type',
  'media_not_found',
  'metadata_unavailable',
  'metadata_auth_failed',
  'metadata_rate_limited',
  'metadata_bad_answer',
  'legacy_metadata_unavailable',
  'internal_error',
  /** 503 with Retry-After: the database does not answer (restart, failover); try again shortly. */
  'database_unavailable',
  // accounts and sync
  'challenge_invalid',
  'challenge_expired',
  'signature_invalid',
  'user_not_found',
  'account_exists',
  'session_not_found',
  'captcha_required',
  'captcha_invalid',
  'captcha_unavailable',
  /** 409: the library holds the most rows allowed (progress or bookmarks); nothing was written. */
  'library_full',
  /** 413: the settings besides ours would hold too many fields or bytes (decision 094); nothing was written. */
  'settings_too_large',
  // sources and playback
  'media_removed',
  /** 403: the title or episode is not out yet (release.ts: a future date, or none); nothing was scraped. */
  'media_unreleased',
  'source_not_found',
  'file_not_found',
  'range_not_satisfiable',
  'scrape_failed',
  'media_url_invalid',
  'media_url_expired',
  /** The library file cannot play on this device and the server cannot convert it (no ffmpeg, a codec it lacks). */
  'media_unplayable',
  /** 503 with Retry-After: every conversion slot of the instance (or of this viewer) is taken. */
  'server_busy',
  /** 502: the conversion of a library file failed (a damaged or removed file). */
  'conversion_failed',
  /** 400: a viewer's segment mark does not fit the video (too short or long, past its end; decision 111). */
  'segment_invalid',
  // email accounts, profiles, memberships, promo codes
  'email_taken',
  'invalid_credentials',
  'password_mismatch',
  'wrong_account_kind',
  'profile_not_found',
  'profile_limit',
  /** 403: the profile has a PIN and this device has not opened it (or its unlock ended): ask for the PIN. */
  'profile_locked',
  /** 403: the PIN entered is not the profile's. */
  'pin_incorrect',
  /** 403: changing a profile's PIN needs its current PIN or the account's password (decision 104). */
  'pin_proof_required',
  /** 403: the account's password given to prove it is the owner is not right. */
  'password_incorrect',
  /** 403: the 12 words given to prove it is the owner are not this account's (or their proof is stale). */
  'words_incorrect',
  /** 403: adding a way into the account needs a fresh proof: the password, or a passphrase account's 12 words. */
  'proof_required',
  /** 400/401: what the passkey answered does not verify (another site's, a used or stale challenge, an unknown passkey). */
  'passkey_invalid',
  /** 400: a passphrase account's passkey must wrap its seed (WebAuthn PRF), or it could not open the account. */
  'passkey_unlock_required',
  /** 409: the account has all the passkeys it can keep. */
  'passkey_limit',
  'passkey_not_found',
  /**
   * 400: a profile name in the wrong form for the account: a passphrase account's names are sealed with
   * its key (decision 108), an email account's are plain text of at most 100 characters.
   */
  'profile_name_form',
  /**
   * 403: a kids' profile asked for what only the account's grown-ups may use (other profiles' settings,
   * memberships, devices, the admin pages; decision 106).
   */
  'kids_profile',
  /** 403: the title is rated over this kids' profile's limit (or has no rating it allows). */
  'over_content_limit',
  /** 404: no live sign-in code (or link) like this: mistyped, used, or never made. */
  'link_not_found',
  /** 410: the sign-in code's 10 minutes are over: the new device asks for another. */
  'link_expired',
  'plan_not_found',
  'crypto_required',
  'promo_not_found',
  'promo_used',
  'promo_reserved',
  /** The caller already used this code (paid, or on a request still payable): one discount per account. */
  'promo_already_used',
  'payment_not_found',
  'payment_gateway_unavailable',
  'callback_invalid',
  'login_required',
  'membership_required',
  // Trakt (decision 101)
  /** 503: this instance has no Trakt client (TRAKT_CLIENT_ID and TRAKT_CLIENT_SECRET unset). */
  'trakt_not_configured',
  /** 502: Trakt did not answer, or answered with an error; nothing changed here. */
  'trakt_unavailable',
  /** 409: this library has no linked Trakt account (link it first, or link it again). */
  'trakt_not_linked',
  // watch parties (decision 110)
  /** 404: no party with this id (a mistyped or old invite link, or a party that ended). */
  'party_not_found',
  /** 409: the party has all the members it can hold. */
  'party_full',
  /** 403: the party token is missing, not this party's, or its member has left. */
  'party_not_member',
  /** 403: only the host controls playback in this party (the host chose it). */
  'party_host_only',
  /** 401: this instance lets only signed-in viewers join parties (WATCH_PARTY_GUESTS). */
  'party_guests_closed',
] as const;
export const ErrorCode = z.enum(errorCodes);
export type ErrorCode = z.infer<typeof ErrorCode>;

/**
 * The error body of every Marquee endpoint. `errorType`/`message` keep the shape that existing
 * clients of this app family read; `code` is ours.
 */
export const ApiErrorBody = z.object({
  errorType: z.enum(['validation', 'message']),
  code: ErrorCode,
  message: z.string(),
  issues: z
    .array(z.object({ path: z.array(z.union([z.string(), z.number()])), message: z.string() }))
    .optional(),
});
export type ApiErrorBody = z.infer<typeof ApiErrorBody>;
