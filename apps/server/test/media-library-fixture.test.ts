import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  FRAME_RATE,
  LIBRARY_KEYS,
  MANIFEST_NAME,
  VIDEO_HEIGHT,
  VIDEO_WIDTH,
  ffprobeBinary,
  ffmpegBinary,
  makeTestMediaLibrary,
  run,
  type TestLibrary,
  type TestLibraryEntry,
} from './media-library-fixture.ts';

// The generated library is what it promises: ffprobe's view of every file, the catalog ids behind the
// names, the tones, the subtitle texts, and PGS cues that decode to pixels (and clear again).

interface ProbeStream {
  index: number;
  codec_name: string;
  codec_type: 'video' | 'audio' | 'subtitle' | 'data' | 'attachment';
  codec_tag_string?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  channels?: number;
  disposition?: Record<string, number>;
  tags?: Record<string, string>;
}
interface Probe {
  format: { format_name: string; duration?: string };
  streams: ProbeStream[];
}

async function probe(file: string): Promise<Probe> {
  const out = await run(ffprobeBinary(), [
    ...['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', file],
  ]);
  return JSON.parse(out.toString('utf8')) as Probe;
}

async function ffmpegOut(args: string[]): Promise<Buffer> {
  return run(ffmpegBinary(), ['-hide_banner', '-nostdin', '-v', 'error', ...args]);
}

