import type { Route } from './endpoint.ts';

/*
 * Skippable segments of a library video (decision 111): the intro, the recap, the credits and the
 * preview of the next episode. Schema-free, like `deviceLinkPaths`, so the player can name them without
 * the schema library; the schemas and endpoints are in segments.ts.
 */

/**
 * The segments routes sit under the video's own signed access token (decision 071), as its HLS,
 * subtitle and thumbnail URLs do: whoever may play the file may read its segments, and the refusal is
 * the media routes' own.
 */
export const segmentPaths = {
  /** GET: the best segment of each type, with its source, and whether detection is still pending. */
  segments: '/api/sources/library/:access/:fileId/segments',
  /** PUT (signed in): the caller marks where this type of segment is; DELETE: takes the mark back. */
  segment: '/api/sources/library/:access/:fileId/segments/:type',
} as const;

export const SEGMENT_TYPES = ['intro', 'recap', 'credits', 'preview'] as const;
type SegmentTypeName = (typeof SEGMENT_TYPES)[number];

/**
 * Where a segment comes from, most trusted first: the file's chapters, detection on the library
 * (fingerprints of the season's audio, black frames), the viewers' marks, then the online segment
 * service the operator may configure (its times are for a release, not this file). The answer gives
 * the most trusted one of each type.
 */
export const SEGMENT_SOURCES = ['chapters', 'detected', 'viewers', 'service'] as const;

/**
 * Detection of a video's segments: `pending` (queued or running), `done`, `failed` (the file could not
 * be analysed; tried again after a day or when the season changes), `off` (this server does not detect:
 * no fpcalc or ffmpeg, or the file's runtime is unknown).
 */
export const SEGMENT_DETECTION_STATES = ['pending', 'done', 'failed', 'off'] as const;

/** A viewer's mark is at least this long (a slip of the finger is not a segment). */
export const SEGMENT_MARK_MIN_SECONDS = 3;
/** And at most this long, per type: credits of a film roll for a long time, an intro does not. */
export const SEGMENT_MARK_MAX_SECONDS: Readonly<Record<SegmentTypeName, number>> = {
  intro: 5 * 60,
  recap: 10 * 60,
  credits: 20 * 60,
  preview: 5 * 60,
};
/** A mark may end this far past the runtime the server read (containers round their duration). */
export const SEGMENT_MARK_END_SLACK_SECONDS = 1;

/**
 * Why a viewer's mark does not fit the video, or null when it does: the server's rule (400
 * `segment_invalid`), which a player can check before it sends. Seconds; `duration` is the runtime the
 * server read (null: unknown, and then nothing can be marked).
 */
export function segmentMarkProblem(
  type: SegmentTypeName,
  start: number,
  end: number,
  duration: number | null,
): string | null {
  if (!Number.isFinite(start) || !Number.isFinite(end) || start < 0) return 'start and end must be ≥ 0';
  if (end <= start) return 'the end must come after the start';
  const length = end - start;
  if (length < SEGMENT_MARK_MIN_SECONDS) return `a segment lasts at least ${SEGMENT_MARK_MIN_SECONDS} s`;
  if (length > SEGMENT_MARK_MAX_SECONDS[type])
    return `a segment of this type lasts at most ${SEGMENT_MARK_MAX_SECONDS[type]} s`;
  if (duration === null) return 'the runtime of this video is not known: nothing can be marked in it';
  if (end > duration + SEGMENT_MARK_END_SLACK_SECONDS) return 'the segment ends after the video';
  return null;
}

/** The segments path of a library video, under its access token. */
export const librarySegmentsPath = (access: string, fileId: string) =>
  segmentPaths.segments.replace(':access', access).replace(':fileId', encodeURIComponent(fileId));

/**
 * The access token and file id of a library media URL (the file, an HLS playlist, a subtitle): what
 * the segments routes take. Null for any other URL.
 */
export function libraryMediaOf(url: string): { access: string; fileId: string } | null {
  const match = /\/api\/sources\/library\/([^/?#]{1,2048})\/([A-Za-z0-9_-]{22})\//.exec(url);
  return match ? { access: match[1]!, fileId: match[2]! } : null;
}

/** Routes of `segmentEndpoints`. */
export const segmentRoutes = {
  segments: { method: 'GET', path: segmentPaths.segments },
  markSegment: { method: 'PUT', path: segmentPaths.segment },
  unmarkSegment: { method: 'DELETE', path: segmentPaths.segment },
} as const satisfies Record<string, Route>;
