import { describe, expect, it } from 'vitest';
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
