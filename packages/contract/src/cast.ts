import { z } from './z.ts';
import { defineEndpoint } from './endpoint.ts';
import { castRoutes, isWebVtt } from './cast-routes.ts';

/*
 * Casting (decision 113): the caption the viewer chose, relayed for the Chromecast's receiver, which
 * fetches text tracks by URL itself. Open to signed-out viewers (they cast too), counted per address.
 */

export const CastCaptionBody = z.object({
  /** The caption as WebVTT text (at most CAST_CAPTION_MAX_BYTES in UTF-8, else 413 `payload_too_large`). */
  vtt: z.string().min(1).refine(isWebVtt, 'must be WebVTT: the text starts with the line "WEBVTT"'),
});
export type CastCaptionBody = z.infer<typeof CastCaptionBody>;

export const CastCaptionHosted = z.object({
  /** Absolute URL of the caption (`text/vtt`, any origin may read it), unguessable. */
  url: z.string(),
  /** When it stops being answered (ms since the epoch, the server's clock). */
  expiresAt: z.number().int(),
});
export type CastCaptionHosted = z.infer<typeof CastCaptionHosted>;

export const castEndpoints = {
  uploadCaption: defineEndpoint({
    ...castRoutes.uploadCaption,
    summary:
      'Relay a caption (WebVTT) for a Chromecast: answers a short-lived URL any origin may read it from (decision 113)',
    auth: 'none',
    tags: ['cast'],
    errors: {
      413: ['payload_too_large'],
      429: ['rate_limited'],
      /** The store of relayed captions (Redis) does not answer: try again shortly (Retry-After). */
      503: ['database_unavailable'],
    },
    body: CastCaptionBody,
    response: CastCaptionHosted,
  }),
};
