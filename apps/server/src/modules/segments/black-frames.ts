/*
 * Credits by their picture (decision 111): end credits roll over black. ffmpeg's `blackframe` filter
 * says, for frames of the file's last minutes sampled twice a second, which share of the picture is
 * black; the credits are the last long run of mostly black frames there (white text on black stays
 * above BLACK_SHARE), short interruptions (a logo, a flash) bridged.
 */

/** Frames sampled per second of the analysed tail. */
export const BLACK_FPS = 2;
/** A pixel is black below this luma (ffmpeg's default, of 255). */
export const BLACK_PIXEL_THRESHOLD = 32;
/** A frame is "credits-black" when at least this share of it (percent) is black. */
export const BLACK_SHARE = 85;
/** Non-black moments a run bridges, in seconds. */
const BRIDGE_SECONDS = 2;
/** The shortest run kept as credits, in seconds. */
export const MIN_BLACK_RUN_SECONDS = 10;

export interface BlackFrame {
  /** Seconds from the start of the analysed tail. */
  t: number;
  /** Percent of the frame that is black. */
  pblack: number;
}

/** ffmpeg's arguments: the picture from `from` seconds on, sampled and shrunk, through `blackframe`. */
export function blackFrameArgs(input: string, from: number, threads: number): string[] {
  return [
    ...['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'info', '-threads', String(threads)],
    ...['-ss', from.toFixed(3), '-i', `file:${input}`, '-map', '0:V:0', '-an', '-sn', '-dn'],
    ...['-vf', `fps=${BLACK_FPS},scale=160:-2,blackframe=amount=0:threshold=${BLACK_PIXEL_THRESHOLD}`],
    ...['-threads', String(threads), '-f', 'null', '-'],
  ];
}

/** The frames `blackframe` reported (with `amount=0` it reports every frame) from ffmpeg's log. */
export function parseBlackFrames(log: string): BlackFrame[] {
  const frames: BlackFrame[] = [];
  for (const match of log.matchAll(/\bpblack:(\d{1,3})\b.*?\bt:(-?\d+(?:\.\d+)?)/g))
    frames.push({ pblack: Number(match[1]), t: Number(match[2]) });
  return frames.sort((a, b) => a.t - b.t);
}

/**
 * The last run of credits-black frames at least MIN_BLACK_RUN_SECONDS long, in seconds from the start
 * of the tail (its end is where the last black frame's moment ends), or null.
 */
export function lastBlackRun(frames: readonly BlackFrame[]): { start: number; end: number } | null {
  const step = 1 / BLACK_FPS;
  let found: { start: number; end: number } | null = null;
  let start = -1;
  let last = -1;
  const close = () => {
    if (start >= 0 && last + step - start >= MIN_BLACK_RUN_SECONDS) found = { start, end: last + step };
    start = -1;
  };
  for (const frame of frames) {
    if (frame.pblack < BLACK_SHARE) continue;
    if (start >= 0 && frame.t - last > BRIDGE_SECONDS) close();
    if (start < 0) start = frame.t;
    last = frame.t;
  }
  close();
  return found;
}
