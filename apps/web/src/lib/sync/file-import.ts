import { useAccountStore } from '../../stores/account-store.ts';
import { mergeInBulk, type BulkMerge, type ImportOp } from '../../stores/library/bulk-merge.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { api, ApiError, isMissingNewerRoute } from '../api/index.ts';
import { isNewerKind } from './library-kinds.ts';
import { queueAsOps } from './local-import.ts';
import { createOutboxDelivery } from './outbox-delivery.ts';
import { importPayload, profileHeaders } from './wire.ts';

/*
 * A file's library into the viewer's (the import page, issue 27): merged on this device at once by the
 * library's rules, then — signed in — only what changed is sent to the account through the import routes,
 * in pages (the big-library rules: a whole history in one body passes neither proxies nor the server's
 * item limit). What cannot be sent now goes to the outbox, so nothing is lost.
 */

/** Plays per import request: ~300 bytes each, so a page is ~1.5 MB (the shipped nginx takes 8 MB on imports). */
export const HISTORY_PAGE_SIZE = 5_000;
/** Bookmarks, progress rows or ratings per import request (a page of ratings is about 250 KB). */
export const LIBRARY_PAGE_SIZE = 1_000;
/** A refused page (429) is tried again after this long, doubling, this many times. */
const RATE_LIMIT_WAIT_MS = 15_000;
const RATE_LIMIT_TRIES = 5;

export interface FileImportProgress {
  /** Entries sent to the account so far, and in all. */
  sent: number;
  total: number;
  /** The account asked to wait (too many imports at once): sending resumes at this time (epoch ms). */
  waitingUntil?: number;
}

export interface FileImportOutcome {
  /** Entries that changed the library (nothing when the file held nothing new). */
  bookmarks: number;
  progress: number;
  plays: number;
  /** Ratings the file gave or changed (decision 103; absent: none). */
  ratings?: number;
  /** Named lists the file added (appended to the viewer's order of lists). */
  lists: number;
  /** Where they are: the account (signed in and sent), or this device (signed out, or queued to send). */
  savedTo: 'account' | 'device' | 'queued';
  /** The account's server keeps no watch history (the older family): plays stay on this device. */
  historyStaysOnDevice: boolean;
  /** The account's server keeps no ratings (the older family): they stay on this device (absent: false). */
  ratingsStayOnDevice?: boolean;
}

