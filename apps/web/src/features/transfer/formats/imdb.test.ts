import { describe, expect, it } from 'vitest';
import { parse } from './parse.ts';
import { lines, textFile, zipFile } from './test-files.ts';

const RATINGS = lines(
  'Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors',
  'tt0113277,9,2024-01-05,Heat,Heat,https://www.imdb.com/title/tt0113277/,Movie,8.3,170,1995,"Action, Crime, Drama",700000,1995-12-15,Michael Mann',
  'tt0903747,10,2023-11-20,Breaking Bad,Breaking Bad,https://www.imdb.com/title/tt0903747/,tvSeries,9.5,49,2008,"Crime, Drama",2000000,2008-01-20,',
  'tt2301451,10,2023-11-21,Breaking Bad: Ozymandias,Ozymandias,https://www.imdb.com/title/tt2301451/,TV Episode,10,47,2013,Drama,250000,2013-09-15,Rian Johnson',
  'tt2140553,7,2022-05-01,The Last of Us,The Last of Us,https://www.imdb.com/title/tt2140553/,Video Game,9.7,,2013,Action,85000,2013-06-14,',
  'tt7366338,8,2022-06-01,Chernobyl,Chernobyl,https://www.imdb.com/title/tt7366338/,TV Mini Series,9.3,60,2019,Drama,960000,2019-05-06,',
);

/** A list export of today: Your Rating and Date Rated moved to the end, rating columns may be empty. */
const WATCHLIST = lines(
  'Position,Const,Created,Modified,Description,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors,Your Rating,Date Rated',
  '1,tt0468569,2023-07-09,2024-02-01,,The Dark Knight,The Dark Knight,https://www.imdb.com/title/tt0468569/,Movie,9,152,2008,"Action, Crime",3041074,2008-07-18,Christopher Nolan,,',
  '2,16968450,2023-07-13,2024-02-05,,The Wonderful Story of Henry Sugar,The Wonderful Story of Henry Sugar,https://www.imdb.com/title/tt16968450/,Short,7.4,40,2023,Short,81803,2023-09-27,Wes Anderson,,',
);

describe('IMDb', () => {
  it('reads the ratings export: 1–10 as given, the Const as the IMDb id, shows and films told apart', async () => {
    const result = await parse(textFile('ratings.csv', RATINGS));
    expect(result.format).toBe('imdb');
    expect(result.records).toEqual([
      {
        kind: 'rating',
        title: { imdbId: 'tt0113277', title: 'Heat', year: 1995, type: 'movie' },
        rating: 9,
        updatedAt: '2024-01-05T12:00:00.000Z',
        source: { file: 'ratings.csv', row: 2 },
      },
      expect.objectContaining({
        title: expect.objectContaining({ imdbId: 'tt0903747', type: 'show' }),
        rating: 10,
      }),
      expect.objectContaining({
        title: expect.objectContaining({ imdbId: 'tt7366338', type: 'show' }),
        rating: 8,
      }),
    ]);
    // An episode names no show; a game is not a title here.
    expect(result.skipped.map((s) => [s.row, s.code])).toEqual([
      [4, 'unsupported_type'],
      [5, 'unsupported_type'],
    ]);
  });

  it('reads the watchlist (columns in today’s order), finding the id in the URL when the Const is damaged', async () => {
    const result = await parse(textFile('WATCHLIST.csv', WATCHLIST));
    expect(result.records).toEqual([
      expect.objectContaining({
        kind: 'watchlist',
        listName: 'watchlist',
        position: 1,
        title: { imdbId: 'tt0468569', title: 'The Dark Knight', year: 2008, type: 'movie' },
        updatedAt: '2023-07-09T12:00:00.000Z',
      }),
      expect.objectContaining({ position: 2, title: expect.objectContaining({ imdbId: 'tt16968450' }) }),
    ]);
  });

  it('reads another list under its file name, and a zip of exports', async () => {
    const result = await parse(zipFile('imdb.zip', { 'ratings.csv': RATINGS, 'ls012345678.csv': WATCHLIST }));
    expect(result.format).toBe('imdb');
    const items = result.records.filter((r) => r.kind === 'list-item');
    expect(items.map((r) => [r.listName, r.position])).toEqual([
      ['ls012345678', 1],
      ['ls012345678', 2],
    ]);
    expect(result.records.filter((r) => r.kind === 'rating')).toHaveLength(3);
  });
});
