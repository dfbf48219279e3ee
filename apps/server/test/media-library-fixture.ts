/**
 * A small media library of our own for issue 24 (the operator's own media plays in every browser): ten
 * short files in the containers and codecs people keep (MP4, WebM, MKV, AVI, MPEG-TS; H.264, HEVC 8 and
 * 10 bit, VP9, MPEG-4 Part 2, MPEG-2; AAC, Opus, AC3 5.1, E-AC3, MP3; SRT, ASS, PGS and a sidecar SRT),
 * named the Jellyfin way after real titles of the embedded catalog (apps/server/assets/catalog).
 *
 * Made with ffmpeg (spawned without a shell) from a moving test pattern (testsrc2) and sine tones: no
 * third-party media, no network. 320×180, a few hundred kB a file, generated in a few seconds. The server's
 * API tests and the Playwright suite call `makeTestMediaLibrary(dir)`; operators run
 * `node --import tsx scripts/make-test-library.ts <dir>`.
 *
 * The result is cached: a manifest in `dir` records the generator version, the options and every file's
 * size, and a later call with the same version and options returns it without running ffmpeg. Files are
 * written under temporary names and renamed into place, so a reader never sees half a file.
 *
 * ffmpeg has no PGS (Blu-ray) subtitle encoder, so `writePgsSup` writes the .sup stream itself.
 *
 * FFMPEG_PATH / FFPROBE_PATH name the binaries (default: `ffmpeg` / `ffprobe` on the PATH).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';

/** Bump when the files or the manifest change: a library made by another version is made again. */
export const GENERATOR_VERSION = 1;
/** The manifest in the library folder (a dot file, and neither video nor subtitle: scanners skip it). */
export const MANIFEST_NAME = '.marquee-test-library.json';
export const DEFAULT_DURATION_SECONDS = 12;
export const VIDEO_WIDTH = 320;
export const VIDEO_HEIGHT = 180;
export const FRAME_RATE = 24;

/** The ffmpeg to run: FFMPEG_PATH (read at each call), else `ffmpeg` on the PATH. */
export function ffmpegBinary(): string {
  return process.env.FFMPEG_PATH || 'ffmpeg';
}
/** The ffprobe to run: FFPROBE_PATH, else `ffprobe` on the PATH. */
export function ffprobeBinary(): string {
  return process.env.FFPROBE_PATH || 'ffprobe';
}

/** A subtitle cue: seconds from the start of the file. */
export interface TestCue {
  start: number;
  end: number;
  text: string;
}

/** One subtitle the title offers, in the file or beside it. */
export interface TestSubtitle {
  /** ISO 639-2 as tagged in the file (`eng`, `fre`); for a sidecar, the code in its name (`fr`). */
  language: string;
  /** ffprobe's codec_name (`subrip`, `ass`, `hdmv_pgs_subtitle`); a sidecar SRT says `subrip`. */
  codec: string;
  /** In the container (a subtitle stream), or a file beside it. */
  embedded: boolean;
  /** The sidecar's absolute path; null for an embedded track. */
  path: string | null;
  isDefault: boolean;
  /** For PGS the cues are pictures of their text (blocky capitals), see `pgs`. */
  cues: TestCue[];
}

export interface TestLibraryEntry {
  /** `h264-aac-mp4`, `vp9-opus-webm`, … (see LIBRARY_KEYS). */
  key: string;
  /** The real TMDB id, as in the folder name's `[tmdbid-N]`. */
  tmdbId: string;
  title: string;
  year: number;
  type: 'movie' | 'show';
  season?: number;
  episode?: number;
  /** Absolute path of the video file. */
  path: string;
  /** Every subtitle, embedded ones first (in stream order), then sidecars. */
  subtitles: TestSubtitle[];
  /** Where the PGS cues are drawn (only for the PGS file). */
  pgs?: PgsLayout;
  expects: {
    /** ffprobe's format_name (`mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `avi`, `mpegts`). */
    formatName: string;
    /** ffprobe's codec_name of the video stream. */
    videoCodec: string;
    /** ffprobe's pix_fmt (`yuv420p`, `yuv420p10le`). */
    pixelFormat: string;
    width: number;
    height: number;
    durationSeconds: number;
    /** ffprobe's codec_name of each audio stream, in stream order. */
    audioCodecs: string[];
    /** ISO 639-2 tag of each audio stream, in stream order (`und` where the container has none: AVI). */
    audioLanguages: string[];
    audioChannels: number[];
    /** The sine tone of each audio stream, in Hz. */
    audioFrequencies: number[];
    /** The language of the audio stream marked default; null where the container has no such flag (AVI, TS). */
    defaultAudioLanguage: string | null;
    /** ISO 639-2 tag of each embedded subtitle stream, in stream order. */
    subtitleLanguages: string[];
    /** ffprobe's codec_name of each embedded subtitle stream. */
    subtitleCodecs: string[];
    /** The embedded subtitle stream marked default, or null when none is. */
    defaultSubtitleLanguage: string | null;
    /** Language codes of the sidecar subtitle files (`fr` for `….fr.srt`). */
    sidecarLanguages: string[];
    /** The text of every cue the title can show (embedded and sidecar; for PGS, the text drawn). */
    subtitleCues: string[];
  };
}

export interface TestLibrary {
  dir: string;
  entries: TestLibraryEntry[];
}

