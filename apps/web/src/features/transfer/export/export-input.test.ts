import { describe, expect, it } from 'vitest';
import type { UserSettings } from '@marquee/contract';
import { mergeInBulk } from '../../../stores/library/bulk-merge.ts';
import { playKey, type PlayEntry } from '../../../stores/library/history-rules.ts';
import { libraryKey, type ProgressEntry } from '../../../stores/library/library-rules.ts';
import {
  exportLetterboxdCsv,
  exportPStreamBackup,
  parse,
  type ImportRecord,
  type ImportResult,
} from '../formats/index.ts';
import { textFile, zipFile } from '../formats/test-files.ts';
import { backupOrder, defaultChoices, planImport, titleQueries } from '../import/import-plan.ts';
import { backupInput, isLibraryEmpty, letterboxdInput, type ExportLibrary } from './export-input.ts';

const ms = (iso: string) => Date.parse(iso);
const heat = { tmdbId: '949', type: 'movie', title: 'Heat', year: 1995, poster: null } as const;
const amelie = {
  tmdbId: '194',
  type: 'movie',
  title: 'Amélie, "le fabuleux destin"',
  year: 2001,
  poster: 'https://image.tmdb.org/t/p/w342/amelie.jpg',
} as const;
const perfectBlue = {
  tmdbId: '10494',
  type: 'movie',
  title: 'Perfect Blue',
  year: 1997,
  poster: null,
} as const;
const bb = {
  tmdbId: '1396',
  type: 'show',
  title: 'Breaking Bad',
  year: 2008,
  poster: 'https://image.tmdb.org/t/p/w342/bb.jpg',
} as const;
const s1 = { id: '3572', number: 1, title: 'Season 1' };
const s2 = { id: '3573', number: 2, title: 'Season 2' };

const episode = (id: string, number: number, seasonId: string, watched: number, at: string) => ({
  id,
  number,
  title: '',
  seasonId,
  updatedAt: ms(at),
  progress: { watched, duration: 2880 },
});

const play = (
  meta: typeof heat | typeof amelie | typeof bb,
  watchedAt: string,
  rest: Partial<PlayEntry> = {},
) => {
  const entry: PlayEntry = {
    ...meta,
    watchedAt: ms(watchedAt),
    watched: 5000,
    duration: 5400,
    completed: true,
    updatedAt: ms(watchedAt) + 1000,
    ...rest,
  };
  return [playKey({ ...entry, episodeId: entry.episode?.id }), entry] as const;
};

const bbProgress: ProgressEntry = {
  ...bb,
  updatedAt: ms('2024-03-05T21:00:00.000Z'),
  seasons: { [s1.id]: s1, [s2.id]: s2 },
  episodes: {
    '62085': episode('62085', 1, s1.id, 1200, '2024-03-04T21:00:00.000Z'),
    '62093': episode('62093', 1, s2.id, 60, '2024-03-05T21:00:00.000Z'),
  },
};

/** A bookmarked movie and show, a film on My List only, movie and episode progress, plays with a rewatch. */
const LIBRARY: ExportLibrary = {
  bookmarks: {
    [libraryKey('movie', heat.tmdbId)]: { ...heat, updatedAt: ms('2024-03-02T10:00:00.000Z') },
    [libraryKey('show', bb.tmdbId)]: { ...bb, updatedAt: ms('2024-03-01T10:00:00.000Z') },
    [libraryKey('movie', perfectBlue.tmdbId)]: { ...perfectBlue, updatedAt: ms('2024-03-03T10:00:00.000Z') },
  },
  progress: {
    [libraryKey('movie', amelie.tmdbId)]: {
      ...amelie,
      updatedAt: ms('2024-03-03T20:00:00.000Z'),
      progress: { watched: 3600, duration: 7320 },
      seasons: {},
      episodes: {},
    },
    [libraryKey('show', bb.tmdbId)]: bbProgress,
  },
  history: Object.fromEntries([
    play(heat, '2024-01-05T20:00:00.000Z'),
    // The rewatch: Letterboxd's diary marks it, the backup keeps both plays.
    play(heat, '2024-02-01T22:30:00.000Z', { watched: 5300.4 }),
    play(amelie, '2024-01-08T19:00:00.000Z', { completed: false, watched: 4000 }),
    play(bb, '2024-02-02T22:00:00.000Z', {
      season: s1,
      episode: { id: '62085', number: 1, title: 'Pilot' },
      watched: 3400,
      duration: 3480,
    }),
  ]),
};

