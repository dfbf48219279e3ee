import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScrapeMedia } from '@marquee/providers';
import { findMedia, LibraryIndexer, libraryFileId, scanLibrary, type LibraryIndex } from './library-index.ts';
import { libraryStream } from './library-source.ts';

const root = mkdtempSync(path.join(tmpdir(), 'marquee-library-'));
const put = (relative: string, content = 'x') => {
  const full = path.join(root, relative);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, content);
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
  index = await scanLibrary(root, 1000);
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
    expect(names(movie('Inception', 2010, '27205'))).toEqual(['Inception (2010) - 1080p.mkv', 'Inception (2010) - 720p.mp4']);
    expect(names(movie('Inception', 2011, '27205'))).toEqual([]);
    expect(names(movie('AMELIE', 2001, '194'))).toEqual(['movie.mkv']);
  });

  it('matches by IMDb id when the name has one', () => {
    expect(names(movie('Heat', 1995, '949', 'tt0113277'))).toEqual(['Heat.mp4']);
  });

  it('follows symbolic links and skips hidden files and broken links', () => {
    expect(names(movie('Up', 2009, '14160'))).toEqual(['Up (2009).mp4']);
    expect([...index.files.values()].some((f) => f.name.startsWith('.hidden') || f.name === 'broken-link.mp4')).toBe(false);
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
    const stream = libraryStream(findMedia(index, movie('Inception', 2010, '1')), (f) => `https://m.example/${f.name}`)!;
    expect(stream.qualities).toEqual({
      '1080': { type: 'webm', url: 'https://m.example/Inception (2010) - 1080p.mkv' },
      '720': { type: 'mp4', url: 'https://m.example/Inception (2010) - 720p.mp4' },
    });
    expect(stream.captions).toEqual([
      expect.objectContaining({ language: 'de', type: 'srt', url: 'https://m.example/Inception (2010) - 720p.de.srt', needsProxy: false }),
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
