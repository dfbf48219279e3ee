import { describe, expect, it } from 'vitest';
import {
  cleanListName,
  continueWatching,
  isWorthResuming,
  libraryKey,
  listNames,
  MAX_LIST_NAME,
  resumeEpisode,
  sortBookmarks,
  type BookmarkEntry,
  type ProgressEntry,
} from './library-rules.ts';

const movie = (id: string, watched: number, duration: number, updatedAt: number): ProgressEntry => ({
  tmdbId: id,
  type: 'movie',
  title: `M${id}`,
  year: 2000,
  poster: null,
  updatedAt,
  progress: { watched, duration },
  seasons: {},
  episodes: {},
});
const show = (
  id: string,
  episodes: Array<[season: number, episode: number, watched: number, updatedAt: number]>,
): ProgressEntry => {
  const entry: ProgressEntry = {
    tmdbId: id,
    type: 'show',
    title: `S${id}`,
    year: 2000,
    poster: null,
    updatedAt: 0,
    seasons: {},
    episodes: {},
  };
  for (const [s, e, watched, updatedAt] of episodes) {
    entry.seasons[`s${s}`] = { id: `s${s}`, number: s, title: '' };
    entry.episodes[`s${s}e${e}`] = {
      id: `s${s}e${e}`,
      number: e,
      title: '',
      seasonId: `s${s}`,
      updatedAt,
      progress: { watched, duration: 3000 },
    };
    entry.updatedAt = Math.max(entry.updatedAt, updatedAt);
  }
  return entry;
};
const bookmark = (type: 'movie' | 'show', id: string, updatedAt: number): BookmarkEntry => ({
  tmdbId: id,
  type,
  title: id,
  year: 2000,
  poster: null,
  updatedAt,
});

describe('library rules', () => {
  it('worth resuming: at least 20 s watched and more than 120 s left', () => {
    expect(isWorthResuming({ watched: 19, duration: 1000 })).toBe(false);
    expect(isWorthResuming({ watched: 20, duration: 1000 })).toBe(true);
    expect(isWorthResuming({ watched: 880, duration: 1000 })).toBe(false);
    expect(isWorthResuming({ watched: 879, duration: 1000 })).toBe(true);
  });

  it('a show resumes at its most recently updated episode, skipping S1E1 under 20 s', () => {
    expect(
      resumeEpisode(
        show('1', [
          [1, 3, 500, 10],
          [1, 4, 600, 20],
        ]),
      )?.id,
    ).toBe('s1e4');
    expect(
      resumeEpisode(
        show('1', [
          [1, 3, 500, 10],
          [1, 1, 5, 20],
        ]),
      )?.id,
    ).toBe('s1e3');
    expect(
      resumeEpisode(
        show('1', [
          [1, 3, 500, 10],
          [1, 1, 25, 20],
        ]),
      )?.id,
    ).toBe('s1e1');
    expect(resumeEpisode(show('1', [[2, 1, 5, 20]]))?.id).toBe('s2e1');
  });

  it('continue watching: worth resuming, not bookmarked, most recent first; movie and show of one id are distinct', () => {
    const progress = {
      [libraryKey('movie', '1')]: movie('1', 100, 5000, 30),
      [libraryKey('show', '1')]: show('1', [[1, 2, 100, 40]]),
      [libraryKey('movie', '2')]: movie('2', 10, 5000, 50),
      [libraryKey('movie', '3')]: movie('3', 100, 5000, 60),
    };
    const items = continueWatching(progress, { [libraryKey('movie', '3')]: bookmark('movie', '3', 1) });
    expect(items.map((i) => `${i.entry.type}:${i.entry.tmdbId}`)).toEqual(['show:1', 'movie:1']);
  });

  it("continue watching orders a show by the title's last update, not its resume episode's", () => {
    // The show's pilot was opened last (a few seconds: not where it resumes); the title is still the
    // most recently updated one (Continue Watching is sorted by most recent update).
    const progress = {
      [libraryKey('show', '7')]: show('7', [
        [1, 2, 900, 40],
        [1, 1, 5, 70],
      ]),
      [libraryKey('movie', '8')]: movie('8', 100, 5000, 50),
    };
    const items = continueWatching(progress, {});
    expect(items.map((i) => `${i.entry.type}:${i.entry.tmdbId}`)).toEqual(['show:7', 'movie:8']);
    expect(items[0]!.episode?.id).toBe('s1e2');
  });

  it('bookmarks sort by the later of bookmark time and progress time', () => {
    const bookmarks = {
      [libraryKey('movie', 'a')]: bookmark('movie', 'a', 10),
      [libraryKey('movie', 'b')]: bookmark('movie', 'b', 20),
    };
    expect(sortBookmarks(bookmarks, {}).map((b) => b.tmdbId)).toEqual(['b', 'a']);
    expect(
      sortBookmarks(bookmarks, { [libraryKey('movie', 'a')]: movie('a', 1, 9, 30) }).map((b) => b.tmdbId),
    ).toEqual(['a', 'b']);
  });
});

describe('named lists', () => {
  const bookmark = (tmdbId: string, groups?: string[]): BookmarkEntry => ({
    tmdbId,
    type: 'movie',
    title: tmdbId,
    year: null,
    poster: null,
    updatedAt: 1,
    ...(groups ? { groups } : {}),
  });

  it('the viewer’s order first (empty lists kept), then names only bookmarks use, first seen first', () => {
    const bookmarks = {
      'movie:a': bookmark('a', ['Horror', 'Weekend']),
      'movie:b': bookmark('b'),
      'movie:c': bookmark('c', ['Kids', 'Horror']),
    };
    expect(listNames(bookmarks, ['Weekend', 'Empty'])).toEqual(['Weekend', 'Empty', 'Horror', 'Kids']);
    expect(listNames(bookmarks, [])).toEqual(['Horror', 'Weekend', 'Kids']);
    expect(listNames({}, ['Only'])).toEqual(['Only']);
  });

  it('a name is cleaned as the server takes it: trimmed, 1–100 characters, no control characters', () => {
    expect(MAX_LIST_NAME).toBe(100);
    expect(cleanListName('  Weekend ')).toBe('Weekend');
    expect(cleanListName('   ')).toBeNull();
    expect(cleanListName('')).toBeNull();
    expect(cleanListName('x'.repeat(100))).toBe('x'.repeat(100));
    expect(cleanListName(` ${'x'.repeat(100)} `)).toBe('x'.repeat(100));
    expect(cleanListName('x'.repeat(101))).toBeNull();
    expect(cleanListName('a\tb')).toBeNull();
    expect(cleanListName('a\u0000b')).toBeNull();
    expect(cleanListName('Films d’été 🎬')).toBe('Films d’été 🎬');
  });
});
