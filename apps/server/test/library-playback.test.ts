import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiErrorBody,
  scrapeQuery,
  type ScrapeMediaParams,
  type ScrapeSourceEventData,
} from '@marquee/contract';
import { makeTestMediaLibrary, type TestLibrary, type TestLibraryEntry } from './media-library-fixture.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

// Issue 24, decision 085: every file of a real collection plays from the library source — direct, remuxed
// or transcoded for the device — with every audio track and every text subtitle, and what cannot play says
// why. Real ffmpeg on a library the fixture makes (tiny files).

/** What Debian's Chromium decodes: no HEVC, AC3, E-AC3 or DTS. */
const CHROMIUM = 'h264,vp8,vp9,av1,aac,mp3,opus,vorbis,flac,mp4,webm,mkv';

const run = promisify(execFile);

type SourceOutput = ScrapeSourceEventData['completed'];
type Stream = NonNullable<SourceOutput['stream']>[number];

let tmp: string;
let library: TestLibrary;
let t: SyncTestApp;

const entry = (key: string): TestLibraryEntry => library.entries.find((e) => e.key === key)!;
const mediaOf = (e: TestLibraryEntry): ScrapeMediaParams =>
  e.type === 'movie'
    ? { type: 'movie', title: e.title, releaseYear: e.year, tmdbId: e.tmdbId }
    : {
        type: 'show',
        title: e.title,
        releaseYear: e.year,
        tmdbId: e.tmdbId,
        season: { number: e.season!, tmdbId: '3572' },
        episode: { number: e.episode!, tmdbId: '62085' },
      };

/** The library source's answer for a title: its stream, or the failure it reported. */
async function scrapeLibrary(
  app: SyncTestApp,
  e: TestLibraryEntry,
  extra: { codecs?: string; audioLanguage?: string } = { codecs: CHROMIUM },
): Promise<{ stream: Stream | null; error: { code?: string; message: string } | null }> {
  const query = scrapeQuery(mediaOf(e), {
    id: 'library',
    ...(extra.codecs ? { codecs: extra.codecs.split(',') } : {}),
    ...(extra.audioLanguage ? { audioLanguage: extra.audioLanguage } : {}),
  });
  const res = await app.server.inject({ method: 'GET', url: `/scrape/source?${new URLSearchParams(query)}` });
  expect(res.statusCode).toBe(200);
  const events = res.body
    .split('\n\n')
    .map((block) => ({
      event: /^event: (.*)$/m.exec(block)?.[1],
      data: /^data: (.*)$/m.exec(block)?.[1],
    }))
    .filter((e) => e.event);
  const completed = events.find((e) => e.event === 'completed');
  if (completed?.data) {
    const output = JSON.parse(completed.data) as SourceOutput;
    return { stream: output.stream?.[0] ?? null, error: null };
  }
  const error = events.find((e) => e.event === 'error');
  return {
    stream: null,
    error: error?.data ? (JSON.parse(error.data) as { code?: string; message: string }) : null,
  };
}

const get = (url: string) =>
  t.server.inject({ method: 'GET', url: new URL(url, 'http://localhost').pathname });
const codeOf = (res: { body: string }) => ApiErrorBody.parse(JSON.parse(res.body)).code;

/** Top-level boxes of an MP4 buffer and the first `tfdt` (the fragment's decode time). */
function boxes(buffer: Buffer): { types: string[]; firstDecodeTime: number | null } {
  const types: string[] = [];
  let firstDecodeTime: number | null = null;
  const walk = (start: number, end: number, top: boolean) => {
    for (let offset = start; offset + 8 <= end;) {
      const size = buffer.readUInt32BE(offset);
      const type = buffer.toString('latin1', offset + 4, offset + 8);
      if (size < 8) return;
      if (top) types.push(type);
      if (type === 'moof' || type === 'traf') walk(offset + 8, offset + size, false);
      if (type === 'tfdt' && firstDecodeTime === null)
        firstDecodeTime =
          buffer[offset + 8] === 1
            ? Number(buffer.readBigUInt64BE(offset + 12))
            : buffer.readUInt32BE(offset + 12);
      offset += size;
    }
  };
  walk(0, buffer.length, true);
  return { types, firstDecodeTime };
}

