import { describe, expect, it } from 'vitest';
import { hasUndatedStep, syncConformanceCases } from '@marquee/contract/values';
import type { SyncCase, SyncCaseKind, SyncRemovalScope } from '@marquee/contract';
import { SAME_PLAY_WINDOW_MS } from '@marquee/contract/values';
import { playKey } from './history-rules.ts';
import { libraryKey } from './library-rules.ts';
import { applyOp, mergeServerState, type LibraryData, type OutboxOp } from './outbox.ts';

/*
 * The contract's sync cases (decisions 011, 072, 095, 103) on the web's rule: the outbox's applyOp, and
 * restore's mergeServerState (pending ops re-applied over the server's state). Plays are `history-add`
 * ops (a report, folded like one; an import's items `imported`) and `history-remove` ops; ratings are
 * `rating-put` (the value is the rating) and `rating-remove` ops. The server
 * runs the same table through its routes (apps/server/test/sync-conformance.test.ts). Undated changes
 * come only from the older clients; this client never makes one, so those cases are the server's alone.
 */

const MIN = 60_000;
const BASE = Date.UTC(2026, 0, 1);
const TMDB = '1396';
const SEASON = { id: 's1', number: 1, title: '' };
const EPISODE = { id: 'e1', number: 1, title: '' };
const scopes: Record<SyncRemovalScope, { seasonId?: string; episodeId?: string }> = {
  episode: { seasonId: 's1', episodeId: 'e1' },
  season: { seasonId: 's1' },
  title: {},
  'other-episode': { seasonId: 's1', episodeId: 'e2' },
  'other-season': { seasonId: 's2' },
  'other-play': { seasonId: 's1', episodeId: 'e1' },
};
/** Every play of a case is watched at this time, so folding (SAME_PLAY_WINDOW_MS) never moves it. */
const WATCHED_AT = BASE - 60 * MIN;
/** What `other-play` names: another play of the same movie or episode, outside the folding window. */
const OTHER_WATCHED_AT = WATCHED_AT - 24 * 60 * MIN;
const isPlay = (kind: SyncCaseKind) => kind === 'movie-play' || kind === 'episode-play';
/** When the case's rating was given (its change times vary; this does not). */
const RATED_AT = BASE - 2 * 60 * MIN;

let seq = 0;
function write(kind: SyncCaseKind, at: number, value: number, imported = false): OutboxOp {
  const base = { id: `op${++seq}`, tmdbId: TMDB, at: BASE + at * MIN };
  const meta = { title: `v${value}`, year: 2008, poster: null };
  if (kind === 'bookmark') return { ...base, kind: 'bookmark-add', type: 'movie', meta };
  if (kind === 'rating')
    return { ...base, kind: 'rating-put', type: 'movie', meta, rating: value, ratedAt: RATED_AT };
  if (isPlay(kind)) {
    const play = {
      ...base,
      kind: 'history-add' as const,
      meta,
      watchedAt: WATCHED_AT,
      watched: value,
      duration: 3000,
      completed: true,
      imported,
    };
    return kind === 'movie-play'
      ? { ...play, type: 'movie' }
      : { ...play, type: 'show', season: SEASON, episode: EPISODE };
  }
  const progress = { ...base, kind: 'progress-put' as const, meta, watched: value, duration: 3000 };
  return kind === 'movie'
    ? { ...progress, type: 'movie' }
    : { ...progress, type: 'show', season: SEASON, episode: EPISODE };
}
function remove(kind: SyncCaseKind, at: number, scope: SyncRemovalScope = 'episode'): OutboxOp {
  const base = { id: `op${++seq}`, tmdbId: TMDB, at: BASE + at * MIN };
  if (kind === 'bookmark') return { ...base, kind: 'bookmark-remove', type: 'movie' };
  if (kind === 'rating') return { ...base, kind: 'rating-remove', type: 'movie' };
  if (isPlay(kind)) {
    // The case's play itself, or another play of it a day earlier; wider scopes name no play.
    const onePlay =
      scope === 'episode'
        ? { watchedAt: WATCHED_AT }
        : scope === 'other-play'
          ? { watchedAt: OTHER_WATCHED_AT }
          : {};
    return kind === 'movie-play'
      ? { ...base, kind: 'history-remove', type: 'movie', ...onePlay }
      : { ...base, kind: 'history-remove', type: 'show', ...scopes[scope], ...onePlay };
  }
  return kind === 'movie'
    ? { ...base, kind: 'progress-remove', type: 'movie' }
    : { ...base, kind: 'progress-remove', type: 'show', ...scopes[scope] };
}

