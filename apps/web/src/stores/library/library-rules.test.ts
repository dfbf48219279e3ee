import { describe, expect, it } from 'vitest';
import {
  airDayStart,
  cleanListName,
  CONTINUE_HIDDEN_KEPT,
  continueWatching,
  isWorthResuming,
  libraryKey,
  listNames,
  MAX_LIST_NAME,
  resumeEpisode,
  sortBookmarks,
  stoppedShows,
  validContinueHidden,
  withoutStop,
  withStop,
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

describe('stop watching a show (decision 102)', () => {
  const DAY = 86_400_000;
  const keys = (items: ReturnType<typeof continueWatching>) =>
    items.map((i) => `${i.entry.type}:${i.entry.tmdbId}`);
  // Show 1 last watched on day 10, show 2 on day 12, a movie on day 11.
  const progress = {
    [libraryKey('show', '1')]: show('1', [[1, 2, 900, 10 * DAY]]),
    [libraryKey('show', '2')]: show('2', [[1, 5, 900, 12 * DAY]]),
    [libraryKey('movie', '3')]: movie('3', 100, 5000, 11 * DAY),
  };
  const stopAt = 20 * DAY + 15 * 3_600_000; // day 20, 15:00 UTC

  it('a stopped show leaves the row; the others stay, in their order', () => {
    const hidden = { [libraryKey('show', '1')]: stopAt };
    expect(keys(continueWatching(progress, {}, hidden))).toEqual(['show:2', 'movie:3']);
    expect(keys(continueWatching(progress, {}, {}))).toEqual(['show:2', 'movie:3', 'show:1']);
  });

  it('watching it again (progress newer than the mark) brings it back', () => {
    const hidden = { [libraryKey('show', '1')]: stopAt };
    const watchedAgain = {
      ...progress,
      [libraryKey('show', '1')]: show('1', [
        [1, 2, 900, 10 * DAY],
        [1, 3, 300, stopAt + 1],
      ]),
    };
    expect(keys(continueWatching(watchedAgain, {}, hidden))).toEqual(['show:1', 'show:2', 'movie:3']);
    // Progress saved at the very time of the mark is what was hidden.
    const same = { ...progress, [libraryKey('show', '1')]: show('1', [[1, 2, 900, stopAt]]) };
    expect(keys(continueWatching(same, {}, hidden))).toEqual(['show:2', 'movie:3']);
  });

  it('an episode that airs after the day it was stopped brings it back; one of that day or before does not', () => {
    const hidden = { [libraryKey('show', '1')]: stopAt };
    const aired = (day: number) => ({ [libraryKey('show', '1')]: day * DAY });
    expect(keys(continueWatching(progress, {}, hidden, aired(21)))).toEqual(['show:2', 'movie:3', 'show:1']);
    expect(keys(continueWatching(progress, {}, hidden, aired(20)))).toEqual(['show:2', 'movie:3']);
    expect(keys(continueWatching(progress, {}, hidden, aired(5)))).toEqual(['show:2', 'movie:3']);
    // Another show's air date changes nothing for this one.
    expect(keys(continueWatching(progress, {}, hidden, { [libraryKey('show', '2')]: 30 * DAY }))).toEqual([
      'show:2',
      'movie:3',
    ]);
  });

  it('the shows whose air dates are worth asking for: stopped, not bookmarked, with something to resume', () => {
    const finished = show('4', [[1, 1, 2990, 9 * DAY]]);
    const all = {
      ...progress,
      [libraryKey('show', '4')]: finished,
      [libraryKey('show', '5')]: show('5', [[1, 2, 900, 8 * DAY]]),
    };
    const hidden = {
      [libraryKey('show', '1')]: stopAt,
      [libraryKey('show', '2')]: 11 * DAY, // watched since (day 12)
      [libraryKey('show', '4')]: stopAt, // nothing to resume: not in the row anyway
      [libraryKey('show', '5')]: stopAt, // on My List
      [libraryKey('movie', '3')]: stopAt,
    };
    const bookmarks = { [libraryKey('show', '5')]: bookmark('show', '5', 1) };
    expect(stoppedShows(all, bookmarks, hidden).map((e) => e.tmdbId)).toEqual(['1']);
  });

  it('an air date is the start of its day (UTC); anything else is none', () => {
    expect(airDayStart('2024-05-01')).toBe(Date.UTC(2024, 4, 1));
    for (const bad of [null, undefined, '', '2024-5-1', '2024-05-01T10:00:00Z', 'soon'])
      expect(airDayStart(bad)).toBeNull();
  });

  it('marks: a stop replaces the same show’s, the newest 200 are kept; undo restores what was there', () => {
    const many = Object.fromEntries(
      Array.from({ length: CONTINUE_HIDDEN_KEPT }, (_, i) => [`show:${i}`, i + 1]),
    );
    const next = withStop(many, 'show:new', 5000);
    expect(Object.keys(next)).toHaveLength(CONTINUE_HIDDEN_KEPT);
    expect(next['show:new']).toBe(5000);
    expect(next['show:0']).toBeUndefined();
    expect(withStop({ 'show:1': 10 }, 'show:1', 20)).toEqual({ 'show:1': 20 });

    expect(withoutStop({ 'show:1': 20, 'show:2': 3 }, 'show:1', 20, undefined)).toEqual({ 'show:2': 3 });
    expect(withoutStop({ 'show:1': 20 }, 'show:1', 20, 10)).toEqual({ 'show:1': 10 });
    // Stopped again since (here or on another device): that stop stays.
    const later = { 'show:1': 30 };
    expect(withoutStop(later, 'show:1', 20, undefined)).toBe(later);
  });

  it('valid marks: keys of 1–40 characters, times whole and not negative; anything but a map is none', () => {
    expect(
      validContinueHidden({
        'show:1': 5,
        '': 1,
        ['s'.repeat(41)]: 1,
        'show:2': -1,
        'show:3': 0.5,
        'show:4': '9',
      }),
    ).toEqual({ 'show:1': 5 });
    for (const bad of [null, undefined, 5, 'show:1', ['show:1']]) expect(validContinueHidden(bad)).toBeNull();
  });
});