/** Plays an HLS stream the way a player does: master → first variant → init → a segment at `at` (0..1). */
async function playHls(playlist: string, at: number) {
  const master = await get(playlist);
  expect(master.statusCode).toBe(200);
  expect(master.headers['content-type']).toBe('application/vnd.apple.mpegurl');
  const variant = master.body.split('\n').find((l) => l.endsWith('/index.m3u8'))!;
  const base = new URL(playlist);
  const media = await get(new URL(variant, base).href);
  expect(media.statusCode).toBe(200);
  const segments = media.body.split('\n').filter((l) => l.endsWith('.m4s'));
  const index = Math.min(segments.length - 1, Math.floor(segments.length * at));
  const mediaUrl = new URL(variant, base);
  const init = await get(new URL('init.mp4', mediaUrl).href);
  expect(init.statusCode).toBe(200);
  expect(boxes(init.rawPayload).types).toContain('moov');
  const segment = await get(new URL(segments[index]!, mediaUrl).href);
  expect(segment.statusCode).toBe(200);
  return {
    master: master.body,
    media: media.body,
    segment: boxes(segment.rawPayload),
    segments,
    index,
    /** The init segment and the media segment joined: a file ffmpeg reads. */
    bytes: Buffer.concat([init.rawPayload, segment.rawPayload]),
  };
}

/** ffprobe's streams of an init segment joined with a media segment. */
async function probeSegment(bytes: Buffer, name: string) {
  const file = path.join(tmp, `${name}.mp4`);
  await writeFile(file, bytes);
  const { stdout } = await run('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height', '-of', 'json', file],
  ]);
  return (JSON.parse(stdout) as { streams: { codec_type: string; codec_name: string; width?: number }[] })
    .streams;
}

/** The pictures of an init segment joined with a media segment, decoded to gray (one byte a pixel). */
async function grayFrames(bytes: Buffer, name: string, width: number, height: number) {
  const file = path.join(tmp, `${name}.mp4`);
  await writeFile(file, bytes);
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-i',
      file,
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
  const frames: Buffer[] = [];
  for (let at = 0; at + width * height <= stdout.length; at += width * height)
    frames.push(stdout.subarray(at, at + width * height));
  return frames;
}

/** Mean absolute difference of two gray pictures inside a box. */
function difference(
  a: Buffer,
  b: Buffer,
  width: number,
  box: { x: number; y: number; width: number; height: number },
) {
  let sum = 0;
  for (let y = box.y; y < box.y + box.height; y++)
    for (let x = box.x; x < box.x + box.width; x++) sum += Math.abs(a[y * width + x]! - b[y * width + x]!);
  return sum / (box.width * box.height);
}

beforeAll(async () => {
  tmp = await mkdtemp(path.join(tmpdir(), 'marquee-library-playback-'));
  library = await makeTestMediaLibrary(path.join(tmpdir(), 'marquee-test-library'));
  t = await startSyncApp({ env: { MEDIA_LIBRARY_DIR: library.dir, DATA_DIR: path.join(tmp, 'data') } });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await rm(tmp, { recursive: true, force: true });
});

