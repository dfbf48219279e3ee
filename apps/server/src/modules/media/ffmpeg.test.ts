import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writePgsSup, type PgsBox } from '../../../test/media-library-fixture.ts';
import { conversionArgs } from './ffmpeg.ts';
import type { MediaInfo } from './media-info.ts';
import type { HlsPlan } from './playback-plan.ts';

// Image subtitles burned into a transcode (docs/decisions/085-library-pipeline.md): real ffmpeg on small
// files with a PGS track (written by the test library's own .sup writer) and a VobSub one (ffmpeg turns
// the PGS pictures into DVD subtitles). The pictures are compared with the same transcode unburned.

const run = promisify(execFile);
const FPS = 24;

let dir: string;

function infoOf(width: number, height: number, subtitleCodec: string): MediaInfo {
  return {
    formatName: 'matroska,webm',
    duration: 8,
    bitRate: 300_000,
    video: {
      index: 0,
      codec: 'h264',
      profile: 'High',
      level: 30,
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      width,
      height,
      frameRate: FPS,
      dynamicRange: 'sdr',
      bitRate: null,
    },
    audio: [],
    subtitles: [
      {
        index: 1,
        codec: subtitleCodec,
        kind: 'image',
        language: 'eng',
        title: null,
        isDefault: false,
        isForced: false,
        isHearingImpaired: false,
      },
    ],
    chapters: [],
  };
}

/** An 8 s picture with keyframes every 2 s (0, 2, 4, 6) and one subtitle track from `sup`. */
async function makeFile(name: string, size: string, sup: string, subtitleCodec: 'copy' | 'dvdsub') {
  const file = path.join(dir, name);
  await run('ffmpeg', [
    ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${FPS}:duration=8`],
    // The .sup's timestamps start at its first cue; put them back where the cue is.
    ...['-itsoffset', '3', '-f', 'sup', '-i', sup, '-map', '0:v', '-map', '1:s'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(FPS * 2), '-sc_threshold', '0'],
    ...['-c:s', subtitleCodec, file],
  ]);
  return file;
}

/** Runs one conversion from `startAt` to the end and decodes its fragments to gray frames. */
async function convert(input: string, info: MediaInfo, plan: HlsPlan, startAt: number, name: string) {
  const out = path.join(dir, name);
  await mkdir(out, { recursive: true });
  await run(
    'ffmpeg',
    conversionArgs({ input, info, plan, startAt, firstChunk: 0, dir: out, run: 'r', hardware: 'none' }),
  );
  const chunks = (await readdir(out))
    .filter((f) => f.endsWith('.m4s'))
    .sort((a, b) => parseInt(a, 10) - parseInt(b, 10));
  const joined = path.join(dir, `${name}.mp4`);
  const parts = await Promise.all(['init-r.mp4', ...chunks].map((f) => readFile(path.join(out, f))));
  await writeFile(joined, Buffer.concat(parts));
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      joined,
      '-map',
      '0:v',
      '-fps_mode',
      'passthrough',
      '-f',
      'rawvideo',
      '-pix_fmt',
      'gray',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
  );
  const { width, height } = info.video!;
  const frames: Buffer[] = [];
  for (let at = 0; at + width * height <= stdout.length; at += width * height)
    frames.push(stdout.subarray(at, at + width * height));
  return { frames, width };
}

/** Mean absolute difference of two gray frames inside a box. */
function difference(a: Buffer, b: Buffer, width: number, box: Pick<PgsBox, 'x' | 'y' | 'width' | 'height'>) {
  let sum = 0;
  let count = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) {
      sum += Math.abs(a[y * width + x]! - b[y * width + x]!);
      count++;
    }
  return sum / count;
}

let pgsBox: PgsBox;
let sup: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'marquee-burn-'));
  sup = path.join(dir, 'cue.sup');
  // One cue from 3 s to 6 s: a conversion starting at 4 s lands on the keyframe at 4 s, after it began.
  const layout = await writePgsSup(sup, [{ start: 3, end: 6, text: 'PGS CUE 1' }]);
  pgsBox = layout.cues[0]!;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const burned = (burn: number | null): HlsPlan => ({ video: 360, audio: null, burn });

describe.each([
  ['PGS', 'copy', 'hdmv_pgs_subtitle'],
  ['VobSub', 'dvdsub', 'dvd_subtitle'],
] as const)('a %s subtitle burned into a transcode', (name, encoder, codec) => {
  it('shows the picture on screen where a conversion starts, though it began before that keyframe', async () => {
    const input = await makeFile(`${name}.mkv`, '320x180', sup, encoder);
    const info = infoOf(320, 180, codec);
    const plain = await convert(input, info, burned(null), 4, `${name}-plain`);
    const withSubtitle = await convert(input, info, burned(1), 4, `${name}-burned`);
    expect(withSubtitle.frames.length).toBe(plain.frames.length);
    expect(plain.frames.length).toBeGreaterThanOrEqual(4 * FPS - 1);
    // From the very first frame (4 s) until the cue ends (6 s) the box is drawn over the picture.
    for (let i = 0; i < 2 * FPS - 2; i++)
      expect(
        difference(withSubtitle.frames[i]!, plain.frames[i]!, 320, pgsBox),
        `frame ${i}`,
      ).toBeGreaterThan(40);
    if (name === 'PGS') {
      // The PGS clears it at 6 s (ffmpeg's DVD subtitles keep it until the next one).
      for (let i = 2 * FPS + 2; i < plain.frames.length; i++)
        expect(difference(withSubtitle.frames[i]!, plain.frames[i]!, 320, pgsBox), `frame ${i}`).toBeLessThan(
          3,
        );
    }
  });
});

describe('a subtitle canvas larger than the picture', () => {
  it('is fitted into the picture, so a cue at the bottom of a 16:9 canvas shows on a cropped film', async () => {
    // A 320×136 picture (a 2.35:1 film cropped) with the subtitle authored for 320×180.
    const input = await makeFile('cropped.mkv', '320x136', sup, 'copy');
    const info = infoOf(320, 136, 'hdmv_pgs_subtitle');
    const plain = await convert(input, info, burned(null), 0, 'cropped-plain');
    const withSubtitle = await convert(input, info, burned(1), 0, 'cropped-burned');
    // The canvas scaled by 136/180 and centred: the box's bottom rows land inside the picture.
    const scale = 136 / 180;
    const left = Math.round((320 - 320 * scale) / 2);
    const box = {
      x: left + Math.ceil(pgsBox.x * scale) + 1,
      y: Math.ceil(pgsBox.y * scale) + 1,
      width: Math.floor(pgsBox.width * scale) - 2,
      height: Math.floor(pgsBox.height * scale) - 2,
    };
    expect(box.y + box.height).toBeLessThanOrEqual(136);
    const at = Math.round(4.5 * FPS);
    expect(difference(withSubtitle.frames[at]!, plain.frames[at]!, 320, box)).toBeGreaterThan(40);
  });
});

describe('a transcode started mid-file with its sound copied', () => {
  it('starts the sound with the picture, not at the keyframe before (the player places a segment by its first sample)', async () => {
    const input = path.join(dir, 'with-sound.mkv');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=320x180:rate=${FPS}:duration=8`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=48000:duration=8'],
      ...['-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(FPS * 3), '-sc_threshold', '0'],
      ...['-c:a', 'aac', input],
    ]);
    const info: MediaInfo = {
      ...infoOf(320, 180, 'hdmv_pgs_subtitle'),
      subtitles: [],
      audio: [
        {
          index: 1,
          codec: 'aac',
          profile: null,
          channels: 1,
          channelLayout: 'mono',
          sampleRate: 48000,
          language: 'und',
          title: null,
          isDefault: true,
          bitRate: null,
        },
      ],
    };
    const out = path.join(dir, 'with-sound');
    await mkdir(out, { recursive: true });
    // From 4 s: the seek lands on the keyframe at 3 s.
    const plan: HlsPlan = { video: 360, audio: { index: 1, mode: 'copy' }, burn: null };
    await run(
      'ffmpeg',
      conversionArgs({ input, info, plan, startAt: 4, firstChunk: 1, dir: out, run: 'r', hardware: 'none' }),
    );
    const first = path.join(dir, 'with-sound-first.mp4');
    await writeFile(
      first,
      Buffer.concat([await readFile(path.join(out, 'init-r.mp4')), await readFile(path.join(out, '1.m4s'))]),
    );
    const { stdout } = await run('ffprobe', [
      ...['-v', 'error', '-show_entries', 'stream=codec_type,start_time', '-of', 'json', first],
    ]);
    const starts = Object.fromEntries(
      (JSON.parse(stdout) as { streams: { codec_type: string; start_time: string }[] }).streams.map((s) => [
        s.codec_type,
        Number(s.start_time),
      ]),
    );
    expect(starts.video).toBeCloseTo(4, 1);
    expect(starts.audio).toBeGreaterThan(starts.video! - 0.1);
  });
});

