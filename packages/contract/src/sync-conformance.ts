/*
 * Sync conformance (decisions 011, 072, 095 and 103): what one library key holds after a sequence of changes,
 * as plain data. The web runs every case on its outbox rule (`applyOp`, `mergeServerState`), the server
 * through its routes and SQL on SQLite and PostgreSQL, so client and server cannot drift apart.
 *
 * The rule the table pins down, as the server implements it:
 * - A dated change applies iff its time is >= the time of what is held for its key — a row or a
 *   removal covering it (`changeWins`). Equal times: the later arrival wins (a write over a removal
 *   at its time comes back; a removal at a row's time removes it; repeating a write is a no-op).
 * - A removal is remembered (a bookmark or rating tombstone, a progress removal per title / season /
 *   episode, keeping its latest time), so a later-arriving, older write stays dropped. Ratings (103)
 *   follow bookmarks' rule exactly: one per movie or show, removed whole.
 * - Plays of the watch history (095) follow the same rule per play (a movie or an episode at one
 *   `watchedAt`), but a removal turns only the plays held then into tombstones: a removal of a title or a
 *   season covers no play that arrives later, and a play's tombstone keeps the time it was removed at.
 * - Imports: payload duplicates collapse to the latest (equal times: the later item); dated items follow
 *   the rule; undated items (the older clients') only fill a gap where neither a row nor a removal
 *   covers the key (072), with the server's time. An undated write (PUT/POST without `updatedAt`, the
 *   older clients) takes the server's time, so it is the newest.
 */

/**
 * What a case's key is: a movie bookmark, a movie's progress, one episode's progress of a show, one
 * play of the watch history (a movie's or an episode's, at one fixed `watchedAt` for the whole case),
 * or a movie's rating.
 */
export type SyncCaseKind = 'bookmark' | 'movie' | 'episode' | 'movie-play' | 'episode-play' | 'rating';

/**
 * What a removal names. Progress: episodes only (bookmarks and movies are removed whole); `episode`,
 * `season`, `title`: the case's episode, its season, its whole show. Plays: `episode` (the default) is
 * the case's play itself, `title` every play of the movie or show, `season` every play of the season;
 * `other-play` another play of the same movie or episode (a day earlier). `other-…`: a neighbour that
 * does not cover the key.
 */
export type SyncRemovalScope =
  'episode' | 'season' | 'title' | 'other-episode' | 'other-season' | 'other-play';

/**
 * Times are minutes after a base the runner picks (in the past, so no clamping applies); an absent
 * time is an undated change, which our web client never sends (the runners of the web skip them).
 * `value` tells writes apart: a bookmark's title `v<value>`, a progress row's or a play's `watched`
 * seconds, a rating's value (the cases' values are 1–4, valid ratings).
 */
export type SyncStep =
  | { op: 'write'; at?: number; value: number }
  | { op: 'remove'; at: number; scope?: SyncRemovalScope }
  | { op: 'import'; items: { at?: number; value: number }[] };

export interface SyncCase {
  name: string;
  /** Runs once per kind. */
  kinds: readonly SyncCaseKind[];
  /**
   * What the key holds before the steps: nothing, a row, or a removal (scope: the case's episode; for a
   * play its tombstone, made by writing the play at that time and removing it).
   */
  start: null | { row: { at: number; value: number } } | { removedAt: number };
  steps: SyncStep[];
  /** What the key holds at the end: nothing, or a row with its change time ('now' = the server's time). */
  expected: null | { at: number | 'now'; value: number };
}

const PLAYS: readonly SyncCaseKind[] = ['movie-play', 'episode-play'];
const ALL: readonly SyncCaseKind[] = ['bookmark', 'movie', 'episode', 'rating', ...PLAYS];
/** Bookmarks, progress and ratings. */
const NOT_PLAYS: readonly SyncCaseKind[] = ['bookmark', 'movie', 'episode', 'rating'];
const EPISODE: readonly SyncCaseKind[] = ['episode'];
const EPISODES: readonly SyncCaseKind[] = ['episode', 'episode-play'];