export interface FileImportOptions {
  onProgress?(progress: FileImportProgress): void;
  /** Waits between tries of a refused page (tests hand their own). */
  wait?(ms: number): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Merges `ops` into the active library and, signed in, sends what changed to the account. The bookmarks
 * carry their named lists (`group`); lists the file adds change the order of lists once (`setGroupOrder`:
 * an outbox entry signed in, like any change of the order).
 */
export async function importIntoLibrary(
  ops: readonly ImportOp[],
  { onProgress, wait = sleep }: FileImportOptions = {},
): Promise<FileImportOutcome> {
  const profile = useLibraryStore.getState().profile;
  const changed = mergeImported(ops);
  const counts = {
    bookmarks: Object.keys(changed.bookmarks).length,
    progress: Object.keys(changed.progress).length,
    plays: Object.keys(changed.history).length,
    ratings: Object.keys(changed.ratings ?? {}).length,
    lists: changed.lists?.length ?? 0,
  };
  const account = useAccountStore.getState().account;
  if (!account)
    return { ...counts, savedTo: 'device', historyStaysOnDevice: false, ratingsStayOnDevice: false };

  const chunks = [
    ...chunksOf(changed.bookmarks, LIBRARY_PAGE_SIZE).map((bookmarks) => ({
      kind: 'bookmarks' as const,
      data: { ...none(), bookmarks },
    })),
    // A show's progress is a row per episode: a page holds whole titles, about LIBRARY_PAGE_SIZE rows.
    ...chunksOf(changed.progress, LIBRARY_PAGE_SIZE, (p) => Math.max(1, Object.keys(p.episodes).length)).map(
      (progress) => ({
        kind: 'progress' as const,
        data: { ...none(), progress },
      }),
    ),
    ...chunksOf(changed.history, HISTORY_PAGE_SIZE).map((history) => ({
      kind: 'history' as const,
      data: { ...none(), history },
    })),
    ...chunksOf(changed.ratings ?? {}, LIBRARY_PAGE_SIZE).map((ratings) => ({
      kind: 'ratings' as const,
      data: { ...none(), ratings },
    })),
  ];
  const total = counts.bookmarks + counts.progress + counts.plays + counts.ratings;
  const delivery = createOutboxDelivery();
  const headers = () => delivery.writeHeaders(profileHeaders(profile));
  const params = { uid: account.userId };
  let sent = 0;
  /** The newer kinds the account's server has no routes for (the older family). */
  const staysOnDevice = new Set<string>();
  const outcome = (savedTo: FileImportOutcome['savedTo']): FileImportOutcome => ({
    ...counts,
    savedTo,
    historyStaysOnDevice: staysOnDevice.has('history'),
    ratingsStayOnDevice: staysOnDevice.has('ratings'),
  });
  onProgress?.({ sent, total });
  for (const [index, chunk] of chunks.entries()) {
    if (staysOnDevice.has(chunk.kind)) continue;
    const payload = importPayload(chunk.data);
    try {
      await withRetries(
        () => {
          if (chunk.kind === 'bookmarks')
            return api.sync.importBookmarks({ params, body: payload.bookmarks, headers: headers() });
          if (chunk.kind === 'progress')
            return api.sync.importProgress({ params, body: payload.progress, headers: headers() });
          if (chunk.kind === 'ratings')
            return api.ratings.importRatings({ params, body: payload.ratings, headers: headers() });
          return api.history.importWatchHistory({ params, body: payload.history, headers: headers() });
        },
        (ms) => {
          onProgress?.({ sent, total, waitingUntil: Date.now() + ms });
          return wait(ms);
        },
      );
    } catch (error) {
      if (isNewerKind(chunk.kind) && isMissingNewerRoute(error)) {
        // A server of the older family keeps no history nor ratings: they stay on this device.
        staysOnDevice.add(chunk.kind);
        continue;
      }
      // Offline, or the account refused: what was not acknowledged goes through the outbox.
      for (const rest of chunks.slice(index)) queueAsOps(rest.data, profile);
      return outcome('queued');
    }
    sent += Object.keys(chunk.data[chunk.kind] ?? {}).length;
    onProgress?.({ sent, total });
  }
  return outcome('account');
}

/**
 * `ops` merged into the active library in one state change, without outbox entries (the caller sends
 * what changed in pages), then — when the file adds lists — the new order of lists as one change of it.
 * Here and not a store action: the merge's code stays out of the first view.
 */
function mergeImported(ops: readonly ImportOp[]): BulkMerge['changed'] {
  let changed = none();
  let order = undefined as string[] | undefined;
  useLibraryStore.setState((state) => {
    const merged = mergeInBulk(state, ops);
    changed = merged.changed;
    order = changed.lists ? merged.data.groupOrder : undefined;
    return {
      bookmarks: merged.data.bookmarks,
      progress: merged.data.progress,
      history: merged.data.history ?? {},
      ratings: merged.data.ratings ?? {},
      removals: merged.data.removals ?? state.removals,
    };
  });
  if (order) useLibraryStore.getState().setGroupOrder(order);
  return changed;
}

const none = (): BulkMerge['changed'] => ({ bookmarks: {}, progress: {}, history: {} });

/** `record`'s entries in records weighing at most `size` (one entry alone may weigh more). */
function chunksOf<T>(record: Record<string, T>, size: number, weight: (entry: T) => number = () => 1) {
  const out: Record<string, T>[] = [];
  let current: Record<string, T> = {};
  let load = 0;
  for (const [key, entry] of Object.entries(record)) {
    const w = weight(entry);
    if (load > 0 && load + w > size) {
      out.push(current);
      current = {};
      load = 0;
    }
    current[key] = entry;
    load += w;
  }
  if (load > 0) out.push(current);
  return out;
}

/** `call`, tried again after a 429 (too many imports at once), waiting longer each time. */
async function withRetries(
  call: () => Promise<unknown>,
  pause: (ms: number) => Promise<void>,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await call();
      return;
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt + 1 >= RATE_LIMIT_TRIES)
        throw error;
      await pause(RATE_LIMIT_WAIT_MS * 2 ** attempt);
    }
  }
}
