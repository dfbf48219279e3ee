import { libraryKey } from './library-rules.ts';
import { playKey } from './history-rules.ts';
import { applyOp, noRemovals, type LibraryData, type OutboxOpInput, type Removals } from './outbox.ts';

/*
 * A whole file's library merged into the one held (an import from another service, issue 27), by the
 * outbox's own rules (applyOp: last writer wins per entry, removals remembered). applyOp copies the
 * library for every change, which is fine for a click and quadratic for 50,000 plays: here each change
 * is applied to a slice that holds only what it touches, and the slice's result written back.
 */

/** The changes an import makes: bookmarks, progress rows and plays, each at its own change time. */
export type ImportOp = Extract<OutboxOpInput, { kind: 'bookmark-add' | 'progress-put' | 'history-add' }>;

export interface BulkMerge {
  /** The held library with the changes applied. */
  data: LibraryData;
  /** Only what changed: the entries to send to the account (nothing when the file held nothing new). */
  changed: Required<Pick<LibraryData, 'bookmarks' | 'progress' | 'history'>>;
}

const emptyRemovals = (): Removals => noRemovals();

/** Applies `ops` in order; entries and removals not touched by them are shared with `held`. */
export function mergeInBulk(held: LibraryData, ops: readonly ImportOp[]): BulkMerge {
  const bookmarks = { ...held.bookmarks };
  const progress = { ...held.progress };
  const history = { ...(held.history ?? {}) };
  const removals = held.removals ?? emptyRemovals();
  const tombstones = {
    bookmarks: { ...removals.bookmarks },
    progress: removals.progress,
    history: { ...(removals.history ?? {}) },
  };
  const changed: BulkMerge['changed'] = { bookmarks: {}, progress: {}, history: {} };

  for (const op of ops) {
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
    if (op.kind === 'bookmark-add') {
      const slice = sliceOf({
        bookmarks: pick(bookmarks, key),
        bookmarkRemovals: pick(tombstones.bookmarks, key),
      });
      const out = applyOp(slice, op);
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

  return {
    data: { ...held, bookmarks, progress, history, removals: tombstones },
    changed,
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
  bookmarkRemovals?: Removals['bookmarks'];
  progressRemovals?: Removals['progress'];
  removed?: NonNullable<Removals['history']>;
}): LibraryData {
  return {
    bookmarks: parts.bookmarks ?? {},
    progress: parts.progress ?? {},
    history: parts.history ?? {},
    removals: {
      bookmarks: parts.bookmarkRemovals ?? {},
      progress: parts.progressRemovals ?? {},
      history: parts.removed ?? {},
    },
  };
}
