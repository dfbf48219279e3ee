import type { MediaSummary } from '@marquee/contract';
import { describe, expect, it } from 'vitest';
import type { ImportRecord } from '../formats/index.ts';
import {
  defaultChoices,
  planImport,
  titleKeyOf,
  titleQueries,
  type ImportChoices,
  type TitleMatch,
} from './import-plan.ts';

const source = { file: 'f.csv', row: 2 };
const movie = (id: string, title: string, year: number): MediaSummary => ({
  id,
  type: 'movie',
  title,
  year,
  releaseDate: null,
  poster: `/p/${id}.jpg`,
});
const dune2021 = movie('438631', 'Dune', 2021);
const dune1984 = movie('841', 'Dune', 1984);
const alien = movie('348', 'Alien', 1979);
const bb: MediaSummary = {
  id: '1396',
  type: 'tv',
  title: 'Breaking Bad',
  year: 2008,
  releaseDate: null,
  poster: null,
};

const records: ImportRecord[] = [
  { kind: 'play', title: { title: 'Alien', year: 1979 }, watchedAt: '2024-03-01T12:00:00.000Z', source },
  {
    kind: 'play',
    title: { title: 'Alien', year: 1979 },
    watchedAt: '2024-05-01T12:00:00.000Z',
    rewatch: true,
    source,
  },
  {
    kind: 'rating',
    title: { title: 'Alien', year: 1979 },
    rating: 8,
    updatedAt: '2024-05-02T12:00:00.000Z',
    source,
  },
  { kind: 'rating', title: { title: 'Dune' }, rating: 9, updatedAt: '2023-01-10T12:00:00.000Z', source },
  {
    kind: 'watchlist',
    title: { title: 'Nowhere Film', year: 2001 },
    updatedAt: '2022-01-01T00:00:00.000Z',
    source,
  },
  {
    kind: 'play',
    title: { title: 'Breaking Bad', type: 'show' },
    episode: { season: 1, title: 'Pilot' },
    watchedAt: '2020-01-01T20:00:00.000Z',
    profile: 'Sam',
    source,
  },
  {
    kind: 'play',
    title: { title: 'Breaking Bad', type: 'show' },
    episode: { season: 1, title: 'Pilot' },
    watchedAt: '2020-01-02T20:00:00.000Z',
    profile: 'Alex',
    source,
  },
  { kind: 'list-item', title: { title: 'Alien', year: 1979 }, listName: 'Scary', position: 1, source },
];

const matched = (match: MediaSummary, episodes: TitleMatch['episodes'] = []): TitleMatch => ({
  status: 'matched',
  match,
  candidates: [],
  episodes,
});

function matches(): Map<string, TitleMatch> {
  const { queries } = titleQueries(records);
  const byTitle = new Map(queries.map((q) => [q.title, q.key]));
  return new Map<string, TitleMatch>([
    [byTitle.get('Alien')!, matched(alien)],
    [
      byTitle.get('Dune')!,
      { status: 'unsure', match: dune2021, candidates: [dune2021, dune1984], episodes: [] },
    ],
    [byTitle.get('Nowhere Film')!, { status: 'unmatched', match: null, candidates: [], episodes: [] }],
    [
      byTitle.get('Breaking Bad')!,
      matched(bb, [
        {
          seasonId: '3572',
          seasonNumber: 1,
          seasonTitle: 'Season 1',
          id: '62085',
          number: 1,
          title: 'Pilot',
        },
      ]),
    ],
  ]);
}

const plan = (choices: Partial<ImportChoices> = {}) => {
  const { queries, known } = titleQueries(records);
  return planImport(records, matches(), queries, { ...defaultChoices(), ...choices }, known);
};