describe('an HDR10 picture transcoded for an SDR screen', () => {
  it('is tone-mapped (the same conversion without it gives another picture), and an SDR one is not', async () => {
    const input = path.join(dir, 'hdr10.mkv');
    await run('ffmpeg', [
      ...['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=640x360:rate=${FPS}:duration=2`],
      ...['-vf', 'format=yuv420p10le', '-c:v', 'libx265', '-preset', 'ultrafast'],
      ...['-x265-params', 'log-level=error:colorprim=bt2020:transfer=smpte2084:colormatrix=bt2020nc'],
      ...['-color_primaries', 'bt2020', '-color_trc', 'smpte2084', '-colorspace', 'bt2020nc', input],
    ]);
    const hdr = infoOf(640, 360, 'none');
    hdr.subtitles = [];
    hdr.video = {
      ...hdr.video!,
      codec: 'hevc',
      bitDepth: 10,
      pixelFormat: 'yuv420p10le',
      dynamicRange: 'hdr10',
    };
    const plan: HlsPlan = { video: 360, audio: null, burn: null };
    expect(
      conversionArgs({
        input,
        info: hdr,
        plan,
        startAt: 0,
        firstChunk: 0,
        dir,
        run: 'x',
        hardware: 'none',
      }).join(' '),
    ).toContain('tonemap=tonemap=hable');
    const sdr = { ...hdr, video: { ...hdr.video, dynamicRange: 'sdr' as const } };
    expect(
      conversionArgs({
        input,
        info: sdr,
        plan,
        startAt: 0,
        firstChunk: 0,
        dir,
        run: 'x',
        hardware: 'none',
      }).join(' '),
    ).not.toContain('tonemap');
    const mapped = await convert(input, hdr, plan, 0, 'hdr-mapped');
    const plain = await convert(input, sdr, plan, 0, 'hdr-plain');
    expect(mapped.frames.length).toBeGreaterThan(10);
    const whole = { x: 0, y: 0, width: 640, height: 360 };
    expect(difference(mapped.frames[5]!, plain.frames[5]!, 640, whole)).toBeGreaterThan(5);
  });
});
