import { describe, expect, it } from 'vitest';
import { parse } from './parse.ts';
import { textFile, zipFile } from './test-files.ts';

const HEAT = {
  title: 'Heat',
  year: 1995,
  ids: { trakt: 481, slug: 'heat-1995', imdb: 'tt0113277', tmdb: 949 },
};
const SQUID = {
  title: 'Squid Game',
  year: 2021,
  ids: { trakt: 162712, slug: 'squid-game', tvdb: 383275, imdb: 'tt10919420', tmdb: 93405 },
  aired_episodes: 22,
};
const PILOT = {
  season: 1,
  number: 1,
  title: 'Red Light, Green Light',
  ids: { trakt: 5063550, tvdb: 8332593, imdb: 'tt11979940', tmdb: 1922715 },
};

const play = (id: number, at: string, item: object) => ({ id, watched_at: at, action: 'watch', ...item });
const HISTORY_1 = [
  play(11, '2025-07-01T18:39:00.000Z', { type: 'episode', episode: PILOT, show: SQUID }),
  play(10, '2025-06-30T21:55:00.000Z', { type: 'episode', episode: PILOT, show: SQUID }),
];
const HISTORY_2 = [
  // The paged files meet on the same entry: one play.
  play(10, '2025-06-30T21:55:00.000Z', { type: 'episode', episode: PILOT, show: SQUID }),
  play(9, '2025-06-24T21:30:00.000Z', { type: 'movie', movie: HEAT }),
];

const EXPORT = {
  'watched-history-1.json': JSON.stringify(HISTORY_1),
  'watched-history-2.json': JSON.stringify(HISTORY_2),
  'watched-movies.json': JSON.stringify([
    { plays: 1, last_watched_at: '2025-06-24T21:30:00.000Z', movie: HEAT },
  ]),
  'ratings-movies.json': JSON.stringify([
    { rated_at: '2024-09-11T08:38:24.000Z', rating: 8, type: 'movie', movie: HEAT },
  ]),
  'ratings-episodes.json': JSON.stringify([
    { rated_at: '2024-09-11T08:37:35.000Z', rating: 7, type: 'episode', episode: PILOT, show: SQUID },
  ]),
  'ratings-seasons.json': JSON.stringify([
    {
      rated_at: '2024-09-11T08:37:35.000Z',
      rating: 6,
      type: 'season',
      season: { number: 1, ids: { tmdb: 1 } },
      show: SQUID,
    },
  ]),
  'lists-watchlist.json': JSON.stringify([
    { rank: 1, id: 1, listed_at: '2024-09-11T07:45:03.000Z', notes: null, type: 'movie', movie: HEAT },
    { rank: 2, id: 2, listed_at: '2025-03-01T21:54:31.000Z', notes: null, type: 'show', show: SQUID },
  ]),
  'lists-lists.json': JSON.stringify([
    { name: 'Rewatch Soon', privacy: 'private', item_count: 2, ids: { trakt: 4242, slug: 'rewatch-soon' } },
  ]),
  'lists-list-4242-rewatch-soon.json': JSON.stringify([
    { rank: 1, id: 3, listed_at: '2024-08-19T07:12:05.000Z', type: 'episode', episode: PILOT, show: SQUID },
    {
      rank: 2,
      id: 4,
      listed_at: '2024-08-19T07:12:05.000Z',
      type: 'season',
      season: { number: 1 },
      show: SQUID,
    },
  ]),
  'collection-movies.json': '[]',
  // Account files hold the email address: never read (this one is not even JSON).
  'user-profile.json': '{ "email": ',
};

describe('Trakt', () => {
  it('reads its export zip: every play once, ratings, the watchlist and named lists', async () => {
    const result = await parse(zipFile('trakt-export.zip', EXPORT));
    expect(result.format).toBe('trakt');
    const plays = result.records.filter((r) => r.kind === 'play');
    expect(plays).toEqual([
      {
        kind: 'play',
        title: {
          tmdbId: '93405',
          imdbId: 'tt10919420',
          traktId: '162712',
          title: 'Squid Game',
          year: 2021,
          type: 'show',
        },
        episode: { season: 1, number: 1, title: 'Red Light, Green Light', tmdbId: '1922715' },
        watchedAt: '2025-07-01T18:39:00.000Z',
        source: { file: 'watched-history-1.json', row: 1 },
      },
      // The same episode on another day is another play.
      expect.objectContaining({ watchedAt: '2025-06-30T21:55:00.000Z' }),
      expect.objectContaining({
        title: {
          tmdbId: '949',
          imdbId: 'tt0113277',
          traktId: '481',
          title: 'Heat',
          year: 1995,
          type: 'movie',
        },
        watchedAt: '2025-06-24T21:30:00.000Z',
      }),
    ]);
    expect(
      result.records
        .filter((r) => r.kind !== 'play')
        .map((r) => [r.kind, r.title.title, r.rating ?? r.listName, r.position]),
    ).toEqual([
      ['rating', 'Heat', 8, undefined],
      ['rating', 'Squid Game', 7, undefined],
      ['watchlist', 'Heat', 'watchlist', 1],
      ['watchlist', 'Squid Game', 'watchlist', 2],
      ['list-item', 'Squid Game', 'Rewatch Soon', 1],
    ]);
    expect(result.records.find((r) => r.kind === 'list-item')!.episode).toMatchObject({
      season: 1,
      number: 1,
    });
    expect(result.skipped).toEqual([
      { file: 'ratings-seasons.json', row: 1, code: 'unsupported_type' },
      { file: 'lists-list-4242-rewatch-soon.json', row: 2, code: 'unsupported_type' },
    ]);
  });

  it('reads one file alone, by its content', async () => {
    const history = await parse(textFile('history (3).json', JSON.stringify(HISTORY_2)));
    expect(history.records.map((r) => r.kind)).toEqual(['play', 'play']);
    const ratings = await parse(textFile('download.json', EXPORT['ratings-movies.json']));
    expect(ratings.records).toEqual([
      expect.objectContaining({ kind: 'rating', rating: 8, updatedAt: '2024-09-11T08:38:24.000Z' }),
    ]);
  });

  it('reads the totals as the last play of each title when there is no history', async () => {
    const shows = [
      {
        plays: 3,
        last_watched_at: '2025-07-01T18:41:00.000Z',
        show: SQUID,
        seasons: [
          { number: 1, episodes: [{ number: 1, plays: 2, last_watched_at: '2025-07-01T18:39:00.000Z' }] },
        ],
      },
    ];
    const result = await parse(
      zipFile('t.zip', {
        'watched-shows.json': JSON.stringify(shows),
        'watched-movies.json': EXPORT['watched-movies.json'],
      }),
    );
    expect(result.records.map((r) => [r.title.title, r.episode, r.watchedAt])).toEqual([
      ['Squid Game', { season: 1, number: 1 }, '2025-07-01T18:39:00.000Z'],
      ['Heat', undefined, '2025-06-24T21:30:00.000Z'],
    ]);
  });
});
