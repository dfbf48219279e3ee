import { describe, expect, it } from 'vitest';
import { parse } from './parse.ts';
import { lines, textFile, zipFile } from './test-files.ts';

const DIARY = lines(
  'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date',
  '2024-01-02,The Godfather,1972,https://boxd.it/aaa1,5,,,2024-01-01',
  '2024-02-10,The Godfather,1972,https://boxd.it/aaa2,4.5,Yes,"cinema, 35mm",2024-02-09',
  '2024-02-10,Heat,1995,https://boxd.it/aaa3,,,,2024-02-09',
  '2024-02-10,Heat,1995,https://boxd.it/aaa4,3,Yes,,2024-02-09',
);

/** Letterboxd's export, as its zip holds it (the shapes of decision 096). */
const EXPORT = {
  'diary.csv': DIARY,
  'watched.csv': lines(
    'Date,Name,Year,Letterboxd URI',
    '2024-01-02,The Godfather,1972,https://boxd.it/x1',
    '2023-05-01,Alien,1979,https://boxd.it/x2',
  ),
  'ratings.csv': lines(
    'Date,Name,Year,Letterboxd URI,Rating',
    '2024-01-02,The Godfather,1972,https://boxd.it/x1,5',
  ),
  'watchlist.csv': lines('Date,Name,Year,Letterboxd URI', '2024-03-01,Perfect Blue,1997,https://boxd.it/x3'),
  'reviews.csv': lines(
    'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Review,Tags,Watched Date',
    '2024-01-02,The Godfather,1972,https://boxd.it/aaa1,5,,"-1 (a review, never read: reviews repeat the diary)",,2024-01-01',
  ),
  'profile.csv': lines('Date Joined,Username,Given Name', '2019-10-03,someone,Some'),
  'comments.csv': lines('Date,Content,Comment'),
  'likes/films.csv': lines('Date,Name,Year,Letterboxd URI', '2024-01-01,Ran,1985,https://boxd.it/x4'),
  'deleted/diary.csv': DIARY,
  'lists/my-favourites.csv': lines(
    'Letterboxd list export v7',
    'Date,Name,Tags,URL,Description',
    '2021-11-06,My Favourites,"best, rewatchable",https://boxd.it/list1,"A list,',
    'over two lines."',
    '',
    'Position,Name,Year,URL,Description',
    '1,The Shining,1980,https://boxd.it/s,',
    '2,Alien,1979,https://boxd.it/a,Still holds up',
  ),
};

