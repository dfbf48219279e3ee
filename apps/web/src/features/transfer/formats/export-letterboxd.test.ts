import { describe, expect, it } from 'vitest';
import { exportLetterboxdCsv, type LetterboxdExportInput } from './export-letterboxd.ts';
import { parse } from './parse.ts';
import { zipFile } from './test-files.ts';

const movie = (title: string, year: number | null) => ({ title, year, type: 'movie' });

const DATA: LetterboxdExportInput = {
  watchHistory: [
    { tmdbId: '949', meta: movie('Heat', 1995), watchedAt: '2024-03-01T20:00:00.000Z', episode: {} },
    // 02:00 UTC is still the evening before in New York.
    { tmdbId: '949', meta: movie('Heat', 1995), watchedAt: '2024-01-06T02:00:00.000Z', episode: {} },
    {
      tmdbId: '666',
      meta: movie('=HYPERLINK("http://evil.example","click")', 2020),
      watchedAt: '2024-01-07T20:00:00.000Z',
    },
    {
      tmdbId: '194',
      meta: movie('Amélie, "le fabuleux destin"', 2001),
      watchedAt: '2024-01-08T20:00:00.000Z',
    },
    { tmdbId: '777', meta: movie('-ism', null), watchedAt: '2024-01-09T20:00:00.000Z' },
    // Letterboxd holds no TV.
    {
      tmdbId: '1396',
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      watchedAt: '2024-01-10T20:00:00.000Z',
      episode: { id: '62085', number: 1 },
    },
  ],
  bookmarks: [
    { tmdbId: '10494', meta: movie('Perfect Blue', 1997) },
    { tmdbId: '93405', meta: { title: 'Squid Game', year: 2021, type: 'show' } },
  ],
  ratings: [
    { tmdbId: '949', imdbId: 'tt0113277', title: 'Heat', year: 1995, rating: 8 },
    { tmdbId: '194', title: 'Amélie', year: 2001, rating: 0 },
  ],
};

describe('exportLetterboxdCsv', () => {
  it("writes Letterboxd's import columns, films only, the viewer's day, rewatches after the first play", () => {
    const files = exportLetterboxdCsv(DATA, { timeZone: 'America/New_York' });
    expect(files['diary.csv'].split('\n')).toEqual([
      'Title,Year,tmdbID,WatchedDate,Rewatch',
      'Heat,1995,949,2024-01-05,false',
      `"'=HYPERLINK(""http://evil.example"",""click"")",2020,666,2024-01-07,false`,
      '"Amélie, ""le fabuleux destin""",2001,194,2024-01-08,false',
      `"'-ism",,777,2024-01-09,false`,
      'Heat,1995,949,2024-03-01,true',
      '',
    ]);
    expect(files['watchlist.csv']).toBe('Title,Year,tmdbID\nPerfect Blue,1997,10494\n');
    expect(files['ratings.csv']).toBe('Title,Year,tmdbID,imdbID,Rating10\nHeat,1995,949,tt0113277,8\n');
  });

  it('leaves the ratings file out when nothing is rated', () => {
    expect(exportLetterboxdCsv({ watchHistory: [], bookmarks: [] })).toEqual({
      'diary.csv': 'Title,Year,tmdbID,WatchedDate,Rewatch\n',
      'watchlist.csv': 'Title,Year,tmdbID\n',
    });
  });

  it('round-trips through parse: the same films, days, rewatches, watchlist and ratings', async () => {
    const files = exportLetterboxdCsv(DATA, { timeZone: 'UTC' });
    const result = await parse(zipFile('letterboxd-import.zip', { ...files }));
    expect(result.format).toBe('letterboxd');
    expect(result.skipped).toEqual([]);
    const plays = result.records.filter((r) => r.kind === 'play');
    expect(plays.map((r) => [r.title.tmdbId, r.title.title, r.title.year, r.watchedAt, r.rewatch])).toEqual([
      ['949', 'Heat', 1995, '2024-01-06T12:00:00.000Z', false],
      ['666', '=HYPERLINK("http://evil.example","click")', 2020, '2024-01-07T12:00:00.000Z', false],
      ['194', 'Amélie, "le fabuleux destin"', 2001, '2024-01-08T12:00:00.000Z', false],
      ['777', '-ism', undefined, '2024-01-09T12:00:00.000Z', false],
      ['949', 'Heat', 1995, '2024-03-01T12:00:00.000Z', true],
    ]);
    expect(result.records.filter((r) => r.kind === 'watchlist').map((r) => r.title)).toEqual([
      { tmdbId: '10494', title: 'Perfect Blue', year: 1997, type: 'movie' },
    ]);
    expect(result.records.filter((r) => r.kind === 'rating').map((r) => [r.title.imdbId, r.rating])).toEqual([
      ['tt0113277', 8],
    ]);
  });
});