/** The ops a step is for this client: a dated import item is sent as the write it is (as `requeueLocalData` does). */
function opsOf(kind: SyncCaseKind, step: SyncCase['steps'][number]): OutboxOp[] {
  switch (step.op) {
    case 'write':
      return [write(kind, step.at!, step.value)];
    case 'remove':
      return [remove(kind, step.at, step.scope)];
    case 'import':
      return step.items.map((item) => write(kind, item.at!, item.value, isPlay(kind)));
  }
}

const startOps = (kind: SyncCaseKind, start: SyncCase['start']): OutboxOp[] =>
  start === null
    ? []
    : 'row' in start
      ? [write(kind, start.row.at, start.row.value)]
      : // A play's removal is the tombstone of a play held (095): written first, at the removal's time.
        [...(isPlay(kind) ? [write(kind, start.removedAt, 0)] : []), remove(kind, start.removedAt)];

/** What the library holds for the case's key: nothing, or the row's change time (minutes) and value. */
function heldOf(kind: SyncCaseKind, data: LibraryData): SyncCase['expected'] {
  if (kind === 'bookmark') {
    const b = data.bookmarks[libraryKey('movie', TMDB)];
    return b ? { at: (b.updatedAt - BASE) / MIN, value: Number(b.title.slice(1)) } : null;
  }
  if (kind === 'rating') {
    const r = data.ratings?.[libraryKey('movie', TMDB)];
    return r ? { at: (r.updatedAt - BASE) / MIN, value: r.rating } : null;
  }
  if (isPlay(kind)) {
    const key = playKey({
      type: kind === 'movie-play' ? 'movie' : 'show',
      tmdbId: TMDB,
      episodeId: kind === 'movie-play' ? undefined : EPISODE.id,
      watchedAt: WATCHED_AT,
    });
    const play = data.history?.[key];
    return play ? { at: (play.updatedAt - BASE) / MIN, value: play.watched } : null;
  }
  const entry = data.progress[libraryKey(kind === 'movie' ? 'movie' : 'show', TMDB)];
  const row = kind === 'movie' ? entry?.progress && entry : entry?.episodes[EPISODE.id];
  return row?.progress ? { at: (row.updatedAt - BASE) / MIN, value: row.progress.watched } : null;
}

const empty = (): LibraryData => ({ bookmarks: {}, progress: {} });
const runs = syncConformanceCases.flatMap((c) => c.kinds.map((kind) => ({ ...c, kind })));
const dated = runs.filter((r) => !hasUndatedStep(r));

describe('sync conformance on the web client (contract cases)', () => {
  it('runs every case our client can make (those without undated changes)', () => {
    expect(dated.length).toBeGreaterThanOrEqual(130);
    expect(runs.length - dated.length).toBeLessThanOrEqual(40);
    expect(dated.filter((r) => isPlay(r.kind)).length).toBeGreaterThanOrEqual(50);
    // Ratings (decision 103) run every case bookmarks run.
    const named = (kind: SyncCaseKind) => dated.filter((r) => r.kind === kind).map((r) => r.name);
    expect(named('rating')).toEqual(named('bookmark'));
    expect(named('rating').length).toBeGreaterThanOrEqual(20);
  });

  it('gives every play of a case one watchedAt, so folding a report never changes the key', () => {
    expect(SAME_PLAY_WINDOW_MS).toBeLessThan(WATCHED_AT - OTHER_WATCHED_AT);
    for (const r of dated.filter((d) => isPlay(d.kind))) {
      const ops = [...startOps(r.kind, r.start), ...r.steps.flatMap((s) => opsOf(r.kind, s))];
      const times = ops.flatMap((op) => (op.kind === 'history-add' ? [op.watchedAt] : []));
      expect(new Set(times), r.name).toEqual(new Set([WATCHED_AT]));
      const folded = ops.reduce<LibraryData>(applyOp, empty());
      const keys = Object.keys(folded.history ?? {});
      expect(
        keys.every((k) => k.endsWith(`|${WATCHED_AT}`)),
        r.name,
      ).toBe(true);
    }
  });

  describe.each(dated.map((r) => [`${r.kind}: ${r.name}`, r] as const))('%s', (_name, c) => {
    it('applyOp, one change after another', () => {
      const ops = [...startOps(c.kind, c.start), ...c.steps.flatMap((s) => opsOf(c.kind, s))];
      expect(heldOf(c.kind, ops.reduce<LibraryData>(applyOp, empty()))).toEqual(c.expected);
    });

    it('restore: the steps pending over the server’s state', () => {
      const server = startOps(c.kind, c.start).reduce<LibraryData>(applyOp, empty());
      const pending = c.steps.flatMap((s) => opsOf(c.kind, s));
      expect(heldOf(c.kind, mergeServerState(server, pending))).toEqual(c.expected);
    });
  });
});