export const LIBRARY_KEYS = [
  'h264-aac-mp4',
  'vp9-opus-webm',
  'h264-ac3-srt-mkv',
  'hevc10-eac3-ass-mkv',
  'hevc-aac-mp4',
  'h264-two-audio-mkv',
  'mpeg4-mp3-avi',
  'mpeg2-ac3-ts',
  'h264-pgs-mkv',
  'episode-h264-aac-mkv',
] as const;
export type LibraryKey = (typeof LIBRARY_KEYS)[number];

/** The catalog titles the files are named after (ids, titles and years as in apps/server/assets/catalog). */
export const LIBRARY_TITLES: Readonly<
  Record<LibraryKey, { tmdbId: string; title: string; year: number; type: 'movie' | 'show' }>
> = {
  'h264-aac-mp4': { tmdbId: '603', title: 'The Matrix', year: 1999, type: 'movie' },
  'vp9-opus-webm': { tmdbId: '27205', title: 'Inception', year: 2010, type: 'movie' },
  'h264-ac3-srt-mkv': { tmdbId: '157336', title: 'Interstellar', year: 2014, type: 'movie' },
  'hevc10-eac3-ass-mkv': { tmdbId: '78', title: 'Blade Runner', year: 1982, type: 'movie' },
  'hevc-aac-mp4': { tmdbId: '329', title: 'Jurassic Park', year: 1993, type: 'movie' },
  'h264-two-audio-mkv': { tmdbId: '155', title: 'The Dark Knight', year: 2008, type: 'movie' },
  'mpeg4-mp3-avi': { tmdbId: '105', title: 'Back to the Future', year: 1985, type: 'movie' },
  'mpeg2-ac3-ts': { tmdbId: '348', title: 'Alien', year: 1979, type: 'movie' },
  'h264-pgs-mkv': { tmdbId: '862', title: 'Toy Story', year: 1995, type: 'movie' },
  'episode-h264-aac-mkv': { tmdbId: '1396', title: 'Breaking Bad', year: 2008, type: 'show' },
};

// ---------------------------------------------------------------------------------------------------
// PGS (.sup): Blu-ray presentation graphics, written by hand.
// ---------------------------------------------------------------------------------------------------