/** The synced settings as `readSyncedSettings` gives them: some set, some not (null). */
const SETTINGS: Partial<UserSettings> = {
  applicationLanguage: 'fr',
  applicationTheme: 'teal',
  defaultSubtitleLanguage: 'es',
  proxyUrls: null,
  enableAutoplay: false,
  subtitleStyling: { color: '#e2e535', backgroundOpacity: 0.5, backgroundBlur: 0, size: 1.5, bold: true },
  defaultAudioLanguage: null,
  watchedThreshold: 0.8,
};

const sorted = <T>(items: readonly T[]) => items.map((item) => JSON.stringify(item)).sort();
const byKind = (result: ImportResult, kind: ImportRecord['kind']) =>
  result.records.filter((r) => r.kind === kind);

/** What the library holds, and what the file read back holds, in one comparable shape. */
const expected = {
  bookmarks: Object.values(LIBRARY.bookmarks).map((b) => [
    b.type,
    b.tmdbId,
    b.title,
    b.year,
    b.poster,
    new Date(b.updatedAt).toISOString(),
  ]),
  progress: Object.values(LIBRARY.progress).flatMap((entry) =>
    entry.type === 'movie'
      ? [
          [
            entry.type,
            entry.tmdbId,
            null,
            null,
            null,
            entry.progress!.watched,
            entry.progress!.duration,
            new Date(entry.updatedAt).toISOString(),
          ],
        ]
      : Object.values(entry.episodes).map((ep) => [
          entry.type,
          entry.tmdbId,
          ep.seasonId,
          entry.seasons[ep.seasonId]!.number,
          ep.id,
          ep.progress.watched,
          ep.progress.duration,
          new Date(ep.updatedAt).toISOString(),
        ]),
  ),
  plays: Object.values(LIBRARY.history).map((p) => [
    p.type,
    p.tmdbId,
    p.title,
    p.season?.id ?? null,
    p.season?.number ?? null,
    p.episode?.id ?? null,
    p.episode?.number ?? null,
    new Date(p.watchedAt).toISOString(),
    Math.round(p.watched),
    p.duration,
    p.completed,
  ]),
};

function readBack(result: ImportResult) {
  const title = (r: ImportRecord) => [r.title.type, r.title.tmdbId];
  return {
    bookmarks: byKind(result, 'bookmark').map((r) => [
      ...title(r),
      r.title.title,
      r.title.year ?? null,
      r.title.poster ?? null,
      r.updatedAt,
    ]),
    progress: byKind(result, 'progress').map((r) => [
      ...title(r),
      r.episode?.seasonTmdbId ?? null,
      r.episode?.season ?? null,
      r.episode?.tmdbId ?? null,
      r.progress!.watched,
      r.progress!.duration,
      r.progress!.updatedAt,
    ]),
    plays: byKind(result, 'play').map((r) => [
      ...title(r),
      r.title.title,
      r.episode?.seasonTmdbId ?? null,
      r.episode?.season ?? null,
      r.episode?.tmdbId ?? null,
      r.episode?.number ?? null,
      r.watchedAt,
      r.progress!.watched,
      r.progress!.duration,
      r.completed,
    ]),
  };
}

