import { describe, expect, it } from 'vitest';
import { parse } from './parse.ts';
import { textFile } from './test-files.ts';

const at = (iso: string) => Date.parse(iso);

/** What p-stream's "download data" page writes (its stores, keyed by TMDB id; times in ms). */
const BACKUP = {
  account: { profile: { icon: 'bookmark', colorA: '#2E65CF', colorB: '#2E65CF' }, deviceName: 'Firefox' },
  bookmarks: {
    '1396': {
      title: 'Breaking Bad',
      year: 2008,
      poster: 'https://image.tmdb.org/t/p/w342/bb.jpg',
      type: 'show',
      updatedAt: at('2024-03-01T10:00:00.000Z'),
      group: ['Crime', 'Rewatch'],
      favoriteEpisodes: ['62085', '62161'],
    },
    '949': { title: 'Heat', year: 1995, type: 'movie', updatedAt: at('2024-03-02T10:00:00.000Z') },
  },
  progress: {
    '949': {
      title: 'Heat',
      year: 1995,
      type: 'movie',
      updatedAt: at('2024-03-03T20:00:00.000Z'),
      progress: { watched: 3600, duration: 10200 },
      seasons: {},
      episodes: {},
    },
    '1396': {
      title: 'Breaking Bad',
      year: 2008,
      type: 'show',
      updatedAt: at('2024-03-04T21:00:00.000Z'),
      seasons: { '3572': { id: '3572', number: 1, title: 'Season 1' } },
      episodes: {
        '62085': {
          id: '62085',
          number: 1,
          title: 'Pilot',
          seasonId: '3572',
          updatedAt: at('2024-03-04T21:00:00.000Z'),
          progress: { watched: 1200, duration: 3480 },
        },
      },
    },
  },
  watchHistory: {
    '949': {
      title: 'Heat',
      year: 1995,
      type: 'movie',
      progress: { watched: 10100, duration: 10200 },
      watchedAt: at('2024-02-01T22:00:00.000Z'),
      completed: true,
    },
    '1396-62085': {
      title: 'Breaking Bad',
      year: 2008,
      type: 'show',
      progress: { watched: 3400, duration: 3480 },
      watchedAt: at('2024-02-02T22:00:00.000Z'),
      completed: true,
      episodeId: '62085',
      seasonId: '3572',
      seasonNumber: 1,
      episodeNumber: 1,
    },
  },
  groupOrder: ['Rewatch', 'Crime'],
  settings: {
    enableThumbnails: true,
    sourceOrder: ['a', 'b'],
    febboxKey: null,
    defaultSubtitleLanguage: 'en',
  },
  theme: 'teal',
  language: 'fr',
  exportDate: '2024-03-05T09:00:00.000Z',
};

describe('p-stream backup', () => {
  it('reads bookmarks with their groups and favourite episodes, progress, the history, settings and group order', async () => {
    const result = await parse(textFile('mw-account-data-2024-03-05.json', JSON.stringify(BACKUP, null, 2)));
    expect(result.format).toBe('pstream');
    const show = {
      tmdbId: '1396',
      title: 'Breaking Bad',
      year: 2008,
      type: 'show',
      poster: 'https://image.tmdb.org/t/p/w342/bb.jpg',
    };
    const file = 'mw-account-data-2024-03-05.json';
    // (Object keys that are numbers come in numeric order.)
    expect(result.records).toEqual([
      expect.objectContaining({
        kind: 'bookmark',
        title: { tmdbId: '949', title: 'Heat', year: 1995, type: 'movie' },
        groups: [],
      }),
      {
        kind: 'bookmark',
        title: show,
        groups: ['Crime', 'Rewatch'],
        updatedAt: '2024-03-01T10:00:00.000Z',
        source: { file, row: 2 },
      },
      { kind: 'favorite-episode', title: show, episode: { tmdbId: '62085' }, source: { file, row: 2 } },
      { kind: 'favorite-episode', title: show, episode: { tmdbId: '62161' }, source: { file, row: 2 } },
      expect.objectContaining({
        kind: 'progress',
        title: expect.objectContaining({ tmdbId: '949' }),
        progress: { watched: 3600, duration: 10200, updatedAt: '2024-03-03T20:00:00.000Z' },
      }),
      expect.objectContaining({
        kind: 'progress',
        title: { tmdbId: '1396', title: 'Breaking Bad', year: 2008, type: 'show' },
        episode: { season: 1, number: 1, title: 'Pilot', tmdbId: '62085', seasonTmdbId: '3572' },
        progress: { watched: 1200, duration: 3480, updatedAt: '2024-03-04T21:00:00.000Z' },
      }),
      expect.objectContaining({
        kind: 'play',
        title: expect.objectContaining({ tmdbId: '949' }),
        watchedAt: '2024-02-01T22:00:00.000Z',
        progress: { watched: 10100, duration: 10200 },
        completed: true,
      }),
      expect.objectContaining({
        kind: 'play',
        title: expect.objectContaining({ tmdbId: '1396', type: 'show' }),
        episode: { season: 1, number: 1, tmdbId: '62085', seasonTmdbId: '3572' },
      }),
    ]);
    expect(result.groupOrder).toEqual(['Rewatch', 'Crime']);
    expect(result.settings).toEqual({
      enableThumbnails: true,
      sourceOrder: ['a', 'b'],
      febboxKey: null,
      defaultSubtitleLanguage: 'en',
      applicationTheme: 'teal',
      applicationLanguage: 'fr',
    });
  });

  it('reads the sections as the API lists them too, and skips what names no title', async () => {
    const backup = {
      bookmarks: [
        {
          tmdbId: '949',
          meta: { title: 'Heat', year: 1995, type: 'movie' },
          group: 'Crime',
          favoriteEpisodes: [],
          updatedAt: '2024-03-02T10:00:00.000Z',
        },
        { meta: { title: 'No id' } },
      ],
      watchHistory: [
        {
          tmdbId: '1396',
          season: { id: '3572', number: 1 },
          episode: { id: '62085', number: 1 },
          meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
          duration: '3480',
          watched: '3400',
          watchedAt: '2024-02-02T22:00:00.000Z',
          completed: true,
        },
      ],
    };
    const result = await parse(textFile('backup.json', JSON.stringify(backup)));
    expect(result.records).toEqual([
      expect.objectContaining({
        kind: 'bookmark',
        groups: ['Crime'],
        title: { tmdbId: '949', title: 'Heat', year: 1995, type: 'movie' },
      }),
      expect.objectContaining({
        kind: 'play',
        episode: { season: 1, number: 1, tmdbId: '62085', seasonTmdbId: '3572' },
        progress: { watched: 3400, duration: 3480 },
      }),
    ]);
    expect(result.skipped).toEqual([{ file: 'backup.json', row: 2, code: 'bad_item' }]);
  });
});
