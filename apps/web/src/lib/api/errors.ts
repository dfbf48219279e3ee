import type { ApiErrorBody, ErrorCode } from '@marquee/contract';

/** What went wrong, as a value: the server's error code, or one of ours when it never answered in its shape. */
export type ApiErrorCode = ErrorCode | 'network_error' | 'unknown';

/** One validation problem of a request (`validation_failed`): where, and the server's (English) words. */
export interface ApiIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Every failed call of the API client. UI code switches on `code` (see `errorKey`), never on `message`:
 * the message is the server's English, kept for logs and tests only.
 */
export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when no answer came (offline, timeout, refused). */
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly issues: readonly ApiIssue[] = [],
    /**
     * The call spent its time budget (metadata: the server tried both TMDB hosts, the client retried a
     * lost connection once): asking again now would only keep the user waiting (decision 082).
     */
    readonly final = false,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The error of a non-2xx answer, from its body when it has the contract's error shape. */
export function errorFromAnswer(status: number, body: unknown): ApiError {
  const err = (typeof body === 'object' && body !== null ? body : {}) as Partial<ApiErrorBody>;
  return new ApiError(
    status,
    typeof err.code === 'string' ? err.code : 'unknown',
    typeof err.message === 'string' ? err.message : `HTTP ${status}`,
    Array.isArray(err.issues) ? err.issues : [],
  );
}

export const networkError = (final = false) =>
  new ApiError(0, 'network_error', 'The server cannot be reached', [], final);

/**
 * A route an account server of the older family lacks (the watch history, decision 095; the order of
 * bookmark groups, decision 097; ratings, decision 103): it answers 404 or 405. A 404 that names a
 * household profile that is gone (`profile_not_found`) is not that.
 */
export const isMissingNewerRoute = (error: unknown) =>
  error instanceof ApiError &&
  (error.status === 405 || (error.status === 404 && error.code !== 'profile_not_found'));

/** The title (or page) does not exist. */
export const isNotFound = (error: unknown) =>
  error instanceof ApiError && (error.code === 'media_not_found' || error.status === 404);

/**
 * The i18n key (in `errors.api.*`) that tells the user what a failure means. Codes without a text of
 * their own fall back by status (network, server down, generic).
 */
export function errorKey(error: unknown): ErrorKey {
  if (!(error instanceof ApiError)) return 'errors.api.unknown';
  return codeKey(error.code, error.status);
}

/** The i18n key of an error code (an ApiError's, or one an answer carries, like a promo check's `errorCode`). */
export function codeKey(code: ApiErrorCode | null | undefined, status = 400): ErrorKey {
  if (code && hasText.has(code)) return `errors.api.${code}` as ErrorKey;
  if (status === 0) return 'errors.api.network_error';
  if (status >= 500) return 'errors.api.internal_error';
  return 'errors.api.unknown';
}

/** Codes with a text of their own (`errors.api.<code>` in the errors namespace). */
const CODES_WITH_TEXT = [
  'network_error',
  'validation_failed',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'payload_too_large',
  'internal_error',
  'database_unavailable',
  'library_full',
  'captcha_required',
  'captcha_invalid',
  'captcha_unavailable',
  'email_taken',
  'invalid_credentials',
  'password_mismatch',
  'wrong_account_kind',
  'profile_not_found',
  'profile_limit',
  'profile_locked',
  'pin_incorrect',
  'pin_proof_required',
  'password_incorrect',
  'words_incorrect',
  'proof_required',
  'passkey_invalid',
  'passkey_unlock_required',
  'passkey_limit',
  'passkey_not_found',
  'profile_name_form',
  'kids_profile',
  'over_content_limit',
  'link_not_found',
  'link_expired',
  'plan_not_found',
  'crypto_required',
  'promo_not_found',
  'promo_used',
  'promo_reserved',
  'promo_already_used',
  'payment_not_found',
  'payment_gateway_unavailable',
  'login_required',
  'membership_required',
  'media_unplayable',
  'server_busy',
  'conversion_failed',
  'media_not_found',
  'metadata_unavailable',
  'party_not_found',
  'party_full',
  'party_not_member',
  'party_host_only',
  'party_guests_closed',
  'segment_invalid',
] as const satisfies readonly ApiErrorCode[];
const hasText = new Set<string>(CODES_WITH_TEXT);

/** The catalog key of an error's text (typed: each is checked against the English catalog). */
export type ErrorKey = `errors.api.${(typeof CODES_WITH_TEXT)[number]}` | 'errors.api.unknown';
