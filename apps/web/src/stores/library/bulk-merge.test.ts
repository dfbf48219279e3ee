import { describe, expect, it } from 'vitest';
import { BOOKMARK_GROUPS_MAX, GROUP_ORDER_MAX } from '@marquee/contract/values';
import { mergeInBulk, type ImportOp } from './bulk-merge.ts';
import { applyOp, noRemovals, type LibraryData } from './outbox.ts';

const meta = (title: string) => ({ title, year: 2000, poster: null });
const DAY = 24 * 60 * 60_000;
const T0 = Date.UTC(2024, 0, 1);

const play = (tmdbId: string, watchedAt: number, episode?: { id: string; number: number }): ImportOp => ({
  kind: 'history-add',
  type: episode ? 'show' : 'movie',
  tmdbId,
  meta: meta(`title ${tmdbId}`),
  ...(episode
    ? { season: { id: `s${tmdbId}`, number: 1, title: '' }, episode: { ...episode, title: '' } }
    : {}),
  watchedAt,
  watched: 0,
  duration: 0,
  completed: true,
  imported: true,
  at: watchedAt,
});
const bookmark = (tmdbId: string, at: number): ImportOp => ({
  kind: 'bookmark-add',
  type: 'movie',
  tmdbId,
  meta: meta(`title ${tmdbId}`),
  at,
});
const progress = (tmdbId: string, at: number, episodeId: string, watched: number): ImportOp => ({
  kind: 'progress-put',
  type: 'show',
  tmdbId,
  meta: meta(`show ${tmdbId}`),
  season: { id: 's1', number: 1, title: 'Season 1' },
  episode: { id: episodeId, number: Number(episodeId), title: '' },
  watched,
  duration: 2400,
  at,
});

/** A library the viewer already has: a bookmark, a removed bookmark, a play, a removed play, progress. */
function held(): LibraryData {
  let data: LibraryData = { bookmarks: {}, progress: {}, history: {}, removals: noRemovals() };
  for (const op of [
    bookmark('1', T0 + 5 * DAY),
    { kind: 'bookmark-remove' as const, type: 'movie' as const, tmdbId: '2', at: T0 + 9 * DAY },
    play('3', T0),
    { ...play('4', T0 + DAY), kind: 'history-add' as const },
    progress('5', T0 + 3 * DAY, '7', 600),
  ])
    data = applyOp(data, op as ImportOp);
  return applyOp(data, {
    kind: 'history-remove',
    type: 'movie',
    tmdbId: '4',
    watchedAt: T0 + DAY,
    at: T0 + 2 * DAY,
  });
}

const ops: ImportOp[] = [
  bookmark('1', T0), // older than the one held: kept as held
  bookmark('2', T0 + 2 * DAY), // older than its removal: stays removed
  bookmark('6', T0 + 4 * DAY), // new
  play('3', T0), // the same play again
  play('3', T0 + 10 * DAY), // a rewatch
  play('4', T0 + DAY), // removed after it was watched: stays removed
  play('8', T0 + 6 * DAY, { id: '81', number: 1 }),
  progress('5', T0 + 1 * DAY, '7', 100), // older than the progress held
  progress('5', T0 + 4 * DAY, '9', 300), // another episode
];

describe('an imported library merged in one pass', () => {
  it('ends where applying the changes one by one ends', () => {
    const { data } = mergeInBulk(held(), ops);
    const oneByOne = ops.reduce(applyOp, held());
    expect(data.bookmarks).toEqual(oneByOne.bookmarks);
    expect(data.progress).toEqual(oneByOne.progress);
    expect(data.history).toEqual(oneByOne.history);
    expect(data.removals?.bookmarks).toEqual(oneByOne.removals?.bookmarks);
    expect(data.removals?.history).toEqual(oneByOne.removals?.history);
  });

  it('reports only what changed: older changes and removals decide nothing new', () => {
    const { changed } = mergeInBulk(held(), ops);
    expect(Object.keys(changed.bookmarks)).toEqual(['movie:6']);
    expect(Object.values(changed.history).map((p) => [p.tmdbId, p.watchedAt])).toEqual([
      ['3', T0 + 10 * DAY],
      ['8', T0 + 6 * DAY],
    ]);
    expect(Object.keys(changed.progress)).toEqual(['show:5']);
    expect(Object.keys(changed.progress['show:5']!.episodes).sort()).toEqual(['7', '9']);
    expect(changed.progress['show:5']!.episodes['7']!.progress.watched).toBe(600);
  });

  it('the same file a second time changes nothing', () => {
    const first = mergeInBulk(held(), ops);
    const again = mergeInBulk(first.data, ops);
    expect(again.changed).toEqual({ bookmarks: {}, progress: {}, history: {} });
    expect(again.data.history).toEqual(first.data.history);
  });

  it('an undated bookmark (time 0) is added when new, never replaces one held', () => {
    const { changed } = mergeInBulk(held(), [bookmark('1', 0), bookmark('10', 0)]);
    expect(Object.keys(changed.bookmarks)).toEqual(['movie:10']);
  });

  it('takes tens of thousands of plays in one pass', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => play(String(100 + (i % 5_000)), T0 + i * 60_000));
    const { data, changed } = mergeInBulk(held(), many);
    expect(Object.keys(changed.history)).toHaveLength(50_000);
    expect(Object.keys(data.history ?? {})).toHaveLength(50_001);
  });
});

