import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HlsConversions, type ConvertibleFile } from './hls-conversions.ts';
import { readKeyframes } from './keyframes.ts';
import { h264Ac3Info } from '../../../test/media-info.ts';
import type { HlsPlan } from './playback-plan.ts';

const run = promisify(execFile);

/** Top-level boxes of an fMP4 buffer, with each `tfdt`'s decode time (per track, in the track's timescale). */
function boxesOf(buffer: Buffer): { types: string[]; tfdt: number[] } {
  const types: string[] = [];
  const tfdt: number[] = [];
  const walk = (start: number, end: number) => {
    let offset = start;
    while (offset + 8 <= end) {
      const size = buffer.readUInt32BE(offset);
      const type = buffer.toString('latin1', offset + 4, offset + 8);
      if (size < 8) return;
      if (start === 0) types.push(type);
      if (type === 'moof' || type === 'traf') walk(offset + 8, offset + size);
      if (type === 'tfdt') {
        const version = buffer[offset + 8];
        tfdt.push(
          version === 1 ? Number(buffer.readBigUInt64BE(offset + 12)) : buffer.readUInt32BE(offset + 12),
        );
      }
      offset += size;
    }
  };
  walk(0, buffer.length);
  return { types, tfdt };
}

let dir: string;
let file: ConvertibleFile;
let conversions: HlsConversions;

const info = (duration: number) => h264Ac3Info(duration);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marquee-hls-'));
  const input = path.join(dir, 'movie.mkv');
  // Keyframes every 2.5 s, 30 s long, AC3 5.1 audio: a remux copies the video and converts the sound.
  await run('ffmpeg', [
    ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc2=size=320x180:rate=24', '-f', 'lavfi'],
    ...['-i', 'sine=frequency=440:sample_rate=48000', '-t', '30', '-c:v', 'libx264', '-preset', 'ultrafast'],
    ...['-x264-params', 'keyint=60:min-keyint=60:scenecut=0', '-c:a', 'ac3', '-ac', '6', input],
  ]);
  file = { id: 'movie', path: input, info: info(30) };
  conversions = new HlsConversions({
    ffmpeg: 'ffmpeg',
    keyframes: (f) => readKeyframes('ffprobe', f.path),
    workDir: path.join(dir, 'work'),
    limits: { maxTranscodes: 2, maxRemuxes: 4, perViewer: 2 },
    hardware: 'none',
  });
});

afterAll(async () => {
  await conversions?.close();
  await rm(dir, { recursive: true, force: true });
});

const remux: HlsPlan = { video: 'copy', audio: { index: 1, mode: 'aac' }, burn: null };
const transcode: HlsPlan = { video: 360, audio: { index: 1, mode: 'aac' }, burn: null };

describe('HLS conversions', () => {
  it('lists a copied video in segments that start on its keyframes', async () => {
    const segments = await conversions.segments(file, remux);
    expect(segments[0]).toMatchObject({ start: 0, firstChunk: 0, chunks: 2 });
    expect(segments[1]!.start).toBeCloseTo(5, 1);
    expect(segments.reduce((sum, s) => sum + s.duration, 0)).toBeCloseTo(30, 0);
  });

  it('serves an init segment and fragments on the file timeline, also after a seek restarts ffmpeg', async () => {
    const segments = await conversions.segments(file, remux);
    const last = segments.length - 1;
    // A seek to the end first: ffmpeg starts there; then the start, which restarts it at 0.
    const tail = boxesOf(await conversions.segment(file, remux, last, 'viewer-a'));
    expect(tail.types).toContain('moof');
    const init = await conversions.initSegment(file, remux, 'viewer-a');
    expect(init).toMatch(/init-.*\.mp4$/);
    const head = boxesOf(await conversions.segment(file, remux, 0, 'viewer-a'));
    // Video track timescale 12288 (24 fps × 512): the tail's first fragment starts at its keyframe.
    expect(head.tfdt[0]).toBeLessThan(12288 * 0.1);
    expect(tail.tfdt[0]! / 12288).toBeCloseTo(segments[last]!.start, 0);
    // Two chunks joined: one styp, two moof/mdat pairs.
    expect(head.types.filter((t) => t === 'moof')).toHaveLength(2);
    expect(head.types.filter((t) => t === 'styp')).toHaveLength(1);
  });

  it('answers an init and a segment asked for at once by a new rendition (one setup, no lost folder)', async () => {
    const plan: HlsPlan = { video: 480, audio: null, burn: null };
    const [init, segment] = await Promise.all([
      conversions.initSegment(file, plan, 'viewer-c'),
      conversions.segment(file, plan, 1, 'viewer-c'),
    ]);
    expect(init).toMatch(/init-.*\.mp4$/);
    expect(boxesOf(segment).types).toContain('moof');
  });

  it('transcodes on a fixed grid, one segment per chunk', async () => {
    const segments = await conversions.segments(file, transcode);
    expect(segments.map((s) => s.start).slice(0, 3)).toEqual([0, 4, 8]);
    const third = boxesOf(await conversions.segment(file, transcode, 2, 'viewer-b'));
    expect(third.types.filter((t) => t === 'moof')).toHaveLength(1);
    expect(conversions.active().some((a) => a.transcode && a.running)).toBe(true);
  });
});
