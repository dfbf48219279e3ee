import type { PlayerSegments } from './types.ts';

/*
 * The skippable parts of a library video (decision 111), as the player uses them: which one is playing,
 * and where the credits start (the next episode is offered from there).
 */

export type PlayerSegment = PlayerSegments['segments'][number];
export type SegmentType = PlayerSegment['type'];

/** What the Skip button skips: the credits lead to the next episode instead. */
export const SKIPPABLE: readonly SegmentType[] = ['intro', 'recap', 'preview'];

/** The last second of a segment offers no skip: there is nothing left to skip. */
const TAIL_S = 1;

/** The skippable segment playing at `time`, if any. */
export function skippableAt(segments: PlayerSegments | null, time: number): PlayerSegment | null {
  return (
    segments?.segments.find((s) => SKIPPABLE.includes(s.type) && time >= s.start && time < s.end - TAIL_S) ??
    null
  );
}

/** Where an episode's end credits start (credits that run to within 5 s of the end), or null. */
export function creditsStart(segments: PlayerSegments | null, duration: number): number | null {
  const credits = segments?.segments.find((s) => s.type === 'credits');
  if (!credits || duration <= 0 || credits.end < duration - 5) return null;
  return credits.start;
}

/** A segment's identity within one file: an automatic skip happens once per segment. */
export const segmentKey = (s: PlayerSegment) => `${s.type}:${s.start}`;