describe("an import's named lists and favourite episodes: added, never taken away", () => {
  const listed = (tmdbId: string, at: number, lists: { groups?: string[]; favoriteEpisodes?: string[] }) => ({
    ...(bookmark(tmdbId, at) as Extract<ImportOp, { kind: 'bookmark-add' }>),
    ...lists,
  });
  const order = (...names: string[]): ImportOp => ({ kind: 'group-order', order: names, at: 0 });

  it("a bookmark held gains the file's lists, even when it changed after the file's date", () => {
    const start = { ...held(), groupOrder: [] };
    const older = mergeInBulk(start, [listed('1', T0, { groups: ['A'], favoriteEpisodes: ['e1'] })]);
    // Kept as the viewer left it (its time and title), with the lists added.
    expect(older.data.bookmarks['movie:1']).toEqual({
      ...start.bookmarks['movie:1'],
      groups: ['A'],
      favoriteEpisodes: ['e1'],
    });
    const newer = mergeInBulk(older.data, [listed('1', T0 + 6 * DAY, { groups: ['B'] })]);
    expect(newer.data.bookmarks['movie:1']).toMatchObject({
      updatedAt: T0 + 6 * DAY,
      groups: ['A', 'B'],
      favoriteEpisodes: ['e1'],
    });
    // Nothing new to add: no change, at any date.
    for (const at of [0, T0 + 6 * DAY])
      expect(mergeInBulk(newer.data, [listed('1', at, { groups: ['B', 'A'] })]).changed.bookmarks).toEqual(
        {},
      );
  });

  it('a removed bookmark stays removed; the lists stay within what the server takes', () => {
    expect(mergeInBulk(held(), [listed('2', T0, { groups: ['A'] })]).changed.bookmarks).toEqual({});
    const many = Array.from({ length: BOOKMARK_GROUPS_MAX - 1 }, (_, i) => `list ${i}`);
    const first = mergeInBulk(held(), [listed('1', T0 + 6 * DAY, { groups: many })]);
    const { data } = mergeInBulk(first.data, [listed('1', 0, { groups: ['x', 'y'] })]);
    expect(data.bookmarks['movie:1']!.groups).toEqual([...many, 'x']);
  });

  it('the order of lists gains the new names once, at its end; the names held keep their places', () => {
    const start: LibraryData = {
      ...held(),
      bookmarks: { ...held().bookmarks, 'movie:1': { ...held().bookmarks['movie:1']!, groups: ['Mine'] } },
      groupOrder: ['First'],
    };
    const ops = [listed('6', 0, { groups: ['New', 'Mine'] }), order('Mine', 'New', 'First'), order('Other')];
    const { data, changed } = mergeInBulk(start, ops);
    expect(data.groupOrder).toEqual(['First', 'Mine', 'New', 'Other']);
    expect(changed.lists).toEqual(['New', 'Other']);
    const again = mergeInBulk(data, ops);
    expect(again.changed).toEqual({ bookmarks: {}, progress: {}, history: {} });
    expect(again.data.groupOrder).toBe(data.groupOrder);
  });

  it('the order holds no more names than the server takes', () => {
    const names = Array.from({ length: GROUP_ORDER_MAX - 1 }, (_, i) => `list ${i}`);
    const { data, changed } = mergeInBulk({ ...held(), groupOrder: names }, [order('a', 'b')]);
    expect(data.groupOrder).toEqual([...names, 'a']);
    expect(changed.lists).toEqual(['a']);
  });
});

describe("an import's ratings (decision 103): one per title, the later change wins", () => {
  const rating = (tmdbId: string, value: number, at: number, type: 'movie' | 'show' = 'movie'): ImportOp => ({
    kind: 'rating-put',
    type,
    tmdbId,
    meta: meta(`title ${tmdbId}`),
    rating: value,
    ratedAt: at,
    at,
  });
  /** Held: a rating of 1 given on day 5, the rating of 2 removed on day 9. */
  function rated(): LibraryData {
    let data = held();
    data = applyOp(data, rating('1', 7, T0 + 5 * DAY));
    data = applyOp(data, rating('2', 3, T0 + DAY));
    return applyOp(data, { kind: 'rating-remove', type: 'movie', tmdbId: '2', at: T0 + 9 * DAY });
  }
  const file: ImportOp[] = [
    rating('1', 4, T0), // older than the rating held: kept as held
    rating('2', 8, T0 + 2 * DAY), // older than its removal: stays removed
    rating('6', 9, T0 + 4 * DAY), // new
    rating('6', 9, T0 + 4 * DAY, 'show'), // a show with the same number: another title
    rating('1', 10, T0 + 6 * DAY), // newer than the one held: replaces it
  ];

  it('ends where applying them one by one ends, and reports only what changed', () => {
    const { data, changed } = mergeInBulk(rated(), file);
    const oneByOne = file.reduce(applyOp, rated());
    expect(data.ratings).toEqual(oneByOne.ratings);
    expect(data.removals?.ratings).toEqual(oneByOne.removals?.ratings);
    expect(data.ratings!['movie:1']).toMatchObject({ rating: 10, updatedAt: T0 + 6 * DAY });
    expect(data.ratings!['movie:2']).toBeUndefined();
    expect(Object.keys(changed.ratings ?? {}).sort()).toEqual(['movie:1', 'movie:6', 'show:6']);
    // Everything else is left as it was.
    expect(data.bookmarks).toEqual(rated().bookmarks);
  });

  it('the same file a second time changes nothing (nothing to send)', () => {
    const first = mergeInBulk(rated(), file);
    const again = mergeInBulk(first.data, file);
    expect(again.changed).toEqual({ bookmarks: {}, progress: {}, history: {} });
    expect(again.changed.ratings).toBeUndefined();
    expect(again.data.ratings).toEqual(first.data.ratings);
  });
});
