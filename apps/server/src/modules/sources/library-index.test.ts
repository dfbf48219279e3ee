import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScrapeMedia } from '@marquee/providers';
import { createTestDatabase, testDialect, type TestDatabase } from '../../../test/test-database.ts';
import { MediaProber } from '../media/media-prober.ts';
import { MediaProbesRepository } from '../media/media-probes.repository.ts';
import {
  emptyScanMemory,
  findMedia,
  LibraryIndexer,
  libraryFileId,
  scanLibrary,
  type LibraryIndex,
  type LibrarySubtitle,
  type LibraryVideo,
} from './library-index.ts';
import { libraryRoots } from './sources.module.ts';

const run = promisify(execFile);
const root = mkdtempSync(path.join(tmpdir(), 'marquee-library-'));

/** The first bytes of real files of each kind: an MP4 `ftyp` box, the EBML magic, a subtitle cue. */
const MP4_HEAD = Buffer.concat([
  Buffer.from([0, 0, 0, 24]),
  Buffer.from('ftypisom\0\0\x02\0isommp41', 'latin1'),
]);
const EBML_HEAD = Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01]);
const contentFor = (relative: string): string | Buffer => {
  const extension = path.extname(relative).toLowerCase();
  if (['.mp4', '.m4v', '.mov'].includes(extension)) return Buffer.concat([MP4_HEAD, Buffer.alloc(64)]);
  if (['.mkv', '.webm'].includes(extension)) return Buffer.concat([EBML_HEAD, Buffer.alloc(64)]);
  if (extension === '.vtt') return 'WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHello\n';
  if (extension === '.srt') return '1\n00:00:01,000 --> 00:00:02,000\nHello\n';
  return 'x';
};
const put = (relative: string, content: string | Buffer = contentFor(relative)) => {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
  return full;
};

const movie = (title: string, releaseYear: number, tmdbId: string, imdbId?: string): ScrapeMedia => ({
  type: 'movie',
  title,
  releaseYear,
  tmdbId,
  ...(imdbId ? { imdbId } : {}),
});
const episode = (title: string, tmdbId: string, season: number, number: number): ScrapeMedia => ({
  type: 'show',
  title,
  releaseYear: 2008,
  tmdbId,
  season: { number: season, tmdbId: '1' },
  episode: { number, tmdbId: '2' },
});

