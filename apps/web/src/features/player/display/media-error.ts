import type { PlaybackError, PlaybackErrorCode, ServerPlaybackCode } from '../core/types.ts';

/** MediaError codes 1–4 → aborted, network, decode, not supported; anything else is generic. */
export function mediaErrorCode(code: number | undefined): PlaybackErrorCode {
  switch (code) {
    case 1:
      return 'aborted';
    case 2:
      return 'network';
    case 3:
      return 'decode';
    case 4:
      return 'notSupported';
    default:
      return 'generic';
  }
}

export function videoError(error: MediaError | null): PlaybackError {
  return { source: 'video', code: mediaErrorCode(error?.code), message: error?.message || 'media error' };
}

const SERVER_CODES: readonly string[] = [
  'server_busy',
  'conversion_failed',
  'media_unplayable',
] satisfies ServerPlaybackCode[];

/** The `code` of an answer's JSON error body (the contract's shape), from text or bytes; null when none. */
function bodyCode(body: unknown): string | null {
  let text: string | null = null;
  if (typeof body === 'string') text = body;
  else if (body instanceof ArrayBuffer) text = new TextDecoder().decode(body);
  else if (body && typeof body === 'object') return String((body as { code?: unknown }).code ?? '') || null;
  if (!text) return null;
  try {
    const code = (JSON.parse(text) as { code?: unknown } | null)?.code;
    return typeof code === 'string' ? code : null;
  } catch {
    return null;
  }
}

/**
 * Why this instance refused a playlist or segment, when it says so: its JSON error body's code (a
 * conversion slot taken, a conversion that failed), else a 503 alone means it is busy.
 */
export function serverPlaybackCode(status: number | undefined, body: unknown): ServerPlaybackCode | null {
  const code = bodyCode(body);
  if (code && SERVER_CODES.includes(code)) return code as ServerPlaybackCode;
  return status === 503 ? 'server_busy' : null;
}

/** The answer body hls.js kept of a failed request: its XHR's (a fetch Response is not read twice). */
function failedBody(details: unknown): unknown {
  if (typeof XMLHttpRequest !== 'undefined' && details instanceof XMLHttpRequest) {
    try {
      return details.responseType === '' || details.responseType === 'text'
        ? details.responseText
        : details.response;
    } catch {
      return null;
    }
  }
  return null;
}

/** What hls.js says about a fatal error (the fields of its error data this needs). */
export interface HlsErrorData {
  type: string;
  details: string;
  /** The HTTP answer of a failed load (`code` is its status). */
  response?: { code?: number | undefined; data?: unknown } | undefined;
  /** The request itself: an XMLHttpRequest (the default loader) or a fetch Response. */
  networkDetails?: unknown;
}

/**
 * hls.js fatal errors by type: network, media (decode), anything else generic. A network error that
 * this instance explained (busy, conversion failed) carries its code, so the viewer reads why.
 */
export function hlsError(data: HlsErrorData): PlaybackError {
  const code: PlaybackErrorCode =
    data.type === 'networkError' ? 'network' : data.type === 'mediaError' ? 'decode' : 'generic';
  const error: PlaybackError = { source: 'hls', code, message: data.details };
  if (code !== 'network') return error;
  const serverCode = serverPlaybackCode(
    data.response?.code,
    data.response?.data ?? failedBody(data.networkDetails),
  );
  if (!serverCode) return error;
  const status = data.response?.code ? ` (HTTP ${data.response.code})` : '';
  return { ...error, serverCode, message: `${data.details}${status}: ${serverCode}` };
}