describe('the export input, from the library on this device', () => {
  it('gives the wire list items: seasons and episodes as {id, number}, whole seconds as strings', () => {
    const input = backupInput(LIBRARY, SETTINGS);
    expect(input.groupOrder).toEqual([]);
    expect(input.settings).toEqual(SETTINGS);
    expect(input.bookmarks).toContainEqual({
      tmdbId: '1396',
      meta: { title: 'Breaking Bad', year: 2008, poster: bb.poster, type: 'show' },
      group: [],
      favoriteEpisodes: [],
      updatedAt: '2024-03-01T10:00:00.000Z',
    });
    expect(input.progress).toContainEqual({
      tmdbId: '194',
      meta: { title: amelie.title, year: 2001, poster: amelie.poster, type: 'movie' },
      season: { id: null, number: null },
      episode: { id: null, number: null },
      watched: '3600',
      duration: '7320',
      updatedAt: '2024-03-03T20:00:00.000Z',
    });
    expect(input.progress).toContainEqual(
      expect.objectContaining({
        season: { id: '3573', number: 2 },
        episode: { id: '62093', number: 1 },
        watched: '60',
        updatedAt: '2024-03-05T21:00:00.000Z',
      }),
    );
    // Every play, oldest first; a movie's season and episode are `{}`.
    expect(input.watchHistory.map((p) => [p.tmdbId, p.watchedAt, p.watched, p.season, p.episode])).toEqual([
      ['949', '2024-01-05T20:00:00.000Z', '5000', {}, {}],
      ['194', '2024-01-08T19:00:00.000Z', '4000', {}, {}],
      ['949', '2024-02-01T22:30:00.000Z', '5300', {}, {}],
      ['1396', '2024-02-02T22:00:00.000Z', '3400', { id: '3572', number: 1 }, { id: '62085', number: 1 }],
    ]);
  });

  it('tells an empty library', () => {
    expect(isLibraryEmpty({ bookmarks: {}, progress: {}, history: {} })).toBe(true);
    expect(isLibraryEmpty(LIBRARY)).toBe(false);
    expect(isLibraryEmpty({ ...LIBRARY, bookmarks: {}, progress: {} })).toBe(false);
  });
});

describe('export and read back (issue 27: export everything, and bring it back whole)', () => {
  it('the backup, read by our own parser, holds the same bookmarks, progress, plays and settings', async () => {
    const text = exportPStreamBackup(backupInput(LIBRARY, SETTINGS), {
      now: new Date('2024-04-01T00:00:00.000Z'),
    });
    const result = await parse(textFile('marquee-backup-2024-04-01.json', text));
    expect(result.format).toBe('pstream');
    expect(result.skipped).toEqual([]);
    const back = readBack(result);
    expect(sorted(back.bookmarks)).toEqual(sorted(expected.bookmarks));
    expect(sorted(back.progress)).toEqual(sorted(expected.progress));
    // The earlier play of Heat waits beside p-stream's one-per-title shape, and comes back too.
    expect(back.plays).toHaveLength(4);
    expect(sorted(back.plays)).toEqual(sorted(expected.plays));
    // The settings come back under the settings endpoint's names; what was not set is left out.
    expect(result.settings).toEqual({
      applicationLanguage: 'fr',
      applicationTheme: 'teal',
      defaultSubtitleLanguage: 'es',
      enableAutoplay: false,
      subtitleStyling: SETTINGS.subtitleStyling,
      watchedThreshold: 0.8,
    });
  });

  it("the Letterboxd files hold the watched films on the viewer's days and My List's films", async () => {
    const files = exportLetterboxdCsv(letterboxdInput(LIBRARY), { timeZone: 'UTC' });
    expect(files['diary.csv'].split('\n')).toEqual([
      'Title,Year,tmdbID,WatchedDate,Rewatch',
      'Heat,1995,949,2024-01-05,false',
      '"Amélie, ""le fabuleux destin""",2001,194,2024-01-08,false',
      'Heat,1995,949,2024-02-01,true',
      '',
    ]);
    // My List's films; the show stays out (Letterboxd keeps no TV).
    expect(files['watchlist.csv']).toBe('Title,Year,tmdbID\nHeat,1995,949\nPerfect Blue,1997,10494\n');
    expect(files['ratings.csv']).toBeUndefined();

    const result = await parse(zipFile('marquee-letterboxd-2024-04-01.zip', { ...files }));
    expect(result.format).toBe('letterboxd');
    expect(byKind(result, 'play').map((r) => [r.title.tmdbId, r.watchedAt, r.rewatch])).toEqual([
      ['949', '2024-01-05T12:00:00.000Z', false],
      ['194', '2024-01-08T12:00:00.000Z', false],
      ['949', '2024-02-01T12:00:00.000Z', true],
    ]);
    expect(sorted(byKind(result, 'watchlist').map((r) => r.title.tmdbId))).toEqual(sorted(['949', '10494']));
  });
});