let index: LibraryIndex;
beforeAll(async () => {
  put('Movies/The Matrix (1999) [tmdbid-603].mp4');
  put('Movies/The Matrix (1999) [tmdbid-603].en.srt');
  put('Movies/The Matrix (1999) [tmdbid-603].fr.forced.vtt');
  put('Movies/The Matrix (1999) [tmdbid-603].notes.txt');
  put('Movies/Inception (2010)/Inception (2010) - 720p.mp4');
  put('Movies/Inception (2010)/Inception (2010) - 1080p.mkv');
  put('Movies/Inception (2010)/Inception (2010) - 720p.de.srt');
  put('Movies/Inception (2010)/extras/Behind the scenes.mp4');
  put('Movies/Inception (2010)/Inception (2010)-trailer.mp4');
  put('Movies/Amélie (2001)/movie.mkv');
  put('Movies/Amélie (2001)/English.srt');
  put('Movies/Heat (1995) [imdbid-tt0113277]/Heat.mp4');
  put('Movies/.hidden (2000).mp4');
  put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E02.mp4');
  put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 01/Breaking Bad S01E02.en.srt');
  put('TV/Breaking Bad (2008) [tmdbid-1396]/Season 02/Episode 3.webm');
  put('TV/Breaking Bad (2008) [tmdbid-1396]/Specials/Breaking Bad S00E01.mp4');
  put('TV/Chernobyl S01E01-E02.mp4');
  put('TV/Dark/Season 1/S01E01.mkv');
  mkdirSync(path.join(root, 'linked'));
  put('linked/Up (2009).mp4');
  symlinkSync(path.join(root, 'linked'), path.join(root, 'Movies', 'more'));
  symlinkSync(path.join(root, 'missing-target'), path.join(root, 'Movies', 'broken-link.mp4'));
  index = await scanLibrary(root, { now: 1000 });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const names = (media: ScrapeMedia) =>
  findMedia(index, media)
    .map((f) => f.name)
    .sort();

describe('scanLibrary + findMedia', () => {
  it('finds a movie by the TMDB id in its name, with its sibling subtitles', () => {
    const [file, ...rest] = findMedia(index, movie('Anything', 1999, '603'));
    expect(rest).toEqual([]);
    expect(file!.name).toBe('The Matrix (1999) [tmdbid-603].mp4');
    expect(file!.subtitles.map((s) => [s.language, s.format, s.type, s.forced])).toEqual([
      ['en', 'srt', 'srt', false],
      ['fr', 'vtt', 'vtt', true],
    ]);
    expect(file).toMatchObject({ format: 'mp4', info: null, size: MP4_HEAD.length + 64 });
    expect(file!.mtimeMs).toBeGreaterThan(0);
  });

  it('never matches a tagged file by title when the id differs', () => {
    expect(names(movie('The Matrix', 1999, '999'))).toEqual([]);
  });

  it('finds untagged movies by folded title and year, in a folder of versions (extras left out)', () => {
    expect(names(movie('Inception', 2010, '27205'))).toEqual([
      'Inception (2010) - 1080p.mkv',
      'Inception (2010) - 720p.mp4',
    ]);
    expect(names(movie('Inception', 2011, '27205'))).toEqual([]);
    expect(names(movie('AMELIE', 2001, '194'))).toEqual(['movie.mkv']);
  });

  it('matches by IMDb id when the name has one', () => {
    expect(names(movie('Heat', 1995, '949', 'tt0113277'))).toEqual(['Heat.mp4']);
  });

  it('follows symbolic links and skips hidden files and broken links', () => {
    expect(names(movie('Up', 2009, '14160'))).toEqual(['Up (2009).mp4']);
    expect(
      [...index.files.values()].some((f) => f.name.startsWith('.hidden') || f.name === 'broken-link.mp4'),
    ).toBe(false);
  });

  it('finds episodes by show id and season/episode, from SxxEyy, bare names in season folders and specials', () => {
    expect(names(episode('Breaking Bad', '1396', 1, 2))).toEqual(['Breaking Bad S01E02.mp4']);
    expect(names(episode('Breaking Bad', '1396', 2, 3))).toEqual(['Episode 3.webm']);
    expect(names(episode('Breaking Bad', '1396', 0, 1))).toEqual(['Breaking Bad S00E01.mp4']);
    expect(names(episode('Breaking Bad', '1396', 1, 3))).toEqual([]);
  });

  it('takes the show from the file name when the folder is not a show folder, and lists multi-episode files under each', () => {
    expect(names(episode('Chernobyl', '87108', 1, 1))).toEqual(['Chernobyl S01E01-E02.mp4']);
    expect(names(episode('Chernobyl', '87108', 1, 2))).toEqual(['Chernobyl S01E01-E02.mp4']);
    expect(names(episode('Dark', '70523', 1, 1))).toEqual(['S01E01.mkv']);
  });

  it('gives every file a stable id from its path inside the library', () => {
    const matrix = findMedia(index, movie('x', 1999, '603'))[0]!;
    expect(matrix.id).toBe(libraryFileId(path.join('Movies', 'The Matrix (1999) [tmdbid-603].mp4')));
    expect(index.files.get(matrix.id)).toBe(matrix);
    expect(index.files.get(matrix.subtitles[0]!.id)?.kind).toBe('subtitle');
  });
});

describe('LibraryIndexer', () => {
  it('rescans when the index is old, and on a miss for a file added since', async () => {
    let now = 0;
    const indexer = new LibraryIndexer(root, { maxAgeMs: 60_000, now: () => now });
    const first = await indexer.get();
    expect(await indexer.get()).toBe(first);
    put('Movies/Heat (1995) [imdbid-tt0113277]/Heat.en.srt');
    const id = libraryFileId(path.join('Movies', 'Heat (1995) [imdbid-tt0113277]', 'Heat.en.srt'));
    now = 1_000;
    expect(await indexer.file(id)).toBeNull();
    now = 10_000;
    expect((await indexer.file(id))?.name).toBe('Heat.en.srt');
    now = 100_000;
    expect(await indexer.get()).not.toBe(first);
  });
});

describe('what the library serves (decision 071)', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'marquee-library-bounds-'));
  const lib = path.join(base, 'library');
  const second = path.join(base, 'second-drive');
  const outside = path.join(base, 'outside');
  const write = (full: string, content: string | Buffer) => {
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  const mp4 = Buffer.concat([MP4_HEAD, Buffer.alloc(64)]);
  const logged: { message: string; details: Record<string, unknown> }[] = [];
  let scanned: LibraryIndex;

  beforeAll(async () => {
    write(path.join(lib, 'TV/Show (2008)/Season 01/Show S01E01.mp4'), mp4);
    // A text file named like an episode, and the system's password file behind an episode's name.
    write(path.join(lib, 'TV/Show (2008)/Season 01/x S01E03.mp4'), 'root:x:0:0:root:/root:/bin/bash\n');
    symlinkSync('/etc/passwd', path.join(lib, 'TV/Show (2008)/Season 01/Show S01E04.mp4'));
    // A real video outside the library folders, linked in as a file and as a folder.
    write(path.join(outside, 'Secret (2001).mp4'), mp4);
    write(path.join(outside, 'Secret (2001).en.srt'), '1\n00:00:01,000 --> 00:00:02,000\nHi\n');
    symlinkSync(path.join(outside, 'Secret (2001).mp4'), path.join(lib, 'Secret (2001).mp4'));
    symlinkSync(outside, path.join(lib, 'Linked folder'));
    // Inside the library: a link to a stored file whose own name says nothing, and a subtitle link.
    write(path.join(lib, '.store/abc123'), mp4);
    mkdirSync(path.join(lib, 'Movies'), { recursive: true });
    symlinkSync(path.join(lib, '.store/abc123'), path.join(lib, 'Movies/Up (2009) [tmdbid-14160].mp4'));
    // Matroska content under an .mp4 name plays as webm; a subtitle that is not text is skipped.
    write(path.join(lib, 'Movies/Heat (1995)/Heat (1995).mp4'), Buffer.concat([EBML_HEAD, Buffer.alloc(64)]));
    write(path.join(lib, 'Movies/Heat (1995)/Heat (1995).en.srt'), Buffer.from([0x00, 0x01, 0x02, 0x03]));
    // A second library folder, linked from the first.
    write(path.join(second, 'Alien (1979)/Alien (1979).mp4'), mp4);
    symlinkSync(path.join(second, 'Alien (1979)'), path.join(lib, 'Movies/Alien'));
    scanned = await scanLibrary([lib, second], {
      log: (message, details) => logged.push({ message, details }),
    });
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const all = () => [...scanned.files.values()];

  it('skips a text file named like an episode, and a link to a file outside the library, with a log line', () => {
    expect(findMedia(scanned, episode('Show', '1', 1, 1)).map((f) => f.name)).toEqual(['Show S01E01.mp4']);
    expect(findMedia(scanned, episode('Show', '1', 1, 3))).toEqual([]);
    expect(findMedia(scanned, episode('Show', '1', 1, 4))).toEqual([]);
    expect(all().some((f) => f.path === '/etc/passwd' || f.path.startsWith(outside))).toBe(false);
    expect(findMedia(scanned, movie('Secret', 2001, '1'))).toEqual([]);
    expect(logged).toEqual(
      expect.arrayContaining([
        {
          message: 'library: skipped a file whose content is not a video container',
          details: { path: path.join(lib, 'TV/Show (2008)/Season 01/x S01E03.mp4') },
        },
        expect.objectContaining({
          message: 'library: skipped a link that leads outside the library folders',
          details: {
            path: path.join(lib, 'TV/Show (2008)/Season 01/Show S01E04.mp4'),
            target: '/etc/passwd',
          },
        }),
        expect.objectContaining({
          details: expect.objectContaining({ path: path.join(lib, 'Linked folder') }),
        }),
      ]),
    );
  });

  it('follows links that resolve inside a library folder (also into another configured folder), serving the real file', () => {
    const [up] = findMedia(scanned, movie('Up', 2009, '14160'));
    expect(up).toMatchObject({
      name: 'Up (2009) [tmdbid-14160].mp4',
      path: path.join(lib, '.store/abc123'),
      format: 'mp4',
    });
    const [alien] = findMedia(scanned, movie('Alien', 1979, '348'));
    expect(alien!.path.startsWith(second)).toBe(true);
  });

  it('takes several library folders from MEDIA_LIBRARY_DIR, separated like PATH', () => {
    expect(libraryRoots(`${lib}${path.delimiter} ${second}/ ${path.delimiter}`)).toEqual([lib, second]);
    expect(libraryRoots('relative/media')).toEqual([path.resolve('relative/media')]);
  });

  it('reads the format from the content, and skips subtitles that are not text', () => {
    const [heat] = findMedia(scanned, movie('Heat', 1995, '949'));
    expect(heat).toMatchObject({ format: 'matroska', subtitles: [] });
  });

  it('logs each skipped path once however often it rescans', async () => {
    const before = logged.length;
    await scanLibrary([lib, second], { log: (message, details) => logged.push({ message, details }) });
    // A new memory logs again; the indexer keeps one memory across its scans.
    expect(logged.length).toBeGreaterThan(before);
    const lines: string[] = [];
    const indexer = new LibraryIndexer([lib, second], {
      maxAgeMs: 0,
      now: () => 0,
      log: (m) => lines.push(m),
    });
    await indexer.get();
    const once = lines.length;
    expect(once).toBeGreaterThan(0);
    await indexer.get();
    expect(lines.length).toBe(once);
  });

  it('stops serving a file that was swapped for a link leading outside, or for other content, after the scan', async () => {
    const episodeFile = write(path.join(lib, 'TV/Other (2008)/Season 01/Other S01E01.mp4'), mp4);
    const movieFile = write(path.join(lib, 'Movies/Brazil (1985)/Brazil (1985).mp4'), mp4);
    const indexer = new LibraryIndexer(lib, { maxAgeMs: 60_000, now: () => 0 });
    const index = await indexer.get();
    const [ep] = findMedia(index, episode('Other', '1', 1, 1));
    const [brazil] = findMedia(index, movie('Brazil', 1985, '68'));
    expect(await indexer.file(ep!.id)).toEqual({ ...ep, ino: expect.any(Number) });
    expect(await indexer.file(brazil!.id)).toEqual({ ...brazil, ino: expect.any(Number) });
    rmSync(episodeFile);
    symlinkSync('/etc/passwd', episodeFile);
    writeFileSync(
      movieFile,
      'now a text file, longer than it was before it was swapped...........................',
    );
    expect(await indexer.file(ep!.id)).toBeNull();
    expect(await indexer.file(brazil!.id)).toBeNull();
  });
});

describe('subtitles beside a video, Jellyfin/Plex style', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'marquee-library-subtitles-'));
  const write = (relative: string, content: string | Buffer) => {
    const full = path.join(base, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
  };
  const srt = '1\n00:00:01,000 --> 00:00:02,000\nHello\n';
  const ass =
    '[Script Info]\nScriptType: v4.00+\n\n[Events]\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,Hi\n';
  const pgs = Buffer.from([0x50, 0x47, 0, 0, 0x38, 0x40, 0, 0, 0, 0, 0x16, 0, 0x13]);
  let scanned: LibraryIndex;
  const logged: string[] = [];

  beforeAll(async () => {
    const movieDir = 'Dune (2021)';
    write(`${movieDir}/Dune (2021).mkv`, Buffer.concat([EBML_HEAD, Buffer.alloc(64)]));
    write(`${movieDir}/Dune (2021) - 720p.mp4`, Buffer.concat([MP4_HEAD, Buffer.alloc(64)]));
    write(`${movieDir}/Dune (2021).en.srt`, srt);
    write(`${movieDir}/Dune (2021).fr.forced.srt`, srt);
    write(`${movieDir}/Dune (2021).en.sdh.srt`, srt);
    write(`${movieDir}/Dune (2021).de.hi.vtt`, `WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHallo\n`);
    write(`${movieDir}/Dune (2021).es.cc.default.srt`, srt);
    write(`${movieDir}/Dune (2021).Director's Commentary.en.srt`, srt);
    write(`${movieDir}/Dune (2021).ja.ass`, ass);
    write(`${movieDir}/Dune (2021).ko.ssa`, ass.replace('v4.00+', 'v4.00'));
    write(`${movieDir}/Dune (2021).en.sup`, pgs);
    // Named like subtitles, holding something else.
    write(`${movieDir}/Dune (2021).it.ass`, srt);
    write(`${movieDir}/Dune (2021).pt.sup`, 'not a PGS stream');
    // Another version's subtitles belong to it alone.
    write(`${movieDir}/Dune (2021) - 720p.nl.srt`, srt);
    scanned = await scanLibrary(base, { log: (message) => logged.push(message) });
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  const summary = (s: LibrarySubtitle) => [
    s.name.replace('Dune (2021)', ''),
    s.language,
    s.format,
    s.type,
    s.forced,
    s.hearingImpaired,
    s.isDefault,
    s.label,
  ];

  it('reads language, forced, hearing-impaired, default and label from the name, for SRT, VTT, ASS, SSA and PGS', () => {
    const files = findMedia(scanned, movie('Dune', 2021, '438631'));
    const small = files.find((f) => f.name === 'Dune (2021) - 720p.mp4');
    const main = files.find((f) => f.name === 'Dune (2021).mkv');
    expect(small!.name).toBe('Dune (2021) - 720p.mp4');
    expect(small!.subtitles.map(summary)).toEqual([
      [' - 720p.nl.srt', 'nl', 'srt', 'srt', false, false, false, null],
    ]);
    expect(main!.name).toBe('Dune (2021).mkv');
    expect(main!.format).toBe('matroska');
    expect(main!.subtitles.map(summary)).toEqual([
      ['.de.hi.vtt', 'de', 'vtt', 'vtt', false, true, false, null],
      [".Director's Commentary.en.srt", 'en', 'srt', 'srt', false, false, false, "Director's Commentary"],
      ['.en.sdh.srt', 'en', 'srt', 'srt', false, true, false, null],
      ['.en.srt', 'en', 'srt', 'srt', false, false, false, null],
      ['.en.sup', 'en', 'sup', 'vtt', false, false, false, null],
      ['.es.cc.default.srt', 'es', 'srt', 'srt', false, true, true, null],
      ['.fr.forced.srt', 'fr', 'srt', 'srt', true, false, false, null],
      ['.ja.ass', 'ja', 'ass', 'vtt', false, false, false, null],
      ['.ko.ssa', 'ko', 'ssa', 'vtt', false, false, false, null],
    ]);
    for (const subtitle of main!.subtitles) expect(scanned.files.get(subtitle.id)).toBe(subtitle);
  });

  it('skips ASS without its [Script Info] and SUP without the PGS magic, and says so', () => {
    expect(scanned.stats.skipped.map((s) => [path.basename(s.path), s.reason])).toEqual([
      ['Dune (2021).it.ass', 'not_subtitles'],
      ['Dune (2021).pt.sup', 'not_subtitles'],
    ]);
    expect(logged).toContain('library: skipped a file whose content is not subtitles');
  });
});

describe(`the library with ffprobe (${testDialect})`, () => {
  const base = mkdtempSync(path.join(tmpdir(), 'marquee-library-probed-'));
  const at = (relative: string) => path.join(base, relative);
  let database: TestDatabase;
  let prober: MediaProber;

  const ffmpeg = async (relative: string, ...args: string[]) => {
    mkdirSync(path.dirname(at(relative)), { recursive: true });
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args, at(relative)]);
  };
  const picture = ['-f', 'lavfi', '-i', 'testsrc2=s=160x90:d=1:r=10'];

  beforeAll(async () => {
    await Promise.all([
      ffmpeg('Movies/Heat (1995)/Heat (1995).avi', ...picture, '-c:v', 'mpeg4'),
      ffmpeg('Movies/Alien (1979)/Alien (1979).ts', ...picture, '-c:v', 'libx264', '-preset', 'ultrafast'),
      ffmpeg('Movies/Brazil (1985)/Brazil (1985).wmv', ...picture, '-c:v', 'wmv2'),
      ffmpeg('Movies/Up (2009)/Up (2009).mkv', ...picture, '-c:v', 'libx264', '-preset', 'ultrafast'),
      ffmpeg('Movies/Up (2009)/Up (2009) - 480p.mp4', ...picture, '-c:v', 'libx264', '-preset', 'ultrafast'),
      // Music named like a film: ffprobe reads it, but it has no picture.
      ffmpeg('Movies/Fargo (1996)/Fargo (1996).mkv', '-f', 'lavfi', '-i', 'sine=d=1', '-c:a', 'libopus'),
    ]);
    writeFileSync(at('Movies/Fargo (1996)/Fargo (1996) - notes.avi'), 'root:x:0:0:root:/root:/bin/bash\n');
  }, 60_000);
  beforeEach(async () => {
    database = await createTestDatabase();
    prober = new MediaProber({
      repository: new MediaProbesRepository(database.db),
      ffprobePath: 'ffprobe',
      now: () => 1_000,
    });
  });
  afterEach(async () => database.destroy());
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('indexes every container ffmpeg reads that holds a video stream, with its media info', async () => {
    const index = await scanLibrary(base, { prober });
    const one = (title: string, year: number) => findMedia(index, movie(title, year, '1'));
    expect(one('Heat', 1995).map((f) => [f.format, f.info?.formatName, f.info?.video?.codec])).toEqual([
      ['other', 'avi', 'mpeg4'],
    ]);
    expect(one('Alien', 1979).map((f) => [f.format, f.info?.formatName, f.info?.video?.codec])).toEqual([
      ['other', 'mpegts', 'h264'],
    ]);
    expect(one('Brazil', 1985).map((f) => [f.format, f.info?.formatName])).toEqual([['other', 'asf']]);
    expect(
      one('Up', 2009)
        .map((f) => [f.name, f.format, f.quality, f.info?.video?.width])
        .sort(),
    ).toEqual([
      ['Up (2009) - 480p.mp4', 'mp4', '480', 160],
      ['Up (2009).mkv', 'matroska', 'unknown', 160],
    ]);
    expect(one('Fargo', 1996)).toEqual([]);
    expect(index.stats.skipped.map((s) => [path.basename(s.path), s.reason, s.detail])).toEqual([
      ['Fargo (1996) - notes.avi', 'not_video', 'Invalid data found when processing input'],
      ['Fargo (1996).mkv', 'no_video_stream', 'matroska,webm'],
    ]);
    expect(index.stats).toMatchObject({ checked: 7, probed: 7, probeFailures: 0, skippedCount: 2 });
  });

  it('probes only what changed: nothing on a rescan, nothing after a restart (the database), one changed file', async () => {
    const memory = emptyScanMemory();
    expect((await scanLibrary(base, { prober, memory })).stats.probed).toBe(7);
    expect((await scanLibrary(base, { prober, memory })).stats.probed).toBe(0);
    // A new process: an empty memory, the same database.
    const restarted = new MediaProber({
      repository: new MediaProbesRepository(database.db),
      ffprobePath: 'ffprobe',
      now: () => 2_000,
    });
    const afterRestart = emptyScanMemory();
    expect((await scanLibrary(base, { prober: restarted, memory: afterRestart })).stats).toMatchObject({
      checked: 7,
      probed: 0,
    });
    const changed = at('Movies/Heat (1995)/Heat (1995).avi');
    const later = new Date(Date.now() + 60_000);
    utimesSync(changed, later, later);
    const rescan = await scanLibrary(base, { prober: restarted, memory: afterRestart });
    expect(rescan.stats.probed).toBe(1);
    expect(Math.round(findMedia(rescan, movie('Heat', 1995, '1'))[0]!.mtimeMs)).toBe(later.getTime());
  });

  it('tries a file ffprobe could not answer for again at the next scan', async () => {
    const broken = new MediaProber({
      repository: new MediaProbesRepository(database.db),
      ffprobePath: path.join(base, 'no-such-ffprobe'),
      now: () => 1_000,
    });
    const memory = emptyScanMemory();
    const logged: string[] = [];
    const log = (message: string) => logged.push(message);
    const first = await scanLibrary(base, { prober: broken, memory, log });
    expect(first.files.size).toBe(0);
    expect(first.stats).toMatchObject({ probeFailures: 7, skippedCount: 7 });
    expect(first.stats.skipped[0]).toMatchObject({
      reason: 'probe_failed',
      detail: expect.stringMatching(/not found/),
    });
    expect(logged.filter((m) => m.startsWith('library: ffprobe could not read'))).toHaveLength(7);
    // Nothing was remembered: with ffprobe back, every file is indexed.
    const second = await scanLibrary(base, { prober, memory, log });
    expect(second.stats).toMatchObject({ probed: 7, probeFailures: 0 });
    expect([...second.files.values()].filter((f) => f.kind === 'video')).toHaveLength(5);
  });

  it('without ffprobe indexes only MP4 and Matroska content, and says why it skipped the rest', async () => {
    const index = await scanLibrary(base);
    // Fargo's first bytes are Matroska: only ffprobe sees that it holds no picture.
    expect([...index.files.values()].map((f) => f.name).sort()).toEqual([
      'Fargo (1996).mkv',
      'Up (2009) - 480p.mp4',
      'Up (2009).mkv',
    ]);
    const reasons = Object.fromEntries(index.stats.skipped.map((s) => [path.basename(s.path), s.reason]));
    expect(reasons).toEqual({
      'Alien (1979).ts': 'needs_ffprobe',
      'Brazil (1985).wmv': 'not_video',
      'Heat (1995).avi': 'not_video',
      'Fargo (1996) - notes.avi': 'not_video',
    });
    expect(findMedia(index, movie('Fargo', 1996, '1'))).toHaveLength(1);
  });

  it('serves a file changed since the scan with what ffprobe says now', async () => {
    const indexer = new LibraryIndexer(base, { maxAgeMs: 60_000, now: () => 0, prober });
    const [mkv] = findMedia(await indexer.get(), movie('Up', 2009, '1')).filter(
      (f) => f.format === 'matroska',
    );
    expect(await indexer.file(mkv!.id)).toEqual({ ...mkv, ino: expect.any(Number) });
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', 'testsrc2=s=320x180:d=1:r=10', '-c:v', 'libx264', '-preset', 'ultrafast'],
      mkv!.path,
    ]);
    const now = (await indexer.file(mkv!.id)) as LibraryVideo;
    expect(now.info?.video?.width).toBe(320);
    expect(now.size).not.toBe(mkv!.size);
    // Replaced by something that is not a video: no longer served.
    writeFileSync(mkv!.path, 'gone');
    expect(await indexer.file(mkv!.id)).toBeNull();
    await indexer.close();
  });
});

