import { describe, expect, it } from 'vitest';
import { BLACK_FPS, lastBlackRun, parseBlackFrames, type BlackFrame } from './black-frames.ts';

/** Frames of `seconds` at BLACK_FPS, black where `isBlack(t)` says. */
const frames = (seconds: number, isBlack: (t: number) => boolean): BlackFrame[] =>
  Array.from({ length: seconds * BLACK_FPS }, (_, i) => ({
    t: i / BLACK_FPS,
    pblack: isBlack(i / BLACK_FPS) ? 92 : 4,
  }));

describe('credits over black (decision 111)', () => {
  it('reads blackframe’s report from ffmpeg’s log', () => {
    const log = [
      'Input #0, matroska,webm, from …',
      '[Parsed_blackframe_2 @ 0x55d] frame:0 pblack:4 pts:0 t:0.000000 type:I last_keyframe:0',
      '[Parsed_blackframe_2 @ 0x55d] frame:1 pblack:92 pts:1 t:0.500000 type:P last_keyframe:0',
      'frame=  2 fps=0.0 q=-0.0 size=N/A',
    ].join('\n');
    expect(parseBlackFrames(log)).toEqual([
      { t: 0, pblack: 4 },
      { t: 0.5, pblack: 92 },
    ]);
  });

  it('finds the last long black run, bridging short flashes', () => {
    const run = lastBlackRun(frames(60, (t) => t >= 30 && !(t >= 40 && t < 41)));
    expect(run).toEqual({ start: 30, end: 60 });
  });

  it('keeps the later of two runs, and no run shorter than 10 s', () => {
    expect(lastBlackRun(frames(90, (t) => (t >= 10 && t < 30) || (t >= 60 && t < 80)))).toEqual({
      start: 60,
      end: 80,
    });
    expect(lastBlackRun(frames(60, (t) => t >= 55))).toBeNull();
    expect(lastBlackRun(frames(60, (t) => t >= 20 && t < 45 && Math.floor(t) % 5 < 2))).toBeNull();
  });
});