export interface PgsBox {
  /** Seconds. */
  start: number;
  end: number;
  text: string;
  /** The object's place on the video (pixels). */
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface PgsLayout {
  /** The canvas (the PCS video size). */
  width: number;
  height: number;
  /** The opaque box behind the text, as written (BT.601 limited-range Y, Cb, Cr) and as meant (sRGB). */
  boxColor: { rgb: [number, number, number]; ycbcr: [number, number, number] };
  textColor: { rgb: [number, number, number]; ycbcr: [number, number, number] };
  /** Pixels of box colour inside the box: this far in from its edges there is never text. */
  margin: number;
  cues: PgsBox[];
}

const PGS_SEGMENT = { PDS: 0x14, ODS: 0x15, PCS: 0x16, WDS: 0x17, END: 0x80 } as const;
const PGS_BOX_RGB: [number, number, number] = [24, 48, 200];
const PGS_TEXT_RGB: [number, number, number] = [255, 255, 255];
const PGS_SCALE = 3;
const PGS_MARGIN = 8;

/** 5×7 capitals and digits, enough for cue texts like "PGS CUE 1" (rows top to bottom, bit 4 = left). */
const FONT_5X7: Readonly<Record<string, readonly number[]>> = {
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '0': [0x0e, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0e],
  '1': [0x04, 0x0c, 0x04, 0x04, 0x04, 0x04, 0x0e],
  '2': [0x0e, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1f],
  '3': [0x1f, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0e],
  '4': [0x02, 0x06, 0x0a, 0x12, 0x1f, 0x02, 0x02],
  '5': [0x1f, 0x10, 0x1e, 0x01, 0x01, 0x11, 0x0e],
  A: [0x0e, 0x11, 0x11, 0x1f, 0x11, 0x11, 0x11],
  B: [0x1e, 0x11, 0x11, 0x1e, 0x11, 0x11, 0x1e],
  C: [0x0e, 0x11, 0x10, 0x10, 0x10, 0x11, 0x0e],
  E: [0x1f, 0x10, 0x10, 0x1e, 0x10, 0x10, 0x1f],
  G: [0x0e, 0x11, 0x10, 0x17, 0x11, 0x11, 0x0f],
  I: [0x0e, 0x04, 0x04, 0x04, 0x04, 0x04, 0x0e],
  L: [0x10, 0x10, 0x10, 0x10, 0x10, 0x10, 0x1f],
  O: [0x0e, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  P: [0x1e, 0x11, 0x11, 0x1e, 0x10, 0x10, 0x10],
  R: [0x1e, 0x11, 0x11, 0x1e, 0x14, 0x12, 0x11],
  S: [0x0f, 0x10, 0x10, 0x0e, 0x01, 0x01, 0x1e],
  T: [0x1f, 0x04, 0x04, 0x04, 0x04, 0x04, 0x04],
  U: [0x11, 0x11, 0x11, 0x11, 0x11, 0x11, 0x0e],
  Y: [0x11, 0x11, 0x0a, 0x04, 0x04, 0x04, 0x04],
};

/** sRGB → BT.601 limited-range Y, Cb, Cr (what PGS palettes hold for SD/small canvases). */
export function rgbToYcbcr601([r, g, b]: [number, number, number]): [number, number, number] {
  const y = 16 + (65.481 * r + 128.553 * g + 24.966 * b) / 255;
  const cb = 128 + (-37.797 * r - 74.203 * g + 112 * b) / 255;
  const cr = 128 + (112 * r - 93.786 * g - 18.214 * b) / 255;
  return [Math.round(y), Math.round(cb), Math.round(cr)];
}

/** The cue's picture: palette indices (0 transparent, 1 box, 2 text), row by row. */
function drawCue(text: string): { width: number; height: number; pixels: Uint8Array } {
  const glyphs = [...text.toUpperCase()].map((ch) => {
    const glyph = FONT_5X7[ch];
    if (!glyph) throw new Error(`writePgsSup: no glyph for ${JSON.stringify(ch)} in ${JSON.stringify(text)}`);
    return glyph;
  });
  const textWidth = (glyphs.length * 6 - 1) * PGS_SCALE;
  const width = textWidth + 2 * PGS_MARGIN;
  const height = 7 * PGS_SCALE + 2 * PGS_MARGIN;
  const pixels = new Uint8Array(width * height).fill(1);
  glyphs.forEach((glyph, g) => {
    for (let row = 0; row < 7; row++) {
      for (let col = 0; col < 5; col++) {
        if (!((glyph[row]! >> (4 - col)) & 1)) continue;
        for (let dy = 0; dy < PGS_SCALE; dy++) {
          for (let dx = 0; dx < PGS_SCALE; dx++) {
            const x = PGS_MARGIN + (g * 6 + col) * PGS_SCALE + dx;
            const y = PGS_MARGIN + row * PGS_SCALE + dy;
            pixels[y * width + x] = 2;
          }
        }
      }
    }
  });
  return { width, height, pixels };
}

/** PGS run-length coding of a picture of palette indices, each line ended by 00 00. */
export function encodePgsRle(pixels: Uint8Array, width: number, height: number): Buffer {
  const out: number[] = [];
  for (let y = 0; y < height; y++) {
    let x = 0;
    while (x < width) {
      const color = pixels[y * width + x]!;
      let run = 1;
      while (x + run < width && run < 16383 && pixels[y * width + x + run] === color) run++;
      if (color === 0) {
        if (run < 64) out.push(0x00, run);
        else out.push(0x00, 0x40 | (run >> 8), run & 0xff);
      } else if (run < 3) {
        for (let i = 0; i < run; i++) out.push(color);
      } else if (run < 64) {
        out.push(0x00, 0x80 | run, color);
      } else {
        out.push(0x00, 0xc0 | (run >> 8), run & 0xff, color);
      }
      x += run;
    }
    out.push(0x00, 0x00);
  }
  return Buffer.from(out);
}

function pgsSegment(pts: number, type: number, payload: Buffer): Buffer {
  if (payload.length > 0xffff) throw new Error(`PGS segment 0x${type.toString(16)} too long`);
  const header = Buffer.alloc(13);
  header.write('PG', 0, 'latin1');
  header.writeUInt32BE(pts >>> 0, 2);
  // DTS 0: "not given", as most .sup writers do; ffmpeg and players time display sets by the PTS.
  header.writeUInt32BE(0, 6);
  header.writeUInt8(type, 10);
  header.writeUInt16BE(payload.length, 11);
  return Buffer.concat([header, payload]);
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16BE(n);
  return b;
}

/**
 * Writes a PGS subtitle stream (.sup) showing each cue as blocky white capitals on an opaque blue box,
 * centred near the bottom of a `width`×`height` canvas: per cue an epoch-start display set (PCS, WDS,
 * PDS, ODS, END) at its start and a clearing one (PCS without objects, WDS, END) at its end. Cues must
 * not overlap. Returns where each cue is drawn and in which colours.
 */
export async function writePgsSup(
  file: string,
  cues: readonly TestCue[],
  o: { width?: number; height?: number } = {},
): Promise<PgsLayout> {
  const width = o.width ?? VIDEO_WIDTH;
  const height = o.height ?? VIDEO_HEIGHT;
  const boxYcc = rgbToYcbcr601(PGS_BOX_RGB);
  const textYcc = rgbToYcbcr601(PGS_TEXT_RGB);
  // Palette entries: id, Y, Cr, Cb, alpha.
  const palette = Buffer.from([
    0x00, // palette id
    0x00, // palette version
    ...[0, 16, 128, 128, 0], // transparent
    ...[1, boxYcc[0], boxYcc[2], boxYcc[1], 255],
    ...[2, textYcc[0], textYcc[2], textYcc[1], 255],
  ]);
  const ticks = (seconds: number) => Math.round(seconds * 90_000);
  const segments: Buffer[] = [];
  const boxes: PgsBox[] = [];
  let composition = 0;
  let previousEnd = -Infinity;
  for (const cue of cues) {
    if (!(cue.start >= 0 && cue.end > cue.start && cue.start >= previousEnd)) {
      throw new Error(`writePgsSup: cue ${JSON.stringify(cue)} overlaps or runs backwards`);
    }
    previousEnd = cue.end;
    const picture = drawCue(cue.text);
    if (picture.width > width || picture.height > height) {
      throw new Error(`writePgsSup: ${JSON.stringify(cue.text)} does not fit ${width}×${height}`);
    }
    // Even coordinates keep the box aligned with 4:2:0 chroma.
    const x = Math.floor((width - picture.width) / 4) * 2;
    const y = Math.max(0, Math.floor((height - picture.height - Math.round(height / 16)) / 2) * 2);
    boxes.push({ ...cue, x, y, width: picture.width, height: picture.height });
    const window = Buffer.concat([u16(x), u16(y), u16(picture.width), u16(picture.height)]);
    const wds = Buffer.concat([Buffer.from([1, 0]), window]);

    const start = ticks(cue.start);
    segments.push(
      pgsSegment(
        start,
        PGS_SEGMENT.PCS,
        Buffer.concat([
          u16(width),
          u16(height),
          Buffer.from([0x10]), // frame rate (ignored by decoders)
          u16(composition++),
          Buffer.from([0x80, 0x00, 0x00, 1]), // epoch start, no palette-only update, palette 0, one object
          u16(0), // object id
          Buffer.from([0, 0x00]), // window id, not cropped
          u16(x),
          u16(y),
        ]),
      ),
      pgsSegment(start, PGS_SEGMENT.WDS, wds),
      pgsSegment(start, PGS_SEGMENT.PDS, palette),
    );
    const rle = encodePgsRle(picture.pixels, picture.width, picture.height);
    const objectLength = rle.length + 4; // counts the width and height fields
    segments.push(
      pgsSegment(
        start,
        PGS_SEGMENT.ODS,
        Buffer.concat([
          u16(0), // object id
          Buffer.from([0, 0xc0]), // version, first and last in sequence
          Buffer.from([(objectLength >> 16) & 0xff, (objectLength >> 8) & 0xff, objectLength & 0xff]),
          u16(picture.width),
          u16(picture.height),
          rle,
        ]),
      ),
      pgsSegment(start, PGS_SEGMENT.END, Buffer.alloc(0)),
    );

    // The clearing display set: a composition without objects in the same window.
    const end = ticks(cue.end);
    segments.push(
      pgsSegment(
        end,
        PGS_SEGMENT.PCS,
        Buffer.concat([
          u16(width),
          u16(height),
          Buffer.from([0x10]),
          u16(composition++),
          Buffer.from([0x00, 0x00, 0x00, 0]), // normal case, palette 0, no objects
        ]),
      ),
      pgsSegment(end, PGS_SEGMENT.WDS, wds),
      pgsSegment(end, PGS_SEGMENT.END, Buffer.alloc(0)),
    );
  }
  await writeFile(file, Buffer.concat(segments));
  return {
    width,
    height,
    boxColor: { rgb: PGS_BOX_RGB, ycbcr: boxYcc },
    textColor: { rgb: PGS_TEXT_RGB, ycbcr: textYcc },
    margin: PGS_MARGIN,
    cues: boxes,
  };
}

// ---------------------------------------------------------------------------------------------------
// Text subtitles
// ---------------------------------------------------------------------------------------------------

function timestamp(seconds: number, separator: string, hourDigits = 2, fractionDigits = 3): string {
  const ms = Math.round(seconds * 1000);
  const h = String(Math.floor(ms / 3_600_000)).padStart(hourDigits, '0');
  const m = String(Math.floor(ms / 60_000) % 60).padStart(2, '0');
  const s = String(Math.floor(ms / 1000) % 60).padStart(2, '0');
  const fraction = String(ms % 1000)
    .padStart(3, '0')
    .slice(0, fractionDigits);
  return `${h}:${m}:${s}${separator}${fraction}`;
}

function srt(cues: readonly TestCue[]): string {
  return cues
    .map((c, i) => `${i + 1}\n${timestamp(c.start, ',')} --> ${timestamp(c.end, ',')}\n${c.text}\n`)
    .join('\n');
}

/** An ASS script with its own style (yellow, bold, outlined, bottom centre); the second cue is italic. */
function ass(cues: readonly TestCue[]): string {
  const event = (c: TestCue, i: number) =>
    `Dialogue: 0,${timestamp(c.start, '.', 1, 2)},${timestamp(c.end, '.', 1, 2)},Marquee,,0,0,0,,` +
    `${i % 2 ? '{\\i1}' : ''}${c.text}`;
  return [
    '[Script Info]',
    'Title: Marquee test library',
    'ScriptType: v4.00+',
    `PlayResX: ${VIDEO_WIDTH}`,
    `PlayResY: ${VIDEO_HEIGHT}`,
    'WrapStyle: 0',
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    'Style: Marquee,DejaVu Sans,16,&H0000FFFF,&H000000FF,&H00000000,&H80000000,-1,0,0,0,100,100,0,0,1,1.5,0.5,2,10,10,10,1',
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
    ...cues.map(event),
    '',
  ].join('\n');
}

/**
 * The cues spread over the file, each in its own slot with a gap before the next, on whole hundredths
 * of a second (what ASS can say; SRT's milliseconds and PGS's 90 kHz ticks say them exactly too).
 */
function spreadCues(duration: number, texts: readonly string[]): TestCue[] {
  const slot = duration / texts.length;
  const round = (s: number) => Math.round(s * 100) / 100;
  return texts.map((text, i) => ({
    start: round(i * slot + 0.15 * slot),
    end: round(i * slot + 0.75 * slot),
    text,
  }));
}

// ---------------------------------------------------------------------------------------------------
// ffmpeg
// ---------------------------------------------------------------------------------------------------

/** Runs a binary without a shell; resolves with stdout, rejects with the end of stderr. */
export function run(command: string, args: readonly string[]): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => {
      err = (err + chunk.toString()).slice(-4000);
    });
    child.on('error', (e: NodeJS.ErrnoException) =>
      reject(
        e.code === 'ENOENT'
          ? new Error(
              `${command} not found: install ffmpeg (Debian: apt-get install ffmpeg), or set FFMPEG_PATH and FFPROBE_PATH`,
            )
          : e,
      ),
    );
    child.on('close', (code, signal) => {
      if (code === 0) resolve(Buffer.concat(out));
      else reject(new Error(`${command} ${args.join(' ')} failed (${signal ?? code}):\n${err.trim()}`));
    });
  });
}