describe(`the library plays in a browser without HEVC, AC3 or E-AC3 (${testDialect})`, () => {
  it('plays MP4 H.264/AAC and WebM VP9/Opus as they are', async () => {
    for (const key of ['h264-aac-mp4', 'vp9-opus-webm']) {
      const { stream } = await scrapeLibrary(t, entry(key));
      expect(stream).toMatchObject({ type: 'file', delivery: 'direct' });
      const file = stream!.type === 'file' ? Object.values(stream!.qualities)[0]! : null;
      const bytes = await t.server.inject({
        method: 'GET',
        url: new URL(file!.url).pathname,
        headers: { range: 'bytes=0-99' },
      });
      expect(bytes.statusCode).toBe(206);
    }
  });

  it('remuxes MKV H.264 with AC3 5.1 (picture copied, sound AAC) and offers the SRT inside it', async () => {
    const e = entry('h264-ac3-srt-mkv');
    const { stream } = await scrapeLibrary(t, e);
    expect(stream).toMatchObject({ type: 'hls', delivery: 'remux' });
    if (stream?.type !== 'hls') return;
    const played = await playHls(stream.playlist, 0.8);
    // The copied picture's own profile and level (High, 1.2), the sound converted to AAC.
    expect(played.master).toContain('CODECS="avc1.64000C,mp4a.40.2"');
    expect(played.segment.types).toContain('moof');
    expect(played.segment.types).toContain('mdat');
    const caption = stream.captions.find((c) => c.language === 'en');
    expect(caption).toMatchObject({ type: 'vtt' });
    const vtt = await get(caption!.url);
    expect(vtt.statusCode).toBe(200);
    expect(vtt.body).toMatch(/^WEBVTT/);
    for (const cue of e.subtitles[0]!.cues) expect(vtt.body).toContain(cue.text);
  });

  it('transcodes HEVC 10-bit with E-AC3 and turns the ASS inside into WebVTT', async () => {
    const e = entry('hevc10-eac3-ass-mkv');
    const { stream } = await scrapeLibrary(t, e);
    expect(stream).toMatchObject({ type: 'hls', delivery: 'transcode' });
    if (stream?.type !== 'hls') return;
    const played = await playHls(stream.playlist, 0.8);
    expect(played.master).toContain('CODECS="avc1.640028,mp4a.40.2"');
    // Four-second grid: the segment at 80 % starts at its grid time (video timescale from the init).
    expect(played.segment.firstDecodeTime).not.toBeNull();
    const caption = stream.captions.find((c) => c.language === 'fr');
    const vtt = await get(caption!.url);
    for (const cue of e.subtitles.find((s) => s.codec === 'ass')!.cues) expect(vtt.body).toContain(cue.text);
    // Its own script too, styles kept, for the player's ASS renderer.
    expect(new URL(caption!.assUrl!).pathname).toMatch(/\/subtitles\/2\.ass$/);
    const script = await get(caption!.assUrl!);
    expect(script.statusCode).toBe(200);
    expect(script.headers['content-type']).toBe('text/x-ssa; charset=utf-8');
    expect(script.body).toContain('[V4+ Styles]');
    expect(script.body).toMatch(/^Style: Marquee,DejaVu Sans,16,&H0000FFFF/m);
    for (const cue of e.subtitles.find((s) => s.codec === 'ass')!.cues)
      expect(script.body).toContain(cue.text);
    // Only ASS/SSA streams of the file, by their index: anything else is no subtitle.
    for (const name of ['0.ass', '1.ass', '9.ass', 'x.ass', 'file.ass', '2.ass.vtt', '%2E%2E%2F2.ass']) {
      const res = await get(caption!.assUrl!.replace(/2\.ass$/, name));
      expect(res.statusCode, name).toBe(404);
      expect(codeOf(res), name).toBe('file_not_found');
    }
  });

  it('offers the PGS track inside an MKV burned into a transcode, whose picture shows it', async () => {
    const e = entry('h264-pgs-mkv');
    const { stream } = await scrapeLibrary(t, e);
    // The file plays as it is; the PGS track is no caption but a picture subtitle with its own playlist.
    expect(stream).toMatchObject({ type: 'file', delivery: 'direct', captions: [] });
    expect(stream!.imageSubtitles).toHaveLength(1);
    const pgs = stream!.imageSubtitles![0]!;
    expect(pgs).toMatchObject({ language: 'en', label: 'English (PGS)', forced: false, format: 'pgs' });
    expect(Object.keys(pgs.playlists)).toEqual(['default']);
    const playlist = pgs.playlists.default!;
    // 180 lines: the lowest rung at its own size, the AAC copied, stream 2 (the PGS) burned in.
    expect(new URL(playlist).pathname).toMatch(/\/hls\/v360\.a1c\.b2\/master\.m3u8$/);
    // The segment from 4 s to 8 s: the second cue is on screen from 4.6 s to 7 s.
    const burned = await playHls(playlist, 0.4);
    expect(burned.index).toBe(1);
    const streams = await probeSegment(burned.bytes, 'pgs-burned');
    expect(streams).toContainEqual(expect.objectContaining({ codec_type: 'video', codec_name: 'h264' }));
    const plain = await playHls(playlist.replace('.b2/', '/'), 0.4);
    const { width, height } = e.expects;
    const withCue = await grayFrames(burned.bytes, 'pgs-burned', width, height);
    const without = await grayFrames(plain.bytes, 'pgs-plain', width, height);
    expect(withCue.length).toBe(without.length);
    const cue = e.pgs!.cues[1]!;
    const frameAt = (seconds: number) => Math.round((seconds - 4) * 24);
    // Where the cue is on screen the burned picture has its box; before it, the two are alike.
    expect(difference(withCue[frameAt(5.5)]!, without[frameAt(5.5)]!, width, cue)).toBeGreaterThan(40);
    expect(difference(withCue[frameAt(4.2)]!, without[frameAt(4.2)]!, width, cue)).toBeLessThan(10);
  });

  it('transcodes a phone video (MP4 HEVC), an AVI (MPEG-4 Part 2 + MP3) and a TV recording (MPEG-2 + AC3)', async () => {
    for (const key of ['hevc-aac-mp4', 'mpeg4-mp3-avi', 'mpeg2-ac3-ts']) {
      const { stream } = await scrapeLibrary(t, entry(key));
      expect(stream, key).toMatchObject({ type: 'hls', delivery: 'transcode' });
      if (stream?.type !== 'hls') continue;
      const played = await playHls(stream.playlist, 0.5);
      expect(played.segment.types, key).toContain('moof');
    }
  });

  it('lists both audio languages, starts with the preferred one and plays the other through its own playlist', async () => {
    const e = entry('h264-two-audio-mkv');
    const { stream } = await scrapeLibrary(t, e, { codecs: CHROMIUM, audioLanguage: 'fr' });
    expect(stream).toMatchObject({ type: 'hls', delivery: 'remux' });
    const tracks = stream!.audioTracks!;
    expect(tracks.map((a) => [a.language, a.active])).toEqual([
      ['en', false],
      ['fr', true],
    ]);
    expect(tracks[1]!.playlist).toBeNull();
    const english = await playHls(tracks[0]!.playlist!, 0.3);
    expect(english.segment.types).toContain('moof');
    // The sidecar `.fr.srt` is offered beside the file.
    const sidecar = stream!.captions.find((c) => c.type === 'srt' && c.language === 'fr');
    expect((await get(sidecar!.url)).statusCode).toBe(200);
    // Without a preference the file's default track (English) comes first.
    const plain = await scrapeLibrary(t, e);
    expect(plain.stream!.audioTracks!.find((a) => a.active)!.language).toBe('en');
  });

  it('gives a client that names no codecs what every browser plays: Matroska is remuxed', async () => {
    const { stream } = await scrapeLibrary(t, entry('episode-h264-aac-mkv'), {});
    expect(stream).toMatchObject({ type: 'hls', delivery: 'remux' });
  });

  it('accepts only renditions that fit the file and segments that exist', async () => {
    const { stream } = await scrapeLibrary(t, entry('h264-ac3-srt-mkv'));
    const master = new URL(stream!.type === 'hls' ? stream!.playlist : '').pathname;
    for (const plan of ['vc.a9t', 'v999.a1t', 'vc.a2t', 'x;rm -rf', 'vc.a1t.b2', 'v720.a1t.b2']) {
      const res = await get(master.replace('/vc.a1t/', `/${encodeURIComponent(plan)}/`));
      expect([404, 400]).toContain(res.statusCode);
    }
    const missing = await get(master.replace('master.m3u8', '9999.m4s'));
    expect(missing.statusCode).toBe(404);
    expect(codeOf(missing)).toBe('file_not_found');
    const noSubtitle = await get(master.replace(/hls\/.*$/, 'subtitles/7.vtt'));
    expect(noSubtitle.statusCode).toBe(404);
    // The SRT stream (2) has WebVTT but no ASS script; its caption offers none.
    expect((await get(master.replace(/hls\/.*$/, 'subtitles/2.ass'))).statusCode).toBe(404);
    expect(stream!.captions[0]).not.toHaveProperty('assUrl');
  });
});