describe('named lists in the backup (decision 097)', () => {
  it('named lists, their order and favourite episodes come back: whole into an empty library, as no change into the same one', async () => {
    const library = {
      ...LIBRARY,
      bookmarks: {
        ...LIBRARY.bookmarks,
        [libraryKey('show', bb.tmdbId)]: {
          ...LIBRARY.bookmarks[libraryKey('show', bb.tmdbId)]!,
          groups: ['Crime', 'Rewatch'],
          favoriteEpisodes: ['62085'],
        },
        [libraryKey('movie', heat.tmdbId)]: {
          ...LIBRARY.bookmarks[libraryKey('movie', heat.tmdbId)]!,
          groups: ['Crime'],
        },
      },
      // An empty list (Someday) is kept; Crime only bookmarks name.
      groupOrder: ['Rewatch', 'Someday'],
    };
    const text = exportPStreamBackup(backupInput(library, {}), { now: new Date('2024-04-01T00:00:00.000Z') });
    const result = await parse(textFile('marquee-backup-2024-04-01.json', text));
    expect(result.groupOrder).toEqual(['Rewatch', 'Someday', 'Crime']);
    const { queries, known } = titleQueries(result.records);
    expect(queries).toEqual([]);
    const plan = planImport(result.records, new Map(), queries, defaultChoices(), known, {
      groupOrder: backupOrder([result]),
    });
    const into = mergeInBulk({ bookmarks: {}, progress: {}, history: {}, groupOrder: [] }, plan.ops);
    expect(into.data.bookmarks).toEqual(library.bookmarks);
    expect(into.data.groupOrder).toEqual(['Rewatch', 'Someday', 'Crime']);
    const same = mergeInBulk(library, plan.ops);
    expect(same.changed).toMatchObject({ bookmarks: {}, history: {} });
    expect(same.changed.lists).toBeUndefined();
  });
});

describe('ratings in the backup and the Letterboxd files (decision 103)', () => {
  const rated = (meta: typeof heat | typeof bb, rating: number, at: string) =>
    [libraryKey(meta.type, meta.tmdbId), { ...meta, rating, ratedAt: ms(at), updatedAt: ms(at) }] as const;
  const library: ExportLibrary = {
    ...LIBRARY,
    ratings: Object.fromEntries([
      rated(heat, 8, '2024-01-06T09:00:00.000Z'),
      rated(bb, 9, '2024-03-01T09:00:00.000Z'),
    ]),
  };

  it('a library with ratings only is not empty', () => {
    expect(isLibraryEmpty({ bookmarks: {}, progress: {}, history: {}, ratings: library.ratings })).toBe(
      false,
    );
  });

  it('the backup carries every rating: whole into an empty library, as no change into the same one', async () => {
    const text = exportPStreamBackup(backupInput(library, {}), { now: new Date('2024-04-01T00:00:00.000Z') });
    expect(JSON.parse(text).marquee.ratings).toHaveLength(2);
    const result = await parse(textFile('marquee-backup-2024-04-01.json', text));
    const { queries, known } = titleQueries(result.records);
    expect(queries).toEqual([]);
    const plan = planImport(result.records, new Map(), queries, defaultChoices(), known);
    // The film was watched in the file and the show's rating is the show's: neither adds a play.
    expect(plan.counts.ratings).toBe(2);
    expect(plan.leftOut).toEqual({});
    const into = mergeInBulk({ bookmarks: {}, progress: {}, history: {}, groupOrder: [] }, plan.ops);
    expect(into.data.ratings).toEqual(library.ratings);
    expect(mergeInBulk(library, plan.ops).changed.ratings).toBeUndefined();
  });

  it("Letterboxd's ratings.csv holds the films' ratings (no shows) and reads back as ratings", async () => {
    const files = exportLetterboxdCsv(letterboxdInput(library), { timeZone: 'UTC' });
    expect(files['ratings.csv']).toBe('Title,Year,tmdbID,imdbID,Rating10\nHeat,1995,949,,8\n');
    const result = await parse(zipFile('marquee-letterboxd-2024-04-01.zip', { ...files }));
    expect(byKind(result, 'rating').map((r) => [r.title.tmdbId, r.rating])).toEqual([['949', 8]]);
  });
});