interface Job {
  key: LibraryKey;
  /** Relative to the library folder. */
  file: string;
  /** ffmpeg's muxer (the output is written under a temporary name, so it is not guessed). */
  format: string;
  args: string[];
  /** Sidecar files to write beside the video (path relative to the library folder). */
  sidecars: { file: string; content: string; language: string; cues: TestCue[] }[];
  /** What the entry says besides its title and paths (embedded subtitles only: sidecars are added). */
  entry: Pick<TestLibraryEntry, 'season' | 'episode' | 'pgs' | 'subtitles' | 'expects'>;
}

function folderName(key: LibraryKey): string {
  const t = LIBRARY_TITLES[key];
  return `${t.title} (${t.year}) [tmdbid-${t.tmdbId}]`;
}

/** Builds the ten jobs; subtitle inputs are written to `work` first. */
async function planJobs(work: string, d: number): Promise<Job[]> {
  const gop = String(FRAME_RATE * 2);
  const size = `${VIDEO_WIDTH}x${VIDEO_HEIGHT}`;
  const picture = ['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${FRAME_RATE}:duration=${d}`];
  const tone = (hz: number) => ['-f', 'lavfi', '-i', `sine=frequency=${hz}:sample_rate=48000:duration=${d}`];
  const h264 = (bitrate = '120k') => [
    ...['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p'],
    ...['-b:v', bitrate, '-maxrate', bitrate, '-bufsize', bitrate, '-g', gop, '-keyint_min', gop],
    ...['-sc_threshold', '0'],
  ];
  const hevc = (pixFmt: string) => [
    ...['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', pixFmt, '-b:v', '100k'],
    ...['-x265-params', `log-level=error:keyint=${gop}:min-keyint=${gop}:scenecut=0`],
  ];
  const stereo = ['-ac', '2'];
  const lang = (spec: string, language: string, title?: string) => [
    `-metadata:s:${spec}`,
    `language=${language}`,
    ...(title ? [`-metadata:s:${spec}`, `title=${title}`] : []),
  ];
  // Deterministic output: no encoder or date strings, no metadata of the inputs.
  const tail = [
    '-map_metadata',
    '-1',
    '-fflags',
    '+bitexact',
    '-flags:v',
    '+bitexact',
    '-flags:a',
    '+bitexact',
  ];
  const expects = (e: Partial<Job['entry']['expects']> & Pick<Job['entry']['expects'], 'formatName'>) => ({
    videoCodec: 'h264',
    pixelFormat: 'yuv420p',
    width: VIDEO_WIDTH,
    height: VIDEO_HEIGHT,
    durationSeconds: d,
    audioCodecs: [],
    audioLanguages: ['eng'],
    audioChannels: [2],
    audioFrequencies: [440],
    defaultAudioLanguage: 'eng',
    subtitleLanguages: [],
    subtitleCodecs: [],
    defaultSubtitleLanguage: null,
    sidecarLanguages: [],
    subtitleCues: [],
    ...e,
  });
  const movieFile = (key: LibraryKey, ext: string) => `${folderName(key)}/${folderName(key)}.${ext}`;

  const srtCues = spreadCues(d, ['Library SRT cue one', 'Library SRT cue two']);
  const assCues = spreadCues(d, ['Bibliothèque ASS réplique un', 'Bibliothèque ASS réplique deux']);
  const sidecarCues = spreadCues(d, ['Bibliothèque SRT externe un', 'Bibliothèque SRT externe deux']);
  const pgsCues = spreadCues(d, ['PGS CUE 1', 'PGS CUE 2', 'PGS CUE 3']);
  const srtFile = path.join(work, 'eng.srt');
  const assFile = path.join(work, 'fre.ass');
  const supFile = path.join(work, 'eng.sup');
  await writeFile(srtFile, srt(srtCues));
  await writeFile(assFile, ass(assCues));
  const pgs = await writePgsSup(supFile, pgsCues);
  const texts = (cues: TestCue[]) => cues.map((c) => c.text);
  const twoAudio = movieFile('h264-two-audio-mkv', 'mkv');

  return [
    {
      key: 'h264-aac-mp4',
      file: movieFile('h264-aac-mp4', 'mp4'),
      format: 'mp4',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...h264(),
        ...['-c:a', 'aac', '-b:a', '48k', ...stereo],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...['-disposition:a:0', 'default', '-movflags', '+faststart'],
      ],
      sidecars: [],
      entry: {
        subtitles: [],
        expects: expects({ formatName: 'mov,mp4,m4a,3gp,3g2,mj2', audioCodecs: ['aac'] }),
      },
    },
    {
      key: 'vp9-opus-webm',
      file: movieFile('vp9-opus-webm', 'webm'),
      format: 'webm',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...[
          '-c:v',
          'libvpx-vp9',
          '-deadline',
          'realtime',
          '-cpu-used',
          '8',
          '-row-mt',
          '1',
          '-pix_fmt',
          'yuv420p',
        ],
        ...['-b:v', '120k', '-g', gop],
        ...['-c:a', 'libopus', '-b:a', '32k', ...stereo],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...['-disposition:a:0', 'default'],
      ],
      sidecars: [],
      entry: {
        subtitles: [],
        expects: expects({ formatName: 'matroska,webm', videoCodec: 'vp9', audioCodecs: ['opus'] }),
      },
    },
    {
      key: 'h264-ac3-srt-mkv',
      file: movieFile('h264-ac3-srt-mkv', 'mkv'),
      format: 'matroska',
      args: [
        ...picture,
        ...tone(440),
        ...['-i', srtFile],
        ...['-map', '0:v', '-map', '1:a', '-map', '2:s'],
        ...h264(),
        // The tone on every channel but the LFE.
        ...['-af', 'pan=5.1|c0=c0|c1=c0|c2=c0|c4=c0|c5=c0', '-c:a', 'ac3', '-b:a', '192k'],
        ...['-c:s', 'srt'],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng', 'English 5.1'),
        ...lang('s:0', 'eng', 'English'),
        ...['-disposition:a:0', 'default', '-disposition:s:0', 'default'],
      ],
      sidecars: [],
      entry: {
        subtitles: [
          { language: 'eng', codec: 'subrip', embedded: true, path: null, isDefault: true, cues: srtCues },
        ],
        expects: expects({
          formatName: 'matroska,webm',
          audioCodecs: ['ac3'],
          audioChannels: [6],
          subtitleLanguages: ['eng'],
          subtitleCodecs: ['subrip'],
          defaultSubtitleLanguage: 'eng',
          subtitleCues: texts(srtCues),
        }),
      },
    },
    {
      key: 'hevc10-eac3-ass-mkv',
      file: movieFile('hevc10-eac3-ass-mkv', 'mkv'),
      format: 'matroska',
      args: [
        ...picture,
        ...tone(440),
        ...['-i', assFile],
        ...['-map', '0:v', '-map', '1:a', '-map', '2:s'],
        ...hevc('yuv420p10le'),
        ...['-c:a', 'eac3', '-b:a', '96k', ...stereo],
        ...['-c:s', 'copy'],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...lang('s:0', 'fre', 'Français'),
        ...['-disposition:a:0', 'default', '-disposition:s:0', '0'],
      ],
      sidecars: [],
      entry: {
        subtitles: [
          { language: 'fre', codec: 'ass', embedded: true, path: null, isDefault: false, cues: assCues },
        ],
        expects: expects({
          formatName: 'matroska,webm',
          videoCodec: 'hevc',
          pixelFormat: 'yuv420p10le',
          audioCodecs: ['eac3'],
          subtitleLanguages: ['fre'],
          subtitleCodecs: ['ass'],
          subtitleCues: texts(assCues),
        }),
      },
    },
    {
      key: 'hevc-aac-mp4',
      file: movieFile('hevc-aac-mp4', 'mp4'),
      format: 'mp4',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...hevc('yuv420p'),
        ...['-tag:v', 'hvc1'],
        ...['-c:a', 'aac', '-b:a', '48k', ...stereo],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...['-disposition:a:0', 'default', '-movflags', '+faststart'],
      ],
      sidecars: [],
      entry: {
        subtitles: [],
        expects: expects({ formatName: 'mov,mp4,m4a,3gp,3g2,mj2', videoCodec: 'hevc', audioCodecs: ['aac'] }),
      },
    },
    {
      key: 'h264-two-audio-mkv',
      file: twoAudio,
      format: 'matroska',
      args: [
        ...picture,
        ...tone(440),
        ...tone(880),
        ...['-map', '0:v', '-map', '1:a', '-map', '2:a'],
        ...h264(),
        ...['-c:a', 'aac', '-b:a', '48k', ...stereo],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng', 'English'),
        ...lang('a:1', 'fre', 'Français'),
        ...['-disposition:a:0', 'default', '-disposition:a:1', '0'],
      ],
      sidecars: [
        {
          file: twoAudio.replace(/\.mkv$/, '.fr.srt'),
          content: srt(sidecarCues),
          language: 'fr',
          cues: sidecarCues,
        },
      ],
      entry: {
        subtitles: [],
        expects: expects({
          formatName: 'matroska,webm',
          audioCodecs: ['aac', 'aac'],
          audioLanguages: ['eng', 'fre'],
          audioChannels: [2, 2],
          audioFrequencies: [440, 880],
          sidecarLanguages: ['fr'],
          subtitleCues: texts(sidecarCues),
        }),
      },
    },
    {
      key: 'mpeg4-mp3-avi',
      file: movieFile('mpeg4-mp3-avi', 'avi'),
      format: 'avi',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...['-c:v', 'mpeg4', '-tag:v', 'XVID', '-pix_fmt', 'yuv420p', '-b:v', '150k', '-g', gop],
        ...['-c:a', 'libmp3lame', '-b:a', '64k', ...stereo],
        // AVI has no language field and no default flag: stream titles (strn) are all it says.
        ...['-metadata:s:v:0', 'title=Video', '-metadata:s:a:0', 'title=English'],
      ],
      sidecars: [],
      entry: {
        subtitles: [],
        expects: expects({
          formatName: 'avi',
          videoCodec: 'mpeg4',
          audioCodecs: ['mp3'],
          audioLanguages: ['und'],
          defaultAudioLanguage: null,
        }),
      },
    },
    {
      key: 'mpeg2-ac3-ts',
      file: movieFile('mpeg2-ac3-ts', 'ts'),
      format: 'mpegts',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...[
          '-c:v',
          'mpeg2video',
          '-pix_fmt',
          'yuv420p',
          '-b:v',
          '200k',
          '-maxrate',
          '400k',
          '-bufsize',
          '400k',
        ],
        ...['-g', '12'],
        ...['-c:a', 'ac3', '-b:a', '96k', ...stereo],
        // MPEG-TS tags the audio's language (an ISO 639 descriptor), not the video's; no default flags.
        ...lang('a:0', 'eng'),
        ...['-metadata', 'service_name=Marquee TV', '-metadata', 'service_provider=Marquee'],
      ],
      sidecars: [],
      entry: {
        subtitles: [],
        expects: expects({
          formatName: 'mpegts',
          videoCodec: 'mpeg2video',
          audioCodecs: ['ac3'],
          defaultAudioLanguage: null,
        }),
      },
    },
    {
      key: 'h264-pgs-mkv',
      file: movieFile('h264-pgs-mkv', 'mkv'),
      format: 'matroska',
      args: [
        ...picture,
        ...tone(440),
        // ffmpeg starts every input at zero (its first timestamp, here the first cue's); put it back.
        ...['-itsoffset', String(pgsCues[0]!.start), '-f', 'sup', '-i', supFile],
        ...['-map', '0:v', '-map', '1:a', '-map', '2:s'],
        ...h264(),
        ...['-c:a', 'aac', '-b:a', '48k', ...stereo],
        ...['-c:s', 'copy'],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...lang('s:0', 'eng', 'English (PGS)'),
        ...['-disposition:a:0', 'default', '-disposition:s:0', '0'],
      ],
      sidecars: [],
      entry: {
        subtitles: [
          {
            language: 'eng',
            codec: 'hdmv_pgs_subtitle',
            embedded: true,
            path: null,
            isDefault: false,
            cues: pgsCues,
          },
        ],
        pgs,
        expects: expects({
          formatName: 'matroska,webm',
          audioCodecs: ['aac'],
          subtitleLanguages: ['eng'],
          subtitleCodecs: ['hdmv_pgs_subtitle'],
          subtitleCues: texts(pgsCues),
        }),
      },
    },
    {
      key: 'episode-h264-aac-mkv',
      file: `${folderName('episode-h264-aac-mkv')}/Season 01/${LIBRARY_TITLES['episode-h264-aac-mkv'].title} S01E01.mkv`,
      format: 'matroska',
      args: [
        ...picture,
        ...tone(440),
        ...['-map', '0:v', '-map', '1:a'],
        ...h264(),
        ...['-c:a', 'aac', '-b:a', '48k', ...stereo],
        ...lang('v:0', 'eng'),
        ...['-disposition:v:0', 'default'],
        ...lang('a:0', 'eng'),
        ...['-disposition:a:0', 'default'],
      ],
      sidecars: [],
      entry: {
        season: 1,
        episode: 1,
        subtitles: [],
        expects: expects({ formatName: 'matroska,webm', audioCodecs: ['aac'] }),
      },
    },
  ].map((job): Job => ({ ...job, key: job.key as LibraryKey, args: [...job.args, ...tail] }));
}