describe('LibraryIndexer status, scans on demand, and the folder watcher', () => {
  const base = mkdtempSync(path.join(tmpdir(), 'marquee-library-watch-'));
  const mp4 = Buffer.concat([MP4_HEAD, Buffer.alloc(64)]);
  const write = (relative: string, content: string | Buffer = mp4) => {
    const full = path.join(base, relative);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, content);
    return full;
  };
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  it('reports counts, times and skipped files; starts one scan at a time on demand', async () => {
    write('Movies/Alien (1979).mp4');
    write('Movies/Alien (1979).en.srt', '1\n00:00:01,000 --> 00:00:02,000\nHi\n');
    write('TV/Dark/Season 1/Dark S01E01.mp4');
    write('TV/Dark/Season 1/Dark S01E02.mp4', 'text');
    let clock = 5_000;
    const indexer = new LibraryIndexer(base, { maxAgeMs: 60_000, now: () => clock });
    expect(indexer.status()).toEqual({
      scanning: false,
      startedAt: null,
      finishedAt: null,
      lastDurationMs: null,
      videos: 0,
      movies: 0,
      shows: 0,
      subtitles: 0,
      checked: 0,
      probed: 0,
      probeFailures: 0,
      skipped: [],
      skippedCount: 0,
      watching: false,
      probing: false,
    });
    expect(indexer.scanNow()).toBe(true);
    expect(indexer.status().scanning).toBe(true);
    expect(indexer.scanNow()).toBe(false);
    await vi.waitFor(() => expect(indexer.status().scanning).toBe(false));
    expect(indexer.status()).toMatchObject({
      startedAt: 5_000,
      finishedAt: 5_000,
      videos: 2,
      movies: 1,
      shows: 1,
      subtitles: 1,
      checked: 4,
      skipped: [
        { path: path.join(base, 'TV/Dark/Season 1/Dark S01E02.mp4'), reason: 'not_video', detail: null },
      ],
      skippedCount: 1,
    });
    expect(indexer.status().lastDurationMs).toBeGreaterThanOrEqual(0);
    clock = 9_000;
    expect(indexer.scanNow()).toBe(true);
    await vi.waitFor(() => expect(indexer.status()).toMatchObject({ scanning: false, finishedAt: 9_000 }));
    await indexer.close();
    expect(indexer.scanNow()).toBe(false);
  });

  it('follows files added, changed and removed in the folders, and stops when closed', async () => {
    const indexer = new LibraryIndexer(base, {
      maxAgeMs: 3_600_000,
      now: () => Date.now(),
      watchDebounceMs: 100,
    });
    await indexer.get();
    await indexer.startWatching();
    expect(indexer.status().watching).toBe(true);
    const has = async (title: string, year: number) =>
      findMedia(await indexer.get(), movie(title, year, '1')).length > 0;

    const added = write('Movies/Brazil (1985)/Brazil (1985).mp4');
    await vi.waitFor(async () => expect(await has('Brazil', 1985)).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    // A file that becomes a video once written: a change.
    const late = write('Movies/Heat (1995).mp4', 'partial');
    await vi.waitFor(() => expect(indexer.status().skipped.map((s) => s.path)).toContain(late), {
      timeout: 10_000,
      interval: 50,
    });
    writeFileSync(late, mp4);
    await vi.waitFor(async () => expect(await has('Heat', 1995)).toBe(true), {
      timeout: 10_000,
      interval: 50,
    });
    rmSync(added);
    await vi.waitFor(async () => expect(await has('Brazil', 1985)).toBe(false), {
      timeout: 10_000,
      interval: 50,
    });
    // Files that cannot change the index (artwork, .nfo) start no scan.
    const finished = indexer.status().finishedAt;
    write('Movies/Heat (1995).nfo', '<movie/>');
    write('Movies/folder.jpg', 'jpeg');
    write('Movies/Alien (1979).fr.srt', '1\n00:00:01,000 --> 00:00:02,000\nSalut\n');
    await vi.waitFor(
      async () =>
        expect(
          findMedia(await indexer.get(), movie('Alien', 1979, '1'))[0]!.subtitles.map((s) => s.language),
        ).toEqual(['en', 'fr']),
      { timeout: 10_000, interval: 50 },
    );
    expect(indexer.status().finishedAt).toBeGreaterThan(finished!);

    await indexer.close();
    expect(indexer.status().watching).toBe(false);
    const before = indexer.status().finishedAt;
    write('Movies/Up (2009).mp4');
    // Closed: nothing watches any more, and no scan can start.
    expect(indexer.scanNow()).toBe(false);
    expect(indexer.status().finishedAt).toBe(before);
  });
});
