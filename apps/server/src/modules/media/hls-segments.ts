import type { HlsPlan } from './playback-plan.ts';

// The segments of one HLS rendition, known before anything is converted, so the playlist lists the whole
// title at once and a seek anywhere names its segment (docs/decisions/085-library-pipeline.md).
//
// ffmpeg's HLS muxer is run with a tiny target duration, so it cuts a "chunk" file at every keyframe:
// - a transcode forces a keyframe every TRANSCODE_SEGMENT_SECONDS from where it starts (always a segment
//   start), so one chunk is one segment;
// - a copied video keeps the file's keyframes: chunks are its GOPs, numbered by keyframe, and a segment is
//   the run of consecutive chunks that reaches COPY_SEGMENT_SECONDS.
// A conversion started at segment i is told its first chunk number, so every run names chunks alike.

export const TRANSCODE_SEGMENT_SECONDS = 4;
export const COPY_SEGMENT_SECONDS = 4;

export interface Segment {
  /** Seconds from the file's start (the copied keyframe's time, or the transcode's grid point). */
  start: number;
  duration: number;
  /** Number of the first chunk file (`<n>.m4s`) and how many chunks make this segment. */
  firstChunk: number;
  chunks: number;
}

/**
 * Segments of a transcode: a fixed grid over the duration, one chunk each. A tail shorter than half a
 * second (the sound outlasting the picture by a few milliseconds) stays in the last segment: ffmpeg cuts
 * no chunk for a keyframe that never comes.
 */
export function gridSegments(duration: number, length = TRANSCODE_SEGMENT_SECONDS): Segment[] {
  const out: Segment[] = [];
  const count = Math.max(1, Math.ceil((duration - 0.5) / length));
  for (let i = 0; i < count; i++) {
    const start = i * length;
    const end = i === count - 1 ? duration : start + length;
    out.push({ start, duration: Math.max(0.001, end - start), firstChunk: i, chunks: 1 });
  }
  return out;
}

/**
 * Segments of a copied video from its keyframe times (seconds, ascending): consecutive GOPs grouped until
 * a segment lasts `target` seconds; the last one ends at the duration.
 */
export function keyframeSegments(
  keyframes: readonly number[],
  duration: number,
  target = COPY_SEGMENT_SECONDS,
): Segment[] {
  const times = keyframes.length ? [...keyframes] : [0];
  // The first picture often comes a little after 0 (B-frame delay): the first segment starts the timeline.
  if (times[0]! < 1) times[0] = 0;
  const end = Math.max(duration, times.at(-1)! + 0.001);
  const out: Segment[] = [];
  let first = 0;
  for (let i = 1; i <= times.length; i++) {
    const next = i < times.length ? times[i]! : end;
    const isLast = i === times.length;
    if (next - times[first]! >= target - 1e-6 || isLast) {
      // A short tail joins the segment before it rather than standing alone.
      if (isLast && out.length > 0 && next - times[first]! < target / 4) {
        const previous = out.at(-1)!;
        previous.duration = next - previous.start;
        previous.chunks += i - first;
        break;
      }
      out.push({
        start: times[first]!,
        duration: Math.max(0.001, next - times[first]!),
        firstChunk: first,
        chunks: i - first,
      });
      first = i;
    }
  }
  return out;
}

export function segmentsOf(plan: HlsPlan, duration: number, keyframes: readonly number[] | null): Segment[] {
  return plan.video === 'copy' && keyframes ? keyframeSegments(keyframes, duration) : gridSegments(duration);
}
