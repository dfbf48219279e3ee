import type { Route } from './endpoint.ts';

/*
 * Casting (decision 113): the caption a viewer chose, relayed to a Chromecast. The receiver fetches a
 * side-loaded text track by URL itself, needs WebVTT, and reads it cross-origin, so the player uploads the
 * caption it shows as WebVTT and hands the receiver the short-lived URL it gets back. Schema-free, like
 * `segmentPaths`, so the player names the paths and limits without the schema library; the endpoint is in
 * cast.ts.
 */
export const castPaths = {
  /** POST (anyone, counted per address): a caption as WebVTT → the absolute URL the receiver loads. */
  captions: '/api/cast/captions',
  /**
   * GET (anyone holding the URL): the caption as `text/vtt` with `Access-Control-Allow-Origin: *`; 404
   * `not_found` once expired. Text, not JSON: outside the contract's endpoints (documented here and in
   * decision 113, like the media routes).
   */
  caption: '/api/cast/captions/:id',
} as const;

/** The largest caption relayed, in UTF-8 bytes of its WebVTT: 413 `payload_too_large` past it. */
export const CAST_CAPTION_MAX_BYTES = 2 * 1024 * 1024;
/** How long a relayed caption can be read: a long film, paused, and cast again. */
export const CAST_CAPTION_TTL_MS = 4 * 60 * 60_000;
/** A relayed caption's id: 22 base64url characters (128 random bits). */
export const CAST_CAPTION_ID = /^[A-Za-z0-9_-]{22}$/;

/** Whether text is WebVTT by its signature: `WEBVTT` first (after a byte order mark), then a blank or line end. */
export function isWebVtt(text: string): boolean {
  return /^\uFEFF?WEBVTT(?:[ \t][^\r\n]*)?(?:\r\n|\r|\n|$)/.test(text);
}

/** Routes of `castEndpoints`. */
export const castRoutes = {
  uploadCaption: { method: 'POST', path: castPaths.captions },
} as const satisfies Record<string, Route>;
