import type { MediaSummary } from '@marquee/contract';
import { describe, expect, it } from 'vitest';
import { mergeInBulk } from '../../../stores/library/bulk-merge.ts';
import type { LibraryData } from '../../../stores/library/outbox.ts';
import type { ImportRecord, ImportResult } from '../formats/index.ts';
import {
  allRecords,
  backupOrder,
  defaultChoices,
  fileLists,
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
  it('plays at their own dates, unsure titles as their best guess, lists to named lists', () => {
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
    expect(result.ops.filter((op) => op.kind === 'bookmark-add')).toEqual([
      expect.objectContaining({ tmdbId: '348', groups: ['Scary'], at: 0 }),
    ]);
    expect(result.ops.at(-1)).toEqual({ kind: 'group-order', order: ['Scary'], at: 0 });
    expect(result.counts).toEqual({ plays: 5, myList: 1, progress: 0, lists: 1, ratings: 2 });
    // Both ratings are kept, dated when they were given; Alien was watched in the file: its rating adds
    // no play. Nowhere Film was not found.
    expect(result.ops.filter((op) => op.kind === 'rating-put')).toEqual([
      expect.objectContaining({
        type: 'movie',
        tmdbId: '348',
        rating: 8,
        at: Date.parse('2024-05-02T12:00:00.000Z'),
      }),
      expect.objectContaining({
        type: 'movie',
        tmdbId: '438631',
        rating: 9,
        ratedAt: Date.parse('2023-01-10T12:00:00.000Z'),
      }),
    ]);
    expect(result.leftOut).toEqual({ unmatched: 1 });
  });

  it("the viewer's choices: another candidate, a title left out, one profile, no ratings or lists", () => {
    const { queries } = titleQueries(records);
    const dune = queries.find((q) => q.title === 'Dune')!.key;
    const other = plan({ picks: new Map([[dune, 'movie:841']]) });
    expect(other.ops.some((op) => op.kind !== 'group-order' && op.tmdbId === '841')).toBe(true);
    const declined = plan({
      picks: new Map([[dune, null]]),
      profile: 'Sam',
      ratingsAsPlays: false,
      namedLists: false,
    });
    expect(
      declined.ops.map((op) => (op.kind === 'group-order' ? op.kind : `${op.kind} ${op.tmdbId}`)),
    ).toEqual(['history-add 348', 'history-add 348', 'rating-put 348', 'history-add 1396']);
    // Dune (rated only) was declined: neither its rating nor a play.
    expect(declined.leftOut).toEqual({ declined: 1, unmatched: 1, other_profile: 1, list: 1 });
  });

  it("a diary entry's rating is a rating on its day; an undated one only fills a gap; an episode's is left out", () => {
    const rows: ImportRecord[] = [
      {
        kind: 'play',
        title: { title: 'Alien', year: 1979 },
        watchedAt: '2024-03-01T12:00:00.000Z',
        rating: 7,
        source,
      },
      { kind: 'rating', title: { title: 'Breaking Bad', type: 'show' }, rating: 10, source },
      {
        kind: 'rating',
        title: { title: 'Breaking Bad', type: 'show' },
        episode: { season: 1, title: 'Pilot' },
        rating: 6,
        updatedAt: '2024-01-01T12:00:00.000Z',
        source,
      },
    ];
    const { queries, known } = titleQueries(rows);
    const byTitle = new Map(queries.map((q) => [q.title, q.key]));
    const found = new Map<string, TitleMatch>([
      [byTitle.get('Alien')!, matched(alien)],
      [
        byTitle.get('Breaking Bad')!,
        matched(bb, [
          { seasonId: '3572', seasonNumber: 1, seasonTitle: '', id: '62085', number: 1, title: 'Pilot' },
        ]),
      ],
    ]);
    const now = Date.parse('2024-06-01T00:00:00.000Z');
    const result = planImport(rows, found, queries, defaultChoices(), known, { now });
    expect(result.ops.filter((op) => op.kind === 'rating-put')).toEqual([
      expect.objectContaining({
        type: 'movie',
        tmdbId: '348',
        rating: 7,
        at: Date.parse('2024-03-01T12:00:00.000Z'),
      }),
      expect.objectContaining({ type: 'show', tmdbId: '1396', rating: 10, ratedAt: now, at: 0 }),
    ]);
    // The episode's rating is not kept; it still counts as watched on the day it was rated.
    expect(result.ops.filter((op) => op.kind === 'history-add').map((op) => op.tmdbId)).toEqual([
      '348',
      '1396',
    ]);
    expect(
      planImport(rows, found, queries, { ...defaultChoices(), ratingsAsPlays: false }, known, { now })
        .leftOut,
    ).toEqual({ rating: 1 });
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

/* Lists, from a Letterboxd export and from a p-stream backup. */
const scream = movie('4232', 'Scream', 1996);
const films = [alien, scream, dune2021];
const item = (title: string, listName: string, row: number): ImportRecord => ({
  kind: 'list-item',
  title: { title },
  listName,
  source: { file: `lists/${listName}.csv`, row },
});
const letterboxd: ImportResult = {
  format: 'letterboxd',
  records: [
    item('Alien', 'Halloween', 5),
    item('Scream', 'Halloween', 6),
    item('Alien', ' Classics ', 5),
    { kind: 'watchlist', title: { title: 'Dune' }, listName: 'watchlist', source },
    item('Dune', 'watchlist', 3),
    // A name no list can have (only spaces): My List only.
    item('Scream', '   ', 5),
  ],
  skipped: [],
};
const planOf = (results: ImportResult[], choices: Partial<ImportChoices> = {}) => {
  const records = allRecords(results);
  const { queries, known } = titleQueries(records);
  const found = new Map(queries.map((q) => [q.key, matched(films.find((f) => f.title === q.title)!)]));
  return planImport(records, found, queries, { ...defaultChoices(), ...choices }, known, {
    groupOrder: backupOrder(results),
  });
};
const empty = (): LibraryData => ({ bookmarks: {}, progress: {}, history: {}, groupOrder: [] });
const T = Date.UTC(2025, 0, 1);
const bookmarked = (m: MediaSummary) => ({
  tmdbId: m.id,
  type: 'movie' as const,
  title: m.title,
  year: m.year,
  poster: m.poster,
  updatedAt: T,
});

describe("a file's lists into named lists of the same names", () => {
  it('each list is a named list of its name; a watchlist, or a name no list can have, is My List only', () => {
    expect(fileLists([letterboxd])).toEqual(['Halloween', 'Classics']);
    const { ops, counts } = planOf([letterboxd]);
    expect(ops.map((op) => (op.kind === 'bookmark-add' ? [op.tmdbId, op.groups] : op))).toEqual([
      ['348', ['Halloween']],
      ['4232', ['Halloween']],
      ['348', ['Classics']],
      ['438631', undefined],
      ['438631', undefined],
      ['4232', undefined],
      // The lists' order once, in the file's order.
      { kind: 'group-order', order: ['Halloween', 'Classics'], at: 0 },
    ]);
    expect(counts.lists).toBe(2);
    const { data, changed } = mergeInBulk(empty(), ops);
    expect(data.bookmarks['movie:348']!.groups).toEqual(['Halloween', 'Classics']);
    expect(data.bookmarks['movie:4232']!.groups).toEqual(['Halloween']);
    expect(data.bookmarks['movie:438631']!.groups).toBeUndefined();
    expect(data.groupOrder).toEqual(['Halloween', 'Classics']);
    expect(changed.lists).toEqual(['Halloween', 'Classics']);
  });

  it("a title already bookmarked keeps its lists and gains the file's; new names go once to the end of the order", () => {
    const held: LibraryData = {
      ...empty(),
      bookmarks: {
        'movie:348': { ...bookmarked(alien), title: 'Alien (held)', groups: ['Favourites', 'Halloween'] },
        'movie:9': { ...bookmarked(movie('9', 'Noir', 1950)), groups: ['Noir'] },
      },
      groupOrder: ['Favourites'],
    };
    const { ops } = planOf([letterboxd]);
    expect(ops.filter((op) => op.kind === 'group-order')).toHaveLength(1);
    const { data, changed } = mergeInBulk(held, ops);
    // Bookmarked after the file's (undated) lists: the lists land, the bookmark stays as it was.
    expect(data.bookmarks['movie:348']).toMatchObject({
      title: 'Alien (held)',
      updatedAt: T,
      groups: ['Favourites', 'Halloween', 'Classics'],
    });
    expect(data.bookmarks['movie:9']!.groups).toEqual(['Noir']);
    // The lists as the viewer sees them keep their places; only Classics is new.
    expect(data.groupOrder).toEqual(['Favourites', 'Halloween', 'Noir', 'Classics']);
    expect(changed.lists).toEqual(['Classics']);
    expect(Object.keys(changed.bookmarks).sort()).toEqual(['movie:348', 'movie:4232', 'movie:438631']);
  });

  it('the same file again changes nothing: the same lists are no change, the order gains nothing', () => {
    const { ops } = planOf([letterboxd]);
    const first = mergeInBulk(empty(), ops);
    const again = mergeInBulk(first.data, ops);
    expect(again.changed).toEqual({ bookmarks: {}, progress: {}, history: {} });
    expect(again.data.groupOrder).toEqual(first.data.groupOrder);
  });

  it('the option off: list entries are left out and counted, watchlists still go to My List, no order', () => {
    const { ops, leftOut } = planOf([letterboxd], { namedLists: false });
    expect(ops.map((op) => op.kind === 'bookmark-add' && [op.tmdbId, op.groups])).toEqual([
      ['438631', undefined],
      ['438631', undefined],
    ]);
    expect(leftOut).toEqual({ list: 4 });
  });
});

describe("a backup's bookmark groups and favourite episodes into named lists and favourites", () => {
  const show = { title: 'Breaking Bad', tmdbId: '1396', type: 'show' as const };
  const backup: ImportResult = {
    format: 'pstream',
    records: [
      {
        kind: 'bookmark',
        title: show,
        groups: ['Crime', 'Rewatch'],
        updatedAt: '2024-03-01T10:00:00.000Z',
        source,
      },
      { kind: 'favorite-episode', title: show, episode: { tmdbId: '62085' }, source },
      { kind: 'favorite-episode', title: show, episode: { tmdbId: '62161' }, source },
      {
        kind: 'bookmark',
        title: { title: 'Heat', tmdbId: '949', type: 'movie' },
        groups: [],
        updatedAt: '2024-03-02T10:00:00.000Z',
        source,
      },
    ],
    skipped: [],
    groupOrder: ['Rewatch', 'Crime', 'Someday'],
  };

  it("a backup's groups, their order (an empty list too) and favourite episodes, with nothing to look up", () => {
    const { queries, known } = titleQueries(backup.records);
    expect(queries).toEqual([]);
    expect(known.size).toBe(2);
    expect(fileLists([backup])).toEqual(['Rewatch', 'Crime', 'Someday']);
    const { ops, leftOut } = planOf([backup]);
    expect(leftOut).toEqual({});
    const first = mergeInBulk(empty(), ops);
    expect(first.data.bookmarks['show:1396']).toMatchObject({
      groups: ['Crime', 'Rewatch'],
      favoriteEpisodes: ['62085', '62161'],
      updatedAt: Date.parse('2024-03-01T10:00:00.000Z'),
    });
    expect(first.data.bookmarks['movie:949']!.groups).toBeUndefined();
    expect(first.data.groupOrder).toEqual(['Rewatch', 'Crime', 'Someday']);
    expect(mergeInBulk(first.data, ops).changed).toEqual({ bookmarks: {}, progress: {}, history: {} });
  });

  it("the option off: a backup's bookmarks and favourites come, their places on lists are counted out", () => {
    const { ops, leftOut } = planOf([backup], { namedLists: false });
    expect(ops.some((op) => op.kind === 'group-order' || (op.kind === 'bookmark-add' && op.groups))).toBe(
      false,
    );
    expect(ops.filter((op) => op.kind === 'bookmark-add' && op.favoriteEpisodes)).toHaveLength(2);
    expect(leftOut).toEqual({ list: 2 });
  });

  it('a favourite episode of a title that is not that show is left out', () => {
    const favourite: ImportRecord = {
      kind: 'favorite-episode',
      title: { title: 'Heat', tmdbId: '949', type: 'movie' },
      episode: { tmdbId: '1' },
      source,
    };
    const { queries, known } = titleQueries([favourite]);
    const plan = planImport([favourite], new Map(), queries, defaultChoices(), known);
    expect(plan.ops).toEqual([]);
    expect(plan.leftOut).toEqual({ episode_not_found: 1 });
  });
});