describe('the titles a file asks to match', () => {
  it('one query per title, each episode asked once, values the endpoint refuses left out', () => {
    const { queries, known } = titleQueries([
      ...records,
      {
        kind: 'play',
        title: { title: 'Old', year: 1500, imdbId: 'tt123456789012' },
        watchedAt: '2020-01-01T00:00:00Z',
        source,
      },
    ]);
    expect(known.size).toBe(0);
    expect(queries.map((q) => q.title)).toEqual(['Alien', 'Dune', 'Nowhere Film', 'Breaking Bad', 'Old']);
    expect(queries.find((q) => q.title === 'Breaking Bad')!.episodes).toEqual([
      { season: 1, title: 'Pilot' },
    ]);
    expect(queries.find((q) => q.title === 'Breaking Bad')!.type).toBe('tv');
    const old = queries.find((q) => q.title === 'Old')!;
    expect(old).not.toHaveProperty('year');
    expect(old).not.toHaveProperty('imdbId');
  });

  it('a title a backup names by TMDB id and type, with its episodes, needs no look-up', () => {
    const backup: ImportRecord = {
      kind: 'progress',
      title: { title: 'Breaking Bad', tmdbId: '1396', type: 'show' },
      episode: { tmdbId: '62085', seasonTmdbId: '3572', season: 1, number: 1, title: 'Pilot' },
      progress: { watched: 600, duration: 2800, updatedAt: '2024-01-01T00:00:00.000Z' },
      source,
    };
    const { queries, known } = titleQueries([backup]);
    expect(queries).toEqual([]);
    expect([...known]).toEqual([titleKeyOf(backup.title)]);
    const result = planImport([backup], new Map(), queries, defaultChoices(), known);
    expect(result.ops).toEqual([
      expect.objectContaining({
        kind: 'progress-put',
        type: 'show',
        tmdbId: '1396',
        season: { id: '3572', number: 1, title: '' },
        episode: { id: '62085', number: 1, title: 'Pilot' },
        watched: 600,
        at: Date.parse('2024-01-01T00:00:00.000Z'),
      }),
    ]);
  });
});

describe('the changes an import makes', () => {
  it('plays at their own dates, unsure titles as their best guess, lists to My List', () => {
    const result = plan();
    const plays = result.ops.filter((op) => op.kind === 'history-add');
    expect(
      plays.map((op) => [op.tmdbId, new Date(op.watchedAt).toISOString(), op.at === op.watchedAt]),
    ).toEqual([
      ['348', '2024-03-01T12:00:00.000Z', true],
      ['348', '2024-05-01T12:00:00.000Z', true],
      // Dune was rated, not watched in the file: watched on the day it was rated (best guess: 2021).
      ['438631', '2023-01-10T12:00:00.000Z', true],
      ['1396', '2020-01-01T20:00:00.000Z', true],
      ['1396', '2020-01-02T20:00:00.000Z', true],
    ]);
    expect(plays.at(-1)).toMatchObject({ episode: { id: '62085', number: 1 }, season: { id: '3572' } });
    expect(result.ops.filter((op) => op.kind === 'bookmark-add').map((op) => op.tmdbId)).toEqual(['348']);
    expect(result.counts).toEqual({ plays: 5, myList: 1, progress: 0 });
    // Alien was watched in the file: its rating adds no play. Nowhere Film was not found.
    expect(result.leftOut).toEqual({ rating: 1, unmatched: 1 });
  });

  it("the viewer's choices: another candidate, a title left out, one profile, no ratings or lists", () => {
    const { queries } = titleQueries(records);
    const dune = queries.find((q) => q.title === 'Dune')!.key;
    const other = plan({ picks: new Map([[dune, 'movie:841']]) });
    expect(other.ops.some((op) => op.tmdbId === '841')).toBe(true);
    const declined = plan({
      picks: new Map([[dune, null]]),
      profile: 'Sam',
      ratingsAsPlays: false,
      listsToMyList: false,
    });
    expect(declined.ops.map((op) => op.tmdbId)).toEqual(['348', '348', '1396']);
    expect(declined.leftOut).toEqual({ rating: 2, unmatched: 1, other_profile: 1, list: 1 });
  });

  it('a lone Letterboxd list the viewer says is a watchlist becomes My List', () => {
    const lone: ImportRecord = {
      kind: 'play',
      title: { title: 'Alien', year: 1979 },
      updatedAt: '2021-06-01T12:00:00.000Z',
      unsure: 'list_kind',
      source,
    };
    const { queries, known } = titleQueries([lone]);
    const m = new Map([[queries[0]!.key, matched(alien)]]);
    expect(planImport([lone], m, queries, defaultChoices(), known).ops[0]!.kind).toBe('history-add');
    expect(
      planImport([lone], m, queries, { ...defaultChoices(), listKind: 'watchlist' }, known).ops[0],
    ).toMatchObject({
      kind: 'bookmark-add',
      at: Date.parse('2021-06-01T12:00:00.000Z'),
    });
  });

  it('an episode the show does not have, or a show matched where a film was meant, is left out', () => {
    const { queries, known } = titleQueries(records);
    const m = matches();
    const bbKey = queries.find((q) => q.title === 'Breaking Bad')!.key;
    m.set(bbKey, matched(bb, [null]));
    const result = planImport(records, m, queries, defaultChoices(), known);
    expect(result.leftOut.episode_not_found).toBe(2);
  });
});
