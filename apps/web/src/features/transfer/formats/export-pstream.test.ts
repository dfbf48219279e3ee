import type { UserSettings } from '@marquee/contract';
import { describe, expect, it } from 'vitest';
import {
  exportPStreamBackup,
  type PStreamBackupInput,
  type PStreamBookmarkInput,
  type PStreamHistoryInput,
  type PStreamProgressInput,
} from './export-pstream.ts';
import type { ImportRecord, ImportResult } from './model.ts';
import { parse } from './parse.ts';
import { textFile } from './test-files.ts';

const heat = { title: 'Heat', year: 1995, type: 'movie' };
const bb = {
  title: 'Breaking Bad',
  year: 2008,
  poster: 'https://image.tmdb.org/t/p/w342/bb.jpg',
  type: 'show',
};
const none = { id: null, number: null };

const SETTINGS = {
  id: 'user-1',
  applicationTheme: 'teal',
  applicationLanguage: 'fr',
  defaultSubtitleLanguage: 'en',
  proxyUrls: null,
  enableAutoplay: true,
  subtitleStyling: null,
  defaultAudioLanguage: 'ja',
  enableThumbnails: false,
  sourceOrder: ['a', 'b'],
  febboxKey: 'secret-febbox-key',
  traktKey: null,
} as unknown as UserSettings;

/** Our library, with what p-stream's keyed shape cannot hold: a second play, a movie and a show under one id. */
const LIBRARY: PStreamBackupInput = {
  bookmarks: [
    {
      tmdbId: '949',
      meta: { ...heat },
      group: [],
      favoriteEpisodes: [],
      updatedAt: '2024-03-02T10:00:00.000Z',
    },
    {
      tmdbId: '1396',
      meta: { ...bb },
      group: ['Crime', 'Rewatch'],
      favoriteEpisodes: ['62085', '62161'],
      updatedAt: '2024-03-01T10:00:00.000Z',
    },
    // A film whose TMDB id is the show's: TMDB numbers films and shows apart.
    {
      tmdbId: '1396',
      meta: { title: 'Nameless', year: null, type: 'movie' },
      group: [],
      favoriteEpisodes: [],
      updatedAt: '2024-03-03T10:00:00.000Z',
    },
  ],
  progress: [
    {
      tmdbId: '949',
      season: none,
      episode: none,
      meta: { ...heat },
      duration: '10200',
      watched: '3600',
      updatedAt: '2024-03-03T20:00:00.000Z',
    },
    {
      tmdbId: '1396',
      season: { id: '3572', number: 1 },
      episode: { id: '62085', number: 1 },
      meta: { ...bb },
      duration: '3480',
      watched: '1200',
      updatedAt: '2024-03-04T21:00:00.000Z',
    },
    {
      tmdbId: '1396',
      season: { id: '3572', number: 1 },
      episode: { id: '62086', number: 2 },
      meta: { ...bb },
      duration: '2880',
      watched: '60',
      updatedAt: '2024-03-05T21:00:00.000Z',
    },
    // p-stream would write season 0 for an unknown number: kept beside, as it is.
    {
      tmdbId: '1396',
      season: { id: '9999', number: null },
      episode: { id: '70000', number: 3 },
      meta: { ...bb },
      duration: '2880',
      watched: '100',
      updatedAt: '2024-03-06T21:00:00.000Z',
    },
  ],
  watchHistory: [
    {
      tmdbId: '949',
      season: {},
      episode: {},
      meta: { ...heat },
      duration: '10200',
      watched: '10100',
      watchedAt: '2024-01-01T22:00:00.000Z',
      completed: true,
    },
    {
      tmdbId: '949',
      season: {},
      episode: {},
      meta: { ...heat },
      duration: '10200',
      watched: '10150',
      watchedAt: '2024-02-01T22:00:00.000Z',
      completed: true,
    },
    {
      tmdbId: '1396',
      season: { id: '3572', number: 1 },
      episode: { id: '62085', number: 1 },
      meta: { ...bb },
      duration: '3480',
      watched: '3400',
      watchedAt: '2024-02-02T22:00:00.000Z',
      completed: false,
    },
  ],
  groupOrder: ['Rewatch', 'Crime'],
  settings: SETTINGS,
};