describe('Letterboxd', () => {
  it('reads its export zip: dated plays, undated marks, ratings, the watchlist and lists', async () => {
    const result = await parse(zipFile('letterboxd-someone-2024-03-02-utc.zip', EXPORT));
    expect(result.format).toBe('letterboxd');
    const plays = result.records.filter((r) => r.kind === 'play');
    expect(plays).toEqual([
      {
        kind: 'play',
        title: { title: 'The Godfather', year: 1972, type: 'movie' },
        watchedAt: '2024-01-01T12:00:00.000Z',
        rating: 10,
        rewatch: false,
        source: { file: 'diary.csv', row: 2 },
      },
      // A rewatch on another day is another play.
      expect.objectContaining({ watchedAt: '2024-02-09T12:00:00.000Z', rating: 9, rewatch: true }),
      // Two viewings logged on one day stay two plays, a second apart.
      expect.objectContaining({
        title: expect.objectContaining({ title: 'Heat' }),
        watchedAt: '2024-02-09T12:00:00.000Z',
      }),
      expect.objectContaining({ watchedAt: '2024-02-09T12:00:01.000Z', rating: 6, rewatch: true }),
      // watched.csv adds the films the diary does not have, undated.
      {
        kind: 'play',
        title: { title: 'Alien', year: 1979, type: 'movie' },
        updatedAt: '2023-05-01T12:00:00.000Z',
        source: { file: 'watched.csv', row: 3 },
      },
    ]);
    expect(result.records.filter((r) => r.kind !== 'play')).toEqual([
      expect.objectContaining({
        kind: 'rating',
        rating: 10,
        title: expect.objectContaining({ title: 'The Godfather' }),
      }),
      expect.objectContaining({
        kind: 'watchlist',
        listName: 'watchlist',
        title: expect.objectContaining({ title: 'Perfect Blue' }),
      }),
      expect.objectContaining({ kind: 'list-item', listName: 'My Favourites', position: 1 }),
      expect.objectContaining({
        kind: 'list-item',
        listName: 'My Favourites',
        position: 2,
        title: expect.objectContaining({ title: 'Alien' }),
      }),
    ]);
    expect(result.skipped).toEqual([{ file: 'watched.csv', row: 2, code: 'in_diary' }]);
  });

  it('tells the files by their content, whatever their name and column order', async () => {
    const reordered = lines(
      'Watched Date,Rating,Name,Year,Date,Letterboxd URI,Rewatch,Tags',
      '2024-01-01,3.5,Heat,1995,2024-01-02,https://boxd.it/a,,',
    );
    const result = await parse(textFile('my-films (1).csv', reordered));
    expect(result.format).toBe('letterboxd');
    expect(result.records).toEqual([
      expect.objectContaining({ kind: 'play', watchedAt: '2024-01-01T12:00:00.000Z', rating: 7 }),
    ]);
    const ratings = await parse(textFile('export.csv', EXPORT['ratings.csv']));
    expect(ratings.records[0]).toMatchObject({ kind: 'rating', rating: 10 });
  });

  it('reads one list file or the watchlist alone; a bare film list of unknown name is marked unsure', async () => {
    const list = await parse(textFile('download.csv', EXPORT['lists/my-favourites.csv']));
    expect(list.records.map((r) => [r.kind, r.listName, r.position, r.title.title])).toEqual([
      ['list-item', 'My Favourites', 1, 'The Shining'],
      ['list-item', 'My Favourites', 2, 'Alien'],
    ]);
    const watchlist = await parse(textFile('watchlist.csv', EXPORT['watchlist.csv']));
    expect(watchlist.records[0]).toMatchObject({ kind: 'watchlist', listName: 'watchlist' });
    const bare = await parse(textFile('films.csv', EXPORT['watched.csv']));
    expect(bare.records[0]).toMatchObject({ kind: 'play', unsure: 'list_kind' });
  });

  it('reads its import format (what our Letterboxd export writes)', async () => {
    const csv = lines(
      'Title,Year,tmdbID,imdbID,WatchedDate,Rating10,Rewatch',
      'Heat,1995,949,tt0113277,2024-01-05,8,false',
      '\'=HYPERLINK("x"),2020,123,,2024-01-06,,true',
      'Alien,1979,348,,,9,',
    );
    const result = await parse(textFile('diary.csv', csv));
    expect(result.records).toEqual([
      expect.objectContaining({
        kind: 'play',
        title: { tmdbId: '949', imdbId: 'tt0113277', title: 'Heat', year: 1995, type: 'movie' },
        watchedAt: '2024-01-05T12:00:00.000Z',
        rating: 8,
        rewatch: false,
      }),
      expect.objectContaining({
        title: expect.objectContaining({ title: '=HYPERLINK("x")' }),
        rewatch: true,
      }),
      expect.objectContaining({ kind: 'rating', rating: 9 }),
    ]);
  });

  it('reads a diary of 50,000 entries', async () => {
    const rows = Array.from({ length: 50_000 }, (_, i) => {
      const day = `20${10 + (i % 14)}-${String(1 + (i % 12)).padStart(2, '0')}-${String(1 + (i % 28)).padStart(2, '0')}`;
      return `${day},"Film ${i}, the sequel",${1950 + (i % 70)},https://boxd.it/${i.toString(36)},${1 + (i % 5)},,,${day}`;
    });
    const csv = `Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date\n${rows.join('\n')}\n`;
    const result = await parse(textFile('diary.csv', csv));
    expect(result.records).toHaveLength(50_000);
    expect(result.skipped).toEqual([]);
  });

  it('skips rows it cannot date or name, and says why', async () => {
    const csv = lines(
      'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date',
      'soon,Heat,1995,https://boxd.it/a,,,,someday',
      '2024-01-01,,1995,https://boxd.it/b,,,,2024-01-01',
      '2024-02-30,Ran,1985,https://boxd.it/c,,,,2024-02-30',
    );
    const result = await parse(textFile('diary.csv', csv));
    expect(result.records).toEqual([]);
    expect(result.skipped.map((s) => [s.row, s.code])).toEqual([
      [2, 'bad_date'],
      [3, 'no_title'],
      [4, 'bad_date'],
    ]);
  });
});
