import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScrapeMedia } from '@marquee/providers';
import { findMedia, LibraryIndexer, libraryFileId, scanLibrary, type LibraryIndex } from './library-index.ts';
import { libraryStream } from './library-source.ts';
import { libraryRoots } from './sources.module.ts';

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
    expect(file!.subtitles.map((s) => [s.language, s.type])).toEqual([
      ['en', 'srt'],
      ['fr', 'vtt'],
    ]);
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

describe('libraryStream', () => {
  it('makes one file stream: a quality per file (MP4 first), Matroska as webm, captions of all files', () => {
    const stream = libraryStream(
      findMedia(index, movie('Inception', 2010, '1')),
      (f) => `https://m.example/${f.name}`,
    )!;
    expect(stream.qualities).toEqual({
      '1080': { type: 'webm', url: 'https://m.example/Inception (2010) - 1080p.mkv' },
      '720': { type: 'mp4', url: 'https://m.example/Inception (2010) - 720p.mp4' },
    });
    expect(stream.captions).toEqual([
      expect.objectContaining({
        language: 'de',
        type: 'srt',
        url: 'https://m.example/Inception (2010) - 720p.de.srt',
        needsProxy: false,
      }),
    ]);
    expect(libraryStream([], () => '')).toBeNull();
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
      container: 'mp4',
    });
    const [alien] = findMedia(scanned, movie('Alien', 1979, '348'));
    expect(alien!.path.startsWith(second)).toBe(true);
  });

  it('takes several library folders from MEDIA_LIBRARY_DIR, separated like PATH', () => {
    expect(libraryRoots(`${lib}${path.delimiter} ${second}/ ${path.delimiter}`)).toEqual([lib, second]);
    expect(libraryRoots('relative/media')).toEqual([path.resolve('relative/media')]);
  });

  it('reads the container from the content, and skips subtitles that are not text', () => {
    const [heat] = findMedia(scanned, movie('Heat', 1995, '949'));
    expect(heat).toMatchObject({ container: 'webm', subtitles: [] });
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
    expect(await indexer.file(ep!.id)).toBe(ep);
    expect(await indexer.file(brazil!.id)).toBe(brazil);
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