describe('faults: what cannot play says why, nothing hangs, no 500', () => {
  let faulty: SyncTestApp;
  let dir: string;
  beforeAll(async () => {
    dir = path.join(tmp, 'faulty');
    const folder = (name: string) => path.join(dir, name);
    await mkdir(folder('Interstellar (2014) [tmdbid-157336]'), { recursive: true });
    await mkdir(folder('Alien (1979) [tmdbid-348]'), { recursive: true });
    await mkdir(folder('Inception (2010) [tmdbid-27205]'), { recursive: true });
    // A truncated MKV (half of it), a text file named like a film, and a film removed while it plays.
    const source = entry('h264-ac3-srt-mkv').path;
    const truncated = folder('Interstellar (2014) [tmdbid-157336]/Interstellar (2014) [tmdbid-157336].mkv');
    await copyFile(source, truncated);
    await truncate(truncated, Math.floor((await readFile(source)).length / 2));
    await writeFile(
      folder('Inception (2010) [tmdbid-27205]/Inception (2010) [tmdbid-27205].mkv'),
      'not a film\n',
    );
    await copyFile(
      entry('mpeg2-ac3-ts').path,
      folder('Alien (1979) [tmdbid-348]/Alien (1979) [tmdbid-348].ts'),
    );
    faulty = await startSyncApp({ env: { MEDIA_LIBRARY_DIR: dir, DATA_DIR: path.join(tmp, 'faulty-data') } });
  }, 60_000);
  afterAll(async () => faulty?.close());

  it('plays what a truncated file holds and ends cleanly where it stops', async () => {
    const { stream } = await scrapeLibrary(faulty, entry('h264-ac3-srt-mkv'));
    expect(stream?.type).toBe('hls');
    if (stream?.type !== 'hls') return;
    const master = await faulty.server.inject({ method: 'GET', url: new URL(stream.playlist).pathname });
    expect(master.statusCode).toBe(200);
  });

  it('never offers a file that is not media', async () => {
    const { stream, error } = await scrapeLibrary(faulty, entry('vp9-opus-webm'));
    expect(stream).toBeNull();
    expect(error).toMatchObject({ code: 'media_not_found' });
  });

  it('answers 404 for a file removed while it plays, and converts again once ffmpeg was killed', async () => {
    const { stream } = await scrapeLibrary(faulty, entry('mpeg2-ac3-ts'));
    if (stream?.type !== 'hls') throw new Error('expected HLS');
    const base = new URL(stream.playlist);
    const mediaUrl = new URL('../v360.a1t/index.m3u8', base);
    const send = (name: string) =>
      faulty.server.inject({ method: 'GET', url: new URL(name, mediaUrl).pathname });
    expect((await send('0.m4s')).statusCode).toBe(200);
    // ffmpeg killed mid-conversion (an operator, the OOM killer): the next request starts it again.
    for (const { pid } of runningFfmpeg()) process.kill(pid, 'SIGKILL');
    expect((await send('2.m4s')).statusCode).toBe(200);
    await rm(path.join(dir, 'Alien (1979) [tmdbid-348]'), { recursive: true });
    const gone = await send('1.m4s');
    expect(gone.statusCode).toBe(404);
    expect(codeOf(gone)).toBe('file_not_found');
  });
});