/** The records back as our library's wire items (what the import page will send). */
function libraryOf(result: ImportResult) {
  const of = (kind: ImportRecord['kind']) => result.records.filter((r) => r.kind === kind);
  const meta = (r: ImportRecord) => ({
    title: r.title.title,
    year: r.title.year ?? null,
    ...(r.title.poster ? { poster: r.title.poster } : {}),
    type: r.title.type!,
  });
  const bookmarks: PStreamBookmarkInput[] = of('bookmark').map((r) => ({
    tmdbId: r.title.tmdbId!,
    meta: meta(r),
    group: r.groups ?? [],
    favoriteEpisodes: of('favorite-episode')
      .filter((f) => f.title.tmdbId === r.title.tmdbId && f.title.type === r.title.type)
      .map((f) => f.episode!.tmdbId!),
    updatedAt: r.updatedAt!,
  }));
  const progress: PStreamProgressInput[] = of('progress').map((r) => ({
    tmdbId: r.title.tmdbId!,
    season: { id: r.episode?.seasonTmdbId ?? null, number: r.episode?.season ?? null },
    episode: { id: r.episode?.tmdbId ?? null, number: r.episode?.number ?? null },
    meta: meta(r),
    duration: String(r.progress!.duration),
    watched: String(r.progress!.watched),
    updatedAt: r.progress!.updatedAt!,
  }));
  const ref = (id?: string, number?: number) => ({
    ...(id ? { id } : {}),
    ...(number !== undefined ? { number } : {}),
  });
  const watchHistory: PStreamHistoryInput[] = of('play').map((r) => ({
    tmdbId: r.title.tmdbId!,
    season: ref(r.episode?.seasonTmdbId, r.episode?.season),
    episode: ref(r.episode?.tmdbId, r.episode?.number),
    meta: meta(r),
    duration: String(r.progress!.duration),
    watched: String(r.progress!.watched),
    watchedAt: r.watchedAt!,
    completed: r.completed!,
  }));
  return { bookmarks, progress, watchHistory, groupOrder: result.groupOrder, settings: result.settings };
}

const sorted = <T>(items: readonly T[]) => items.map((item) => JSON.stringify(item)).sort();

describe('exportPStreamBackup', () => {
  it("writes p-stream's backup shape, as its client keys it", () => {
    const backup = JSON.parse(exportPStreamBackup(LIBRARY, { now: new Date('2024-04-01T00:00:00.000Z') }));
    expect(backup.exportDate).toBe('2024-04-01T00:00:00.000Z');
    expect(backup.bookmarks['1396']).toEqual({
      title: 'Breaking Bad',
      year: 2008,
      poster: bb.poster,
      type: 'show',
      updatedAt: Date.parse('2024-03-01T10:00:00.000Z'),
      group: ['Crime', 'Rewatch'],
      favoriteEpisodes: ['62085', '62161'],
    });
    expect(backup.progress['1396']).toMatchObject({
      type: 'show',
      updatedAt: Date.parse('2024-03-05T21:00:00.000Z'),
      seasons: { '3572': { id: '3572', number: 1, title: '' } },
      episodes: {
        '62085': { number: 1, seasonId: '3572', progress: { watched: 1200, duration: 3480 } },
        '62086': {},
      },
    });
    // p-stream keeps one entry per movie or episode: the latest play.
    expect(backup.watchHistory['949']).toMatchObject({
      watchedAt: Date.parse('2024-02-01T22:00:00.000Z'),
      completed: true,
    });
    expect(backup.watchHistory['1396-62085']).toMatchObject({
      episodeId: '62085',
      seasonId: '3572',
      seasonNumber: 1,
    });
    expect(backup.groupOrder).toEqual(['Rewatch', 'Crime']);
    expect(backup.theme).toBe('teal');
    expect(backup.language).toBe('fr');
    expect(backup.settings).toEqual({
      defaultSubtitleLanguage: 'en',
      enableAutoplay: true,
      defaultAudioLanguage: 'ja',
      enableThumbnails: false,
      sourceOrder: ['a', 'b'],
    });
    // What the keyed shape cannot hold waits beside it.
    expect(backup.marquee.version).toBe(1);
    expect(backup.marquee.bookmarks).toHaveLength(1);
    expect(backup.marquee.progress).toHaveLength(1);
    expect(backup.marquee.watchHistory).toEqual([
      expect.objectContaining({ watchedAt: '2024-01-01T22:00:00.000Z' }),
    ]);
  });

  it('leaves third-party keys out unless asked', () => {
    expect(exportPStreamBackup(LIBRARY)).not.toContain('secret-febbox-key');
    expect(exportPStreamBackup(LIBRARY, { includeSecrets: true })).toContain('secret-febbox-key');
  });

  it('round-trips through parse without loss', async () => {
    const text = exportPStreamBackup(LIBRARY, { includeSecrets: true });
    const result = await parse(textFile('marquee-backup.json', text));
    expect(result.format).toBe('pstream');
    expect(result.skipped).toEqual([]);
    const back = libraryOf(result);
    expect(sorted(back.bookmarks)).toEqual(sorted(LIBRARY.bookmarks));
    expect(sorted(back.progress)).toEqual(sorted(LIBRARY.progress));
    expect(sorted(back.watchHistory)).toEqual(sorted(LIBRARY.watchHistory));
    expect(back.groupOrder).toEqual(LIBRARY.groupOrder);
    const { id: _id, ...settings } = SETTINGS as unknown as Record<string, unknown>;
    expect(back.settings).toEqual(Object.fromEntries(Object.entries(settings).filter(([, v]) => v !== null)));
  });
});
