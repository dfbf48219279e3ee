import { BOOKMARK_GROUPS_MAX, FAVORITE_EPISODES_MAX, GROUP_ORDER_MAX } from '@marquee/contract/values';
import { libraryKey, listNames, type BookmarkEntry } from './library-rules.ts';
import { playKey } from './history-rules.ts';
import type { RatingEntry } from './ratings-rules.ts';
import { applyOp, noRemovals, type LibraryData, type OutboxOpInput, type Removals } from './outbox.ts';

/*
 * A whole file's library merged into the one held (an import from another service, issue 27), by the
 * outbox's own rules (applyOp: last writer wins per entry, removals remembered). applyOp copies the
 * library for every change, which is fine for a click and quadratic for 50,000 plays: here each change
 * is applied to a slice that holds only what it touches, and the slice's result written back.
 *
 * An import adds, never takes away: a bookmark's named lists and favourite episodes are joined with
 * those held, and the order of lists only gains the names it lacks, at its end.
 */

/**
 * The changes an import makes: bookmarks (with the named lists and favourite episodes to add), progress
 * rows, plays and ratings (decision 103; `ratingImportOp` makes one of a file's record), each at its own
 * change time, and the names of the file's lists in the file's order.
 */
export type ImportOp = Extract<
  OutboxOpInput,
  { kind: 'bookmark-add' | 'progress-put' | 'history-add' | 'rating-put' | 'group-order' }
>;
type BookmarkAdd = Extract<ImportOp, { kind: 'bookmark-add' }>;

export interface BulkMerge {
  /** The held library with the changes applied (`groupOrder` set when the import adds lists). */
  data: LibraryData;
  /**
   * Only what changed: the entries to send to the account (nothing when the file held nothing new), the
   * ratings it changed (absent: none), and the named lists the import adds, appended to the order
   * (absent: none; the order is then unchanged).
   */
  changed: Required<Pick<LibraryData, 'bookmarks' | 'progress' | 'history'>> &
    Pick<LibraryData, 'ratings'> & { lists?: string[] };
}

const emptyRemovals = (): Removals => noRemovals();

/** Applies `ops` in order; entries and removals not touched by them are shared with `held`. */
export function mergeInBulk(held: LibraryData, ops: readonly ImportOp[]): BulkMerge {
  const bookmarks = { ...held.bookmarks };
  const progress = { ...held.progress };
  const history = { ...(held.history ?? {}) };
  const ratings = { ...(held.ratings ?? {}) };
  const removals = held.removals ?? emptyRemovals();
  const tombstones = {
    bookmarks: { ...removals.bookmarks },
    progress: removals.progress,
    history: { ...(removals.history ?? {}) },
    ratings: { ...(removals.ratings ?? {}) },
  };
  const changed: BulkMerge['changed'] = { bookmarks: {}, progress: {}, history: {} };
  const changedRatings: Record<string, RatingEntry> = {};
  const order = orderOf(held);

  for (const op of ops) {
    if (op.kind === 'group-order') {
      order.add(op.order);
      continue;
    }
    if (op.kind === 'history-add') {
      const key = playKey({ ...op, episodeId: op.type === 'show' ? op.episode?.id : undefined });
      const slice = sliceOf({ history: pick(history, key), removed: pick(tombstones.history, key) });
      const out = applyOp(slice, op);
      if (unchanged(slice, out, (d) => [d.history?.[key], d.removals?.history?.[key]])) continue;
      writeBack(history, key, out.history?.[key]);
      writeBack(tombstones.history, key, out.removals?.history?.[key]);
      if (history[key]) changed.history[key] = history[key];
      continue;
    }
    const key = libraryKey(op.type, op.tmdbId);
    if (op.kind === 'rating-put') {
      const slice = sliceOf({ ratings: pick(ratings, key), ratingRemovals: pick(tombstones.ratings, key) });
      const out = applyOp(slice, op);
      if (unchanged(slice, out, (d) => [d.ratings?.[key], d.removals?.ratings?.[key]])) continue;
      writeBack(ratings, key, out.ratings?.[key]);
      writeBack(tombstones.ratings, key, out.removals?.ratings?.[key]);
      if (ratings[key]) changedRatings[key] = ratings[key];
      continue;
    }
    if (op.kind === 'bookmark-add') {
      const slice = sliceOf({
        bookmarks: pick(bookmarks, key),
        bookmarkRemovals: pick(tombstones.bookmarks, key),
      });
      const out = applyOp(slice, withHeldLists(op, bookmarks[key]));
      if (unchanged(slice, out, (d) => [d.bookmarks[key], d.removals?.bookmarks[key]])) continue;
      writeBack(bookmarks, key, out.bookmarks[key]);
      writeBack(tombstones.bookmarks, key, out.removals?.bookmarks[key]);
      if (bookmarks[key]) changed.bookmarks[key] = bookmarks[key];
      continue;
    }
    const slice = sliceOf({ progress: pick(progress, key), progressRemovals: pick(removals.progress, key) });
    const out = applyOp(slice, op);
    if (unchanged(slice, out, (d) => [d.progress[key]])) continue;
    writeBack(progress, key, out.progress[key]);
    if (progress[key]) changed.progress[key] = progress[key];
  }

  const lists = order.added();
  return {
    data: {
      ...held,
      bookmarks,
      progress,
      history,
      ratings,
      removals: tombstones,
      ...(lists.length ? { groupOrder: order.whole() } : {}),
    },
    changed: {
      ...changed,
      ...(Object.keys(changedRatings).length ? { ratings: changedRatings } : {}),
      ...(lists.length ? { lists } : {}),
    },
  };
}