/** RGB frames (VIDEO_WIDTH × VIDEO_HEIGHT) at the given times, optionally with subtitle stream 0 drawn over. */
async function framesAt(file: string, times: number[], withSubtitles: boolean): Promise<Buffer[]> {
  // Decoded from the start (no seeking, so no subtitle is skipped); select passes frames in file order.
  const wanted = times.map((t) => Math.round(t * FRAME_RATE));
  const numbers = [...new Set(wanted)].sort((a, b) => a - b);
  const select = `select=${numbers.map((n) => `eq(n\\,${n})`).join('+')}`;
  const graph = withSubtitles ? `[0:v][0:s:0]overlay,${select},format=rgb24` : `[0:v]${select},format=rgb24`;
  const raw = await ffmpegOut([
    ...['-i', file, '-filter_complex', graph],
    ...['-fps_mode', 'passthrough', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-'],
  ]);
  const size = VIDEO_WIDTH * VIDEO_HEIGHT * 3;
  expect(raw.length).toBe(size * numbers.length);
  return wanted.map((n) => {
    const i = numbers.indexOf(n);
    return raw.subarray(i * size, (i + 1) * size);
  });
}

function pixel(frame: Buffer, x: number, y: number): [number, number, number] {
  const at = (y * VIDEO_WIDTH + x) * 3;
  return [frame[at]!, frame[at + 1]!, frame[at + 2]!];
}

const luma = ([r, g, b]: [number, number, number]) => 0.299 * r + 0.587 * g + 0.114 * b;
const near = (a: [number, number, number], b: [number, number, number], tolerance: number) =>
  a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

/** The tone's frequency: upward zero crossings over two seconds of the track, downmixed to mono. */
async function toneFrequency(file: string, audioIndex: number): Promise<number> {
  const seconds = 2;
  const pcm = await ffmpegOut([
    ...['-i', file, '-map', `0:a:${audioIndex}`, '-ss', '1', '-t', String(seconds)],
    ...['-ac', '1', '-ar', '48000', '-f', 's16le', '-'],
  ]);
  let crossings = 0;
  for (let i = 2; i + 1 < pcm.length; i += 2) {
    if (pcm.readInt16LE(i - 2) < 0 && pcm.readInt16LE(i) >= 0) crossings++;
  }
  return crossings / seconds;
}

const catalog = (name: string) =>
  JSON.parse(readFileSync(new URL(`../assets/catalog/${name}`, import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >[];

let root: string;
let library: TestLibrary;
let generationMs: number;
const byKey = (key: string): TestLibraryEntry => library.entries.find((e) => e.key === key)!;

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'marquee-media-library-'));
  const started = performance.now();
  library = await makeTestMediaLibrary(path.join(root, 'library'));
  generationMs = performance.now() - started;
}, 120_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('the test media library', () => {
  it('holds one file per kind, small and quick to make', () => {
    expect(library.entries.map((e) => e.key)).toEqual([...LIBRARY_KEYS]);
    let bytes = 0;
    for (const entry of library.entries) bytes += statSync(entry.path).size;
    expect(bytes).toBeLessThan(8 * 1024 * 1024);
    // Generous for a loaded CI machine; it takes a few seconds on two cores.
    expect(generationMs).toBeLessThan(60_000);
    const leftovers = readdirSync(library.dir, { recursive: true }).filter((f) =>
      String(f).endsWith('.partial'),
    );
    expect(leftovers).toEqual([]);
  });

  it('names real, released catalog titles the Jellyfin way', () => {
    const movies = catalog('movies.json');
    const shows = catalog('shows.json');
    const today = new Date().toISOString().slice(0, 10);
    const ids = library.entries.filter((e) => e.type === 'movie').map((e) => e.tmdbId);
    expect(ids).toHaveLength(9);
    expect(new Set(ids).size).toBe(9);

    for (const entry of library.entries) {
      const folder = `${entry.title} (${entry.year}) [tmdbid-${entry.tmdbId}]`;
      const relative = path.relative(library.dir, entry.path).split(path.sep);
      if (entry.type === 'movie') {
        const movie = movies.find((m) => String(m.id) === entry.tmdbId);
        expect(movie, entry.key).toBeDefined();
        expect(movie!.title).toBe(entry.title);
        expect(String(movie!.release_date).slice(0, 4)).toBe(String(entry.year));
        expect(String(movie!.release_date) <= today).toBe(true);
        expect(relative).toEqual([folder, `${folder}${path.extname(entry.path)}`]);
      } else {
        const show = shows.find((s) => String(s.id) === entry.tmdbId) as
          | {
              name: string;
              first_air_date: string;
              seasons: { season_number: number; episodes: unknown[] }[];
            }
          | undefined;
        expect(show, entry.key).toBeDefined();
        expect(show!.name).toBe(entry.title);
        expect(show!.first_air_date.slice(0, 4)).toBe(String(entry.year));
        expect(show!.first_air_date <= today).toBe(true);
        expect(entry.season).toBe(1);
        expect(entry.episode).toBe(1);
        expect(show!.seasons.find((s) => s.season_number === 1)?.episodes.length).toBeGreaterThan(0);
        expect(relative).toEqual([folder, 'Season 01', `${entry.title} S01E01.mkv`]);
      }
    }
  });

  it.each([...LIBRARY_KEYS])('%s has the streams, languages and flags it promises', async (key) => {
    const entry = byKey(key);
    const { expects } = entry;
    const info = await probe(entry.path);
    expect(info.format.format_name).toBe(expects.formatName);
    expect(Number(info.format.duration)).toBeGreaterThan(expects.durationSeconds - 0.25);
    expect(Number(info.format.duration)).toBeLessThan(expects.durationSeconds + 0.25);

    const video = info.streams.filter((s) => s.codec_type === 'video');
    expect(video).toHaveLength(1);
    expect(video[0]!.codec_name).toBe(expects.videoCodec);
    expect(video[0]!.pix_fmt).toBe(expects.pixelFormat);
    expect([video[0]!.width, video[0]!.height]).toEqual([expects.width, expects.height]);
    expect(expects.width).toBeLessThanOrEqual(320);
    expect(expects.height).toBeLessThanOrEqual(180);
    if (key === 'hevc-aac-mp4') expect(video[0]!.codec_tag_string).toBe('hvc1');

    const audio = info.streams.filter((s) => s.codec_type === 'audio');
    expect(audio.map((s) => s.codec_name)).toEqual(expects.audioCodecs);
    expect(audio.map((s) => s.tags?.language ?? 'und')).toEqual(expects.audioLanguages);
    expect(audio.map((s) => s.channels)).toEqual(expects.audioChannels);
    const defaultAudio = audio.filter((s) => s.disposition?.default === 1);
    expect(defaultAudio.map((s) => s.tags?.language ?? 'und')).toEqual(
      expects.defaultAudioLanguage === null ? [] : [expects.defaultAudioLanguage],
    );

    const subtitles = info.streams.filter((s) => s.codec_type === 'subtitle');
    expect(subtitles.map((s) => s.codec_name)).toEqual(expects.subtitleCodecs);
    expect(subtitles.map((s) => s.tags?.language ?? 'und')).toEqual(expects.subtitleLanguages);
    const defaultSubtitle = subtitles.filter((s) => s.disposition?.default === 1);
    expect(defaultSubtitle.map((s) => s.tags?.language)).toEqual(
      expects.defaultSubtitleLanguage === null ? [] : [expects.defaultSubtitleLanguage],
    );
    // The entry's own subtitle list agrees with the file and the folder.
    expect(entry.subtitles.filter((s) => s.embedded).map((s) => s.codec)).toEqual(expects.subtitleCodecs);
    expect(entry.subtitles.filter((s) => !s.embedded).map((s) => s.language)).toEqual(
      expects.sidecarLanguages,
    );
    expect(entry.subtitles.flatMap((s) => s.cues.map((c) => c.text))).toEqual(expects.subtitleCues);
    expect(info.streams).toHaveLength(1 + audio.length + subtitles.length);
  });

  it.each([...LIBRARY_KEYS])('%s plays a sine tone on each track and a moving picture', async (key) => {
    const entry = byKey(key);
    for (const [i, hz] of entry.expects.audioFrequencies.entries()) {
      const measured = await toneFrequency(entry.path, i);
      expect(Math.abs(measured - hz) / hz, `${key} audio ${i}: ${measured} Hz`).toBeLessThan(0.03);
    }
    const [early, late] = await framesAt(entry.path, [1, 5], false);
    let changed = 0;
    for (let i = 0; i < early!.length; i++) if (Math.abs(early![i]! - late![i]!) > 24) changed++;
    expect(changed / early!.length).toBeGreaterThan(0.05);
  });

  it('embeds the SRT and ASS cue texts, and puts the French SRT beside the two-audio file', async () => {
    const srt = byKey('h264-ac3-srt-mkv');
    const srtText = (await ffmpegOut(['-i', srt.path, '-map', '0:s:0', '-f', 'srt', '-'])).toString('utf8');
    for (const cue of srt.expects.subtitleCues) expect(srtText).toContain(cue);
    expect(srt.expects.subtitleCues).toContain('Library SRT cue one');

    const ass = byKey('hevc10-eac3-ass-mkv');
    const assText = (
      await ffmpegOut(['-i', ass.path, '-map', '0:s:0', '-c:s', 'copy', '-f', 'ass', '-'])
    ).toString('utf8');
    expect(assText).toMatch(/^Style: Marquee,DejaVu Sans,16,&H0000FFFF,/m);
    for (const cue of ass.expects.subtitleCues) expect(assText).toContain(cue);

    const twoAudio = byKey('h264-two-audio-mkv');
    const sidecar = twoAudio.subtitles.find((s) => !s.embedded)!;
    expect(sidecar.path).toBe(twoAudio.path.replace(/\.mkv$/, '.fr.srt'));
    const sidecarText = readFileSync(sidecar.path!, 'utf8');
    expect(sidecarText).toMatch(/^1\n00:00:0\d,\d{3} --> 00:00:\d\d,\d{3}\n/);
    for (const cue of twoAudio.expects.subtitleCues) expect(sidecarText).toContain(cue);
    // Every file's cue texts are its own.
    const all = library.entries.flatMap((e) => e.expects.subtitleCues);
    expect(new Set(all).size).toBe(all.length);
  });

  it('has a PGS track that decodes to its boxes during each cue and to nothing between cues', async () => {
    const entry = byKey('h264-pgs-mkv');
    const layout = entry.pgs!;
    expect(layout.cues.map((c) => c.text)).toEqual(entry.expects.subtitleCues);
    const during = layout.cues.map((c) => (c.start + c.end) / 2);
    const between = layout.cues.slice(1).map((c, i) => (layout.cues[i]!.end + c.start) / 2);
    const times = [...during, ...between];
    const drawn = await framesAt(entry.path, times, true);
    const plain = await framesAt(entry.path, times, false);

    layout.cues.forEach((cue, i) => {
      const frame = drawn[i]!;
      // The box's top margin is the box colour throughout (even where the test pattern is blue).
      let boxPixels = 0;
      let total = 0;
      for (let y = cue.y + 2; y < cue.y + layout.margin - 2; y++) {
        for (let x = cue.x + 2; x < cue.x + cue.width - 2; x++) {
          total++;
          if (near(pixel(frame, x, y), layout.boxColor.rgb, 40)) boxPixels++;
        }
      }
      expect(boxPixels / total, `cue ${i + 1} box`).toBeGreaterThan(0.95);
      // The first letter's top-left stroke is bright text on the box.
      const text = pixel(frame, cue.x + layout.margin + 1, cue.y + layout.margin + 1);
      expect(luma(text) - luma(layout.boxColor.rgb), `cue ${i + 1} text`).toBeGreaterThan(80);
      // Without the subtitle that place is the test pattern.
      let differs = 0;
      for (let y = cue.y + 2; y < cue.y + layout.margin - 2; y++) {
        for (let x = cue.x + 2; x < cue.x + cue.width - 2; x++) {
          if (!near(pixel(plain[i]!, x, y), pixel(frame, x, y), 24)) differs++;
        }
      }
      expect(differs, `cue ${i + 1} over the picture`).toBeGreaterThan(0);
    });

    // After each clearing display set the frame is the plain picture again.
    between.forEach((_, j) => {
      const i = during.length + j;
      const cue = layout.cues[j]!;
      let maxDifference = 0;
      for (let y = cue.y; y < cue.y + cue.height; y++) {
        for (let x = cue.x; x < cue.x + cue.width; x++) {
          const a = pixel(drawn[i]!, x, y);
          const b = pixel(plain[i]!, x, y);
          maxDifference = Math.max(maxDifference, ...a.map((v, k) => Math.abs(v - b[k]!)));
        }
      }
      expect(maxDifference, `gap after cue ${j + 1}`).toBeLessThanOrEqual(4);
    });
  });
});

describe('makeTestMediaLibrary caching', () => {
  it('returns a complete library without ffmpeg, and makes an incomplete or older one again', async () => {
    const dir = path.join(root, 'cached');
    const manifestPath = path.join(dir, MANIFEST_NAME);
    const first = await makeTestMediaLibrary(dir, { durationSeconds: 2 });
    expect(first.entries.every((e) => e.expects.durationSeconds === 2)).toBe(true);
    const before = first.entries.map((e) => statSync(e.path).mtimeMs);

    const saved = process.env.FFMPEG_PATH;
    const withoutFfmpeg = async (check: () => Promise<void>) => {
      process.env.FFMPEG_PATH = path.join(root, 'no-such-ffmpeg');
      try {
        await check();
      } finally {
        if (saved === undefined) delete process.env.FFMPEG_PATH;
        else process.env.FFMPEG_PATH = saved;
      }
    };
    // Complete and of this version: no ffmpeg runs (the configured one does not exist), nothing changes.
    await withoutFfmpeg(async () => {
      const again = await makeTestMediaLibrary(dir, { durationSeconds: 2 });
      expect(again).toEqual(first);
      expect(again.entries.map((e) => statSync(e.path).mtimeMs)).toEqual(before);
      // Another duration is made again (which needs ffmpeg).
      await expect(makeTestMediaLibrary(dir, { durationSeconds: 3 })).rejects.toThrow(/not found/);
    });

    // A manifest of another version: everything is made again, and its files this version lacks go.
    const manifest = JSON.parse(readFileSync(path.join(root, 'library', MANIFEST_NAME), 'utf8')) as {
      version: number;
      durationSeconds: number;
      files: Record<string, number>;
    };
    const stale = 'Old Title (2000) [tmdbid-1]/Old Title (2000) [tmdbid-1].mkv';
    mkdirSync(path.join(dir, 'Old Title (2000) [tmdbid-1]'), { recursive: true });
    writeFileSync(path.join(dir, stale), 'old');
    manifest.version = 0;
    manifest.durationSeconds = 2;
    manifest.files = { ...manifest.files, [stale]: 3 };
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const remade = await makeTestMediaLibrary(dir, { durationSeconds: 2 });
    expect(remade.entries.map((e) => e.key)).toEqual([...LIBRARY_KEYS]);
    expect(existsSync(path.join(dir, stale))).toBe(false);
    expect(existsSync(path.join(dir, 'Old Title (2000) [tmdbid-1]'))).toBe(false);

    // A file gone: made again.
    rmSync(remade.entries[0]!.path);
    await withoutFfmpeg(async () => {
      await expect(makeTestMediaLibrary(dir, { durationSeconds: 2 })).rejects.toThrow(/not found/);
    });
  }, 120_000);
});