export const syncConformanceCases: readonly SyncCase[] = [
  // ---- writes ----
  {
    name: 'a write over nothing is stored',
    kinds: ALL,
    start: null,
    steps: [{ op: 'write', at: 10, value: 1 }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a newer write wins',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'write', at: 20, value: 2 }],
    expected: { at: 20, value: 2 },
  },
  {
    name: 'an older write loses',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'write', at: 5, value: 2 }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'equal times: the later arrival wins',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'write', at: 10, value: 2 }],
    expected: { at: 10, value: 2 },
  },
  {
    name: 'writes arriving out of order end at the latest',
    kinds: ALL,
    start: null,
    steps: [
      { op: 'write', at: 30, value: 3 },
      { op: 'write', at: 10, value: 1 },
      { op: 'write', at: 20, value: 2 },
    ],
    expected: { at: 30, value: 3 },
  },
  // ---- removals ----
  {
    name: 'a removal newer than the row removes it',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 20 }],
    expected: null,
  },
  {
    name: 'a removal older than the row leaves it',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 5 }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a removal at the row’s time removes it (later arrival)',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 10 }],
    expected: null,
  },
  {
    name: 'a removal of nothing is remembered',
    kinds: NOT_PLAYS,
    start: null,
    steps: [
      { op: 'remove', at: 10 },
      { op: 'write', at: 5, value: 1 },
    ],
    expected: null,
  },
  {
    // Plays (095): a removal turns only the plays held then into tombstones.
    name: 'a removal of a play not held is not remembered: a late older write is stored',
    kinds: PLAYS,
    start: null,
    steps: [
      { op: 'remove', at: 10 },
      { op: 'write', at: 5, value: 1 },
    ],
    expected: { at: 5, value: 1 },
  },
  // ---- a removal and a late write, both orders ----
  {
    name: 'a late write older than a removal stays removed',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'write', at: 5, value: 1 }],
    expected: null,
  },
  {
    name: 'a write newer than a removal brings it back',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'write', at: 20, value: 1 }],
    expected: { at: 20, value: 1 },
  },
  {
    name: 'a write at a removal’s time brings it back (later arrival)',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'write', at: 10, value: 1 }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a late removal older than a write leaves the write',
    kinds: ALL,
    start: null,
    steps: [
      { op: 'write', at: 20, value: 1 },
      { op: 'remove', at: 10 },
    ],
    expected: { at: 20, value: 1 },
  },
  {
    name: 'row, removal, then a late write between them: removed',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [
      { op: 'remove', at: 20 },
      { op: 'write', at: 15, value: 2 },
    ],
    expected: null,
  },
  {
    name: 'a late older removal does not shorten a newer one',
    kinds: ALL,
    start: { removedAt: 20 },
    steps: [
      { op: 'remove', at: 10 },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: null,
  },
  {
    name: 'removed, re-added, removed again, then a late write in between',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [
      { op: 'write', at: 20, value: 1 },
      { op: 'remove', at: 30 },
      { op: 'write', at: 25, value: 2 },
    ],
    expected: null,
  },
  // ---- removal scopes (progress of an episode; plays) ----
  {
    name: 'removing the whole show removes the episode',
    kinds: EPISODE,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 20, scope: 'title' }],
    expected: null,
  },
  {
    name: 'removing every play of its title removes the play',
    kinds: PLAYS,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 20, scope: 'title' }],
    expected: null,
  },
  {
    name: 'removing its season removes the episode',
    kinds: EPISODES,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 20, scope: 'season' }],
    expected: null,
  },
  {
    name: 'removing another episode or season leaves it',
    kinds: EPISODES,
    start: { row: { at: 10, value: 1 } },
    steps: [
      { op: 'remove', at: 20, scope: 'other-episode' },
      { op: 'remove', at: 20, scope: 'other-season' },
    ],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'removing another play of the same movie or episode leaves it',
    kinds: PLAYS,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'remove', at: 20, scope: 'other-play' }],
    expected: { at: 10, value: 1 },
  },
  {
    // Not plays: a title's removal tombstones the plays held then (095), see the next case.
    name: 'a late write older than the show’s removal stays removed',
    kinds: EPISODE,
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'title' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: null,
  },
  {
    name: 'a title’s removal covers only the plays held then: a late older play comes in',
    kinds: PLAYS,
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'title' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: { at: 15, value: 1 },
  },
  {
    // Not plays: see the next case.
    name: 'a late write older than its season’s removal stays removed',
    kinds: EPISODE,
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'season' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: null,
  },
  {
    name: 'a season’s removal covers only the plays held then: a late older play comes in',
    kinds: ['episode-play'],
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'season' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: { at: 15, value: 1 },
  },
  {
    // Not plays: a removed play is no play held, so the show's removal leaves its tombstone (next case).
    name: 'the newest covering removal counts: episode removed earlier, show later',
    kinds: EPISODE,
    start: { removedAt: 10 },
    steps: [
      { op: 'remove', at: 20, scope: 'title' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: null,
  },
  {
    name: 'a title’s removal leaves a removed play’s tombstone at its own time',
    kinds: PLAYS,
    start: { removedAt: 10 },
    steps: [
      { op: 'remove', at: 20, scope: 'title' },
      { op: 'write', at: 15, value: 1 },
    ],
    expected: { at: 15, value: 1 },
  },
  {
    name: 'a removal of another episode does not block a write',
    kinds: EPISODES,
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'other-episode' },
      { op: 'write', at: 10, value: 1 },
    ],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a removal of another play does not block a write',
    kinds: PLAYS,
    start: null,
    steps: [
      { op: 'remove', at: 20, scope: 'other-play' },
      { op: 'write', at: 10, value: 1 },
    ],
    expected: { at: 10, value: 1 },
  },
  // ---- dated imports ----
  {
    name: 'a dated import over nothing is stored',
    kinds: ALL,
    start: null,
    steps: [{ op: 'import', items: [{ at: 10, value: 1 }] }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a dated import newer than the row wins',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'import', items: [{ at: 20, value: 2 }] }],
    expected: { at: 20, value: 2 },
  },
  {
    name: 'a dated import older than the row loses',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'import', items: [{ at: 5, value: 2 }] }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'a dated import at the row’s time wins (later arrival)',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'import', items: [{ at: 10, value: 2 }] }],
    expected: { at: 10, value: 2 },
  },
  {
    name: 'a dated import older than a removal stays removed',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'import', items: [{ at: 5, value: 1 }] }],
    expected: null,
  },
  {
    name: 'a dated import newer than a removal brings it back',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'import', items: [{ at: 20, value: 1 }] }],
    expected: { at: 20, value: 1 },
  },
  {
    name: 'an import’s duplicates collapse to the latest (equal times: the later item)',
    kinds: ALL,
    start: null,
    steps: [
      {
        op: 'import',
        items: [
          { at: 10, value: 1 },
          { at: 30, value: 2 },
          { at: 20, value: 3 },
          { at: 30, value: 4 },
        ],
      },
    ],
    expected: { at: 30, value: 4 },
  },
  // ---- undated changes (older clients) ----
  {
    name: 'an undated import fills a gap',
    kinds: ALL,
    start: null,
    steps: [{ op: 'import', items: [{ value: 1 }] }],
    expected: { at: 'now', value: 1 },
  },
  {
    name: 'an undated import never changes a row, even an older one',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'import', items: [{ value: 2 }] }],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'an undated import never brings back a removal (072)',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'import', items: [{ value: 1 }] }],
    expected: null,
  },
  {
    // Not plays: see the next case.
    name: 'an undated import never brings back what a wider removal covers',
    kinds: EPISODE,
    start: null,
    steps: [
      { op: 'remove', at: 10, scope: 'title' },
      { op: 'import', items: [{ value: 1 }] },
    ],
    expected: null,
  },
  {
    name: 'an undated import fills a play its title’s removal did not hold',
    kinds: PLAYS,
    start: null,
    steps: [
      { op: 'remove', at: 10, scope: 'title' },
      { op: 'import', items: [{ value: 1 }] },
    ],
    expected: { at: 'now', value: 1 },
  },
  {
    name: 'in one import a dated item beats an undated one',
    kinds: ALL,
    start: null,
    steps: [
      {
        op: 'import',
        items: [{ at: 10, value: 1 }, { value: 2 }],
      },
    ],
    expected: { at: 10, value: 1 },
  },
  {
    name: 'an undated write takes the server’s time: it is the newest',
    kinds: ALL,
    start: { row: { at: 10, value: 1 } },
    steps: [{ op: 'write', value: 2 }],
    expected: { at: 'now', value: 2 },
  },
  {
    name: 'an undated write after a removal brings it back',
    kinds: ALL,
    start: { removedAt: 10 },
    steps: [{ op: 'write', value: 1 }],
    expected: { at: 'now', value: 1 },
  },
];

/** Whether a case has a change our web client never makes (undated: the older clients'). */
export const hasUndatedStep = (c: SyncCase): boolean =>
  c.steps.some((s) =>
    s.op === 'import' ? s.items.some((i) => i.at === undefined) : s.op === 'write' && s.at === undefined,
  );
