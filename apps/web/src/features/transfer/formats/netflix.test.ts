import { describe, expect, it } from 'vitest';
import { splitNetflixTitle } from './netflix.ts';
import { parse } from './parse.ts';
import { lines, textFile, zipFile } from './test-files.ts';

describe('Netflix viewing history (Title, Date)', () => {
  it('reads month-first dates when a day over 12 says so, and splits shows from episodes', async () => {
    const csv = lines(
      'Title,Date',
      '"White Collar: Season 2: Withdrawal","1/31/24"',
      '"White Collar: Season 2: Withdrawal","2/3/24"',
      '"Infinite","2/3/24"',
      '"The Queen\'s Gambit: Limited Series: Openings","12/12/23"',
      '"Star Wars: The Last Jedi","3/4/23"',
    );
    const result = await parse(textFile('NetflixViewingHistory.csv', csv));
    expect(result.format).toBe('netflix');
    expect(result.records).toEqual([
      {
        kind: 'play',
        title: { title: 'White Collar', type: 'show' },
        episode: { season: 2, title: 'Withdrawal' },
        watchedAt: '2024-01-31T12:00:00.000Z',
        source: { file: 'NetflixViewingHistory.csv', row: 2 },
      },
      // Watched again on another day: another play.
      expect.objectContaining({
        watchedAt: '2024-02-03T12:00:00.000Z',
        episode: { season: 2, title: 'Withdrawal' },
      }),
      expect.objectContaining({
        title: { title: 'Infinite', type: 'movie' },
        watchedAt: '2024-02-03T12:00:00.000Z',
      }),
      expect.objectContaining({
        title: { title: "The Queen's Gambit", type: 'show' },
        episode: { title: 'Openings' },
      }),
      // One colon: a film or an episode, left whole for the search.
      expect.objectContaining({
        title: { title: 'Star Wars: The Last Jedi' },
        watchedAt: '2023-03-04T12:00:00.000Z',
      }),
    ]);
    expect(result.records.some((r) => r.unsure)).toBe(false);
  });

  it('reads day-first dates when the column shows it', async () => {
    const csv = lines('Title,Date', 'Dark: Staffel 1: Geheimnisse,31.01.2024', 'Heat,03.02.2024');
    const result = await parse(textFile('NetflixViewingHistory.csv', csv));
    expect(result.records.map((r) => r.watchedAt)).toEqual([
      '2024-01-31T12:00:00.000Z',
      '2024-02-03T12:00:00.000Z',
    ]);
    expect(result.records[0]).toMatchObject({
      title: { title: 'Dark' },
      episode: { season: 1, title: 'Geheimnisse' },
    });
  });

  it('marks the rows whose day and month could be swapped when nothing tells, unless the viewer chose', async () => {
    const csv = lines('Title,Date', 'Heat,3/4/24', 'Ran,5/5/24', 'Alien,1/2/24');
    const unsure = await parse(textFile('NetflixViewingHistory.csv', csv));
    expect(unsure.records.map((r) => [r.watchedAt, r.unsure])).toEqual([
      ['2024-03-04T12:00:00.000Z', 'date_order'],
      ['2024-05-05T12:00:00.000Z', undefined],
      ['2024-01-02T12:00:00.000Z', 'date_order'],
    ]);
    const chosen = await parse(textFile('NetflixViewingHistory.csv', csv), { dateOrder: 'dmy' });
    expect(chosen.records.map((r) => [r.watchedAt, r.unsure])).toEqual([
      ['2024-04-03T12:00:00.000Z', undefined],
      ['2024-05-05T12:00:00.000Z', undefined],
      ['2024-02-01T12:00:00.000Z', undefined],
    ]);
  });
});

describe('Netflix account download (ViewingActivity.csv)', () => {
  const ACTIVITY = lines(
    'Profile Name,Start Time,Duration,Attributes,Title,Supplemental Video Type,Device Type,Bookmark,Latest Bookmark,Country',
    'Ann,2024-01-31 21:14:05,00:44:10,,The Crown: Season 1: Wolferton Splash (Episode 1),,Chrome PC (Cadmium),00:44:10,00:44:10,GB (United Kingdom)',
    'Ann,2024-01-31 21:10:00,00:01:30,,The Crown: Season 1 (Trailer),TRAILER,Chrome PC (Cadmium),00:01:30,Not latest view,GB (United Kingdom)',
    'Ben,2024-02-01 19:00:00,00:00:12,Autoplayed: user action: None; ,Heat,,Samsung TV,00:00:12,00:00:12,GB (United Kingdom)',
    'Ben,2024-02-01 19:05:00,02:50:00,,Heat,,Samsung TV,02:50:00,02:50:00,GB (United Kingdom)',
  );

  it('keeps the profile, the start time (UTC) and the episode number; skips trailers and previews', async () => {
    const result = await parse(
      zipFile('netflix-report.zip', {
        'CONTENT_INTERACTION/ViewingActivity.csv': ACTIVITY,
        'PROFILES/Profiles.csv': lines(
          'Profile Name,Email Address,Profile Creation Time',
          'Ann,,2019-01-01 10:00:00',
        ),
        'Cover sheet.pdf': '%PDF-1.4',
      }),
    );
    expect(result.format).toBe('netflix');
    expect(result.records).toEqual([
      {
        kind: 'play',
        title: { title: 'The Crown', type: 'show' },
        episode: { season: 1, number: 1, title: 'Wolferton Splash' },
        watchedAt: '2024-01-31T21:14:05.000Z',
        profile: 'Ann',
        source: { file: 'CONTENT_INTERACTION/ViewingActivity.csv', row: 2 },
      },
      expect.objectContaining({
        title: { title: 'Heat', type: 'movie' },
        profile: 'Ben',
        watchedAt: '2024-02-01T19:05:00.000Z',
      }),
    ]);
    expect(result.skipped.map((s) => [s.row, s.code])).toEqual([
      [3, 'supplemental'],
      [4, 'too_short'],
    ]);
  });
});

describe('splitNetflixTitle', () => {
  it.each([
    [
      'Dark: Season 3: Light and Shadow',
      { title: 'Dark', type: 'show' },
      { season: 3, title: 'Light and Shadow' },
    ],
    [
      'La casa de papel: Parte 1: Episodio 1',
      { title: 'La casa de papel', type: 'show' },
      { title: 'Episodio 1' },
    ],
    ['Lupin: Temporada 1: Capítulo 1', { title: 'Lupin', type: 'show' }, { season: 1, title: 'Capítulo 1' }],
    [
      'Stranger Things: Stranger Things 4: Chapter One: The Hellfire Club',
      { title: 'Stranger Things', type: 'show' },
      { season: 4, title: 'Chapter One: The Hellfire Club' },
    ],
    ['Black Mirror: Bandersnatch', { title: 'Black Mirror: Bandersnatch' }, undefined],
    [
      'Love, Death & Robots: Volume 3: Three Robots: Exit Strategies',
      { title: 'Love, Death & Robots', type: 'show' },
      { title: 'Three Robots: Exit Strategies' },
    ],
  ])('%s', (full, title, episode) => {
    expect(splitNetflixTitle(full)).toEqual(episode ? { title, episode } : { title });
  });
});
