import { z } from './z.ts';
import { defineEndpoint, type EndpointErrors } from './endpoint.ts';
import { SEGMENT_DETECTION_STATES, SEGMENT_SOURCES, SEGMENT_TYPES, segmentRoutes } from './segment-routes.ts';

/*
 * Skip intro, recap and credits (decision 111): the segments of a library video, from its chapters, from
 * detection on the operator's library (the audio a season's episodes share, black frames before the
 * end), from the marks viewers share on the instance and, where the operator set one up, from an online
 * segment service. Read under the video's own access token, as its media is; marked by signed-in
 * viewers (not from a kids' profile).
 */

export const SegmentType = z.enum(SEGMENT_TYPES);
export type SegmentType = z.infer<typeof SegmentType>;
export const SegmentSource = z.enum(SEGMENT_SOURCES);
export type SegmentSource = z.infer<typeof SegmentSource>;
export const SegmentDetectionState = z.enum(SEGMENT_DETECTION_STATES);
export type SegmentDetectionState = z.infer<typeof SegmentDetectionState>;

export const SegmentsParams = z.object({
  /** The video's access token, as in its media URLs (`libraryMediaOf`). */
  access: z.string().min(1).max(2048),
  fileId: z.string().min(1).max(64),
});
export const SegmentParams = SegmentsParams.extend({ type: SegmentType });

/** Seconds from the start of the file. */
const seconds = z.number().min(0).max(1e7);

export const Segment = z.object({
  type: SegmentType,
  start: seconds,
  end: seconds,
  source: SegmentSource,
  /** `viewers`: how many viewers' marks agree with this one (within 2 s at both ends). */
  votes: z.number().int().min(1).optional(),
});
export type Segment = z.infer<typeof Segment>;

export const SegmentMark = z.object({ type: SegmentType, start: seconds, end: seconds });
export type SegmentMark = z.infer<typeof SegmentMark>;

export const SegmentsResponse = z.object({
  fileId: z.string(),
  /** The runtime the server read (seconds), or null when it has none. */
  duration: z.number().nullable(),
  /** At most one of each type: the most trusted source's (chapters > detected > viewers > service). */
  segments: z.array(Segment),
  /** Whether detection of this video is still pending (`pending`) or why there is none. */
  detection: SegmentDetectionState,
  /** The caller's own marks (signed in), so a player can offer to take one back; [] otherwise. */
  mine: z.array(SegmentMark),
});
export type SegmentsResponse = z.infer<typeof SegmentsResponse>;

export const SegmentMarkBody = z.object({ start: seconds, end: seconds });
export type SegmentMarkBody = z.infer<typeof SegmentMarkBody>;

/** The media routes' refusals (decision 071): whoever cannot play the file cannot read its segments either. */
const mediaErrors = {
  401: ['login_required'],
  402: ['membership_required'],
  403: ['media_url_invalid', 'media_url_expired'],
  404: ['file_not_found'],
  451: ['media_removed'],
} as const satisfies EndpointErrors;

export const segmentEndpoints = {
  segments: defineEndpoint({
    ...segmentRoutes.segments,
    summary:
      'The intro, recap, credits and preview of a library video (the best of its chapters, detection, viewers’ marks and the operator’s segment service), behind its signed access token',
    auth: 'optional',
    tags: ['sources'],
    errors: mediaErrors,
    params: SegmentsParams,
    response: SegmentsResponse,
  }),
  markSegment: defineEndpoint({
    ...segmentRoutes.markSegment,
    summary: 'Mark where a segment of a library video is (shared with the instance’s viewers)',
    auth: 'session',
    tags: ['sources'],
    errors: { ...mediaErrors, 400: ['segment_invalid'], 429: ['rate_limited'] },
    params: SegmentParams,
    body: SegmentMarkBody,
    response: SegmentsResponse,
  }),
  unmarkSegment: defineEndpoint({
    ...segmentRoutes.unmarkSegment,
    summary: 'Take back the caller’s mark of a segment of a library video',
    auth: 'session',
    tags: ['sources'],
    errors: { ...mediaErrors, 429: ['rate_limited'] },
    params: SegmentParams,
    response: SegmentsResponse,
  }),
} as const;