/** `held`'s names, then those of `added` it lacks, at most `max`. */
function joined(held: readonly string[] | undefined, added: readonly string[], max: number): string[] {
  return [...new Set([...(held ?? []), ...added])].slice(0, Math.max(max, held?.length ?? 0));
}

/**
 * The bookmark write with the held bookmark's lists and favourite episodes kept, the file's added (never
 * past the server's limits). When that adds any to a bookmark changed after the file's date, the write is
 * dated as the held one (the same time wins, as the later arrival) with its title data: the lists land,
 * the bookmark stays as the viewer left it. Nothing added: as it came (older, it then changes nothing).
 */
function withHeldLists(op: BookmarkAdd, held: BookmarkEntry | undefined): BookmarkAdd {
  if (!held || (!op.groups && !op.favoriteEpisodes)) return op;
  const groups = op.groups && joined(held.groups, op.groups, BOOKMARK_GROUPS_MAX);
  const favorites =
    op.favoriteEpisodes && joined(held.favoriteEpisodes, op.favoriteEpisodes, FAVORITE_EPISODES_MAX);
  const join = {
    ...op,
    ...(groups ? { groups } : {}),
    ...(favorites ? { favoriteEpisodes: favorites } : {}),
  };
  const adds =
    (groups?.length ?? 0) > (held.groups?.length ?? 0) ||
    (favorites?.length ?? 0) > (held.favoriteEpisodes?.length ?? 0);
  if (!adds || op.at >= held.updatedAt) return join;
  return { ...join, at: held.updatedAt, meta: { title: held.title, year: held.year, poster: held.poster } };
}

/**
 * The order of named lists as the import leaves it: the viewer's lists as they are shown (the order, then
 * the names only bookmarks use), then the file's new names in its order, up to the server's limit.
 */
function orderOf(held: LibraryData) {
  let whole: string[] | null = null;
  let shown = 0;
  return {
    add(names: readonly string[]) {
      if (!whole) {
        whole = listNames(held.bookmarks, held.groupOrder ?? []);
        shown = whole.length;
      }
      whole = joined(whole, names, GROUP_ORDER_MAX);
    },
    whole: () => whole ?? [],
    added: () => (whole ?? []).slice(shown),
  };
}

/**
 * Whether applying an op left what it touches as it was: the same file imported again (an entry
 * rewritten with its own values at its own time) is no change, and nothing is sent for it.
 */
function unchanged(before: LibraryData, after: LibraryData, parts: (d: LibraryData) => unknown[]): boolean {
  return after === before || sameValue(parts(before), parts(after));
}

/** Deep equality of plain data, whatever the order of keys. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  return (
    ka.length === kb.length &&
    ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
  );
}

function pick<T>(record: Record<string, T>, key: string): Record<string, T> {
  const value = record[key];
  return value === undefined ? {} : { [key]: value };
}

function writeBack<T>(record: Record<string, T>, key: string, value: T | undefined): void {
  if (value === undefined) delete record[key];
  else record[key] = value;
}

function sliceOf(parts: {
  bookmarks?: LibraryData['bookmarks'];
  progress?: LibraryData['progress'];
  history?: NonNullable<LibraryData['history']>;
  ratings?: NonNullable<LibraryData['ratings']>;
  bookmarkRemovals?: Removals['bookmarks'];
  progressRemovals?: Removals['progress'];
  removed?: NonNullable<Removals['history']>;
  ratingRemovals?: NonNullable<Removals['ratings']>;
}): LibraryData {
  return {
    bookmarks: parts.bookmarks ?? {},
    progress: parts.progress ?? {},
    history: parts.history ?? {},
    ratings: parts.ratings ?? {},
    removals: {
      bookmarks: parts.bookmarkRemovals ?? {},
      progress: parts.progressRemovals ?? {},
      history: parts.removed ?? {},
      ratings: parts.ratingRemovals ?? {},
    },
  };
}