describe('without ffmpeg', () => {
  let plain: SyncTestApp;
  beforeAll(async () => {
    plain = await startSyncApp({
      env: { MEDIA_LIBRARY_DIR: library.dir, DATA_DIR: path.join(tmp, 'plain-data') },
      deps: { sources: { withoutFfmpeg: true } },
    });
  });
  afterAll(async () => plain?.close());

  it('offers MP4 and Matroska as they are, and nothing else', async () => {
    expect((await scrapeLibrary(plain, entry('h264-aac-mp4'))).stream).toMatchObject({ type: 'file' });
    expect((await scrapeLibrary(plain, entry('h264-ac3-srt-mkv'))).stream).toMatchObject({ type: 'file' });
    const avi = await scrapeLibrary(plain, entry('mpeg4-mp3-avi'));
    expect(avi.stream).toBeNull();
  });
});

/** ffmpeg processes this test process started (Linux /proc: parent and command name). */
function runningFfmpeg(): { pid: number }[] {
  const out: { pid: number }[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = (() => {
      try {
        return readFileSync(`/proc/${name}/stat`, 'utf8');
      } catch {
        return '';
      }
    })();
    // pid (comm) state ppid …
    const match = /^\d+ \((.*)\) \S+ (\d+)/.exec(stat);
    if (match?.[1] === 'ffmpeg' && Number(match[2]) === process.pid) out.push({ pid: Number(name) });
  }
  return out;
}