/** Runs the tasks `concurrency` at a time; after a failure starts no more, waits for the rest, then throws. */
async function runAll<T>(tasks: (() => Promise<T>)[], concurrency: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  const errors: unknown[] = [];
  let next = 0;
  const worker = async () => {
    while (next < tasks.length && errors.length === 0) {
      const i = next++;
      try {
        results[i] = await tasks[i]!();
      } catch (e) {
        errors.push(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
  if (errors.length > 0) throw errors[0];
  return results;
}

// ---------------------------------------------------------------------------------------------------
// The manifest
// ---------------------------------------------------------------------------------------------------

interface Manifest {
  generator: 'marquee-test-library';
  version: number;
  durationSeconds: number;
  /** Relative path → size in bytes, for every file made (videos and sidecars). */
  files: Record<string, number>;
  /** The entries with paths relative to the library folder. */
  entries: TestLibraryEntry[];
}

function toRelative(entry: TestLibraryEntry, dir: string): TestLibraryEntry {
  const rel = (p: string) => path.relative(dir, p).split(path.sep).join('/');
  return {
    ...entry,
    path: rel(entry.path),
    subtitles: entry.subtitles.map((s) => ({ ...s, path: s.path === null ? null : rel(s.path) })),
  };
}

function toAbsolute(entry: TestLibraryEntry, dir: string): TestLibraryEntry {
  const abs = (p: string) => path.join(dir, ...p.split('/'));
  return {
    ...entry,
    path: abs(entry.path),
    subtitles: entry.subtitles.map((s) => ({ ...s, path: s.path === null ? null : abs(s.path) })),
  };
}

async function readManifest(dir: string): Promise<Manifest | null> {
  try {
    const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_NAME), 'utf8')) as Manifest;
    return manifest?.generator === 'marquee-test-library' ? manifest : null;
  } catch {
    return null;
  }
}

async function isComplete(dir: string, manifest: Manifest): Promise<boolean> {
  const sizes = await Promise.all(
    Object.entries(manifest.files).map(async ([file, size]) => {
      try {
        return (await stat(path.join(dir, ...file.split('/')))).size === size;
      } catch {
        return false;
      }
    }),
  );
  return sizes.length > 0 && sizes.every(Boolean);
}

/** Removes the listed files this library no longer has, and the folders that leaves empty. */
async function removeStale(root: string, listed: string[], current: Record<string, number>): Promise<void> {
  for (const file of listed) {
    if (file in current || file.split('/').includes('..') || path.isAbsolute(file)) continue;
    await rm(path.join(root, ...file.split('/')), { force: true });
    // Up the folders, stopping at the first one that is not empty (rmdir refuses it).
    for (let folder = path.dirname(file); folder !== '.'; folder = path.dirname(folder)) {
      try {
        await rmdir(path.join(root, ...folder.split('/')));
      } catch {
        break;
      }
    }
  }
}

/** A temporary name beside `file` (same folder, so a rename puts it in place at once). */
function partialName(file: string): string {
  return `${file}.${process.pid}-${randomBytes(4).toString('hex')}.partial`;
}

// ---------------------------------------------------------------------------------------------------
// The library
// ---------------------------------------------------------------------------------------------------

/**
 * Makes (or finds, already made) the test library in `dir`. Resolves with the folder and one entry per
 * file, telling what ffprobe will report about it. `durationSeconds` (default 12) is each file's length.
 */
export async function makeTestMediaLibrary(
  dir: string,
  o: { durationSeconds?: number } = {},
): Promise<TestLibrary> {
  const root = path.resolve(dir);
  const d = o.durationSeconds ?? DEFAULT_DURATION_SECONDS;
  if (!(Number.isFinite(d) && d >= 2 && d <= 600)) {
    throw new RangeError(`durationSeconds must be between 2 and 600, not ${d}`);
  }
  // Calls for the same folder in this process share one run (other processes see the manifest).
  const key = `${root}\0${d}`;
  let pending = inProgress.get(key);
  if (!pending) {
    pending = findOrMake(root, d).finally(() => inProgress.delete(key));
    inProgress.set(key, pending);
  }
  return pending;
}

const inProgress = new Map<string, Promise<TestLibrary>>();

async function findOrMake(root: string, d: number): Promise<TestLibrary> {
  const previous = await readManifest(root);
  if (
    previous &&
    previous.version === GENERATOR_VERSION &&
    previous.durationSeconds === d &&
    (await isComplete(root, previous))
  ) {
    return { dir: root, entries: previous.entries.map((e) => toAbsolute(e, root)) };
  }
  // Made again: the old manifest goes first (a half-made library never looks complete); once the new
  // files are in, those of the old manifest that this version does not make go too (nothing else).
  if (previous) await rm(path.join(root, MANIFEST_NAME), { force: true });

  await mkdir(root, { recursive: true });
  const work = await mkdtemp(path.join(tmpdir(), 'marquee-test-library-'));
  try {
    const jobs = await planJobs(work, d);
    const files: Record<string, number> = {};
    const entries = await runAll(
      jobs.map((job) => async (): Promise<TestLibraryEntry> => {
        const target = path.join(root, ...job.file.split('/'));
        await mkdir(path.dirname(target), { recursive: true });
        const partial = partialName(target);
        try {
          await run(ffmpegBinary(), [
            ...['-hide_banner', '-nostdin', '-loglevel', 'error', '-y'],
            ...job.args,
            ...['-threads', '1', '-f', job.format, partial],
          ]);
          await rename(partial, target);
        } finally {
          await rm(partial, { force: true });
        }
        files[job.file] = (await stat(target)).size;
        const sidecarSubtitles: TestSubtitle[] = [];
        for (const sidecar of job.sidecars) {
          const sidecarPath = path.join(root, ...sidecar.file.split('/'));
          const temporary = partialName(sidecarPath);
          await writeFile(temporary, sidecar.content);
          await rename(temporary, sidecarPath);
          files[sidecar.file] = (await stat(sidecarPath)).size;
          sidecarSubtitles.push({
            language: sidecar.language,
            codec: 'subrip',
            embedded: false,
            path: sidecarPath,
            isDefault: false,
            cues: sidecar.cues,
          });
        }
        return {
          key: job.key,
          ...LIBRARY_TITLES[job.key],
          ...job.entry,
          path: target,
          subtitles: [...job.entry.subtitles, ...sidecarSubtitles],
        };
      }),
      Math.max(1, Math.min(availableParallelism(), 4)),
    );

    const manifest: Manifest = {
      generator: 'marquee-test-library',
      version: GENERATOR_VERSION,
      durationSeconds: d,
      files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b))),
      entries: entries.map((e) => toRelative(e, root)),
    };
    const manifestPath = path.join(root, MANIFEST_NAME);
    const temporary = partialName(manifestPath);
    await writeFile(temporary, `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(temporary, manifestPath);
    if (previous) await removeStale(root, Object.keys(previous.files), files);
    return { dir: root, entries };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
