import { z } from './z.ts';
import { ChangeTime, IsoInstant, UserIdParams } from './accounts.ts';
import { EARLIEST_WATCH_MS } from './sync-rules.ts';
import { defineEndpoint, type EndpointErrors } from './endpoint.ts';
import { historyRoutes } from './routes.ts';
import {
  IMPORT_MAX_ITEMS,
  LibraryReadQuery,
  MediaMeta,
  MediaMetaInput,
  SyncMediaType,
  SyncTmdbId,
} from './sync.ts';

/*
 * Watch history (decision 095): a dated diary of plays, one entry per play of a movie or an episode.
 * The wire shapes are those p-stream's client speaks (`/users/:uid/watch-history`); pages, removals of
 * one entry and change times are ours, as for bookmarks and progress.
 */

const ItemId = z.string().min(1).max(64);
const OptionalInt = z.number().int().min(0).max(1_000_000).nullish();

/** When the title was watched: ISO 8601 with `Z` or an offset; later than now is taken as now. */
export const WatchedAt = z.iso
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) >= EARLIEST_WATCH_MS, 'before the first film was shown');

/**
 * One play, as clients send it. A play of the same movie or episode at the same `watchedAt` is the same
 * entry (sending it again changes nothing); another `watchedAt` is another play — unless it is within
 * `SAME_PLAY_WINDOW_MS` of one already held, sent by a device while watching (not an import).
 */
export const WatchHistoryInput = z.object({
  /** With one item the path's id is the key; in an array each item's own (the path's when absent). */
  tmdbId: z.string().max(64).optional(),
  meta: MediaMetaInput,
  duration: z.number().min(0).max(100_000_000),
  watched: z.number().min(0).max(100_000_000),
  watchedAt: WatchedAt,
  completed: z.boolean().optional(),
  seasonId: ItemId.nullish(),
  episodeId: ItemId.nullish(),
  seasonNumber: OptionalInt,
  episodeNumber: OptionalInt,
  /** Ours: when the change was made (last writer wins per entry). */
  updatedAt: ChangeTime.optional(),
});
export type WatchHistoryInput = z.infer<typeof WatchHistoryInput>;
export const WatchHistoryImportItem = WatchHistoryInput.extend({ tmdbId: SyncTmdbId });
/** An item of an array sent to one title's path: its own id is its key (the path's when absent). */
export const WatchHistoryArrayItem = WatchHistoryInput.extend({ tmdbId: SyncTmdbId.optional() });
export const WatchHistoryBody = z.union([
  WatchHistoryInput,
  z.array(WatchHistoryArrayItem).min(1).max(IMPORT_MAX_ITEMS),
]);
export const WatchHistoryImportBody = z.array(WatchHistoryImportItem).max(IMPORT_MAX_ITEMS);

/** `{}` for a movie; absent keys where the client gave none (p-stream's shape). */
const EntryRef = z.object({ id: z.string().optional(), number: z.number().optional() });
/** One entry. `duration`/`watched` are strings, as p-stream's server sends them. */
export const WatchHistoryItem = z.object({
  tmdbId: z.string(),
  episode: EntryRef,
  season: EntryRef,
  meta: MediaMeta,
  duration: z.string(),
  watched: z.string(),
  watchedAt: IsoInstant,
  completed: z.boolean(),
  /** Ours: when the entry last changed. */
  updatedAt: IsoInstant,
});
export type WatchHistoryItem = z.infer<typeof WatchHistoryItem>;
/** A removed entry (one play). */
export const WatchHistoryRemoval = z.object({
  tmdbId: z.string(),
  type: SyncMediaType,
  seasonId: z.string().nullable(),
  episodeId: z.string().nullable(),
  watchedAt: IsoInstant,
  removedAt: IsoInstant,
});
export type WatchHistoryRemoval = z.infer<typeof WatchHistoryRemoval>;
export const WatchHistoryPage = z.object({
  items: z.array(WatchHistoryItem),
  removed: z.array(WatchHistoryRemoval),
  reset: z.boolean(),
  next: z.string().nullable(),
  version: z.string(),
});
export type WatchHistoryPage = z.infer<typeof WatchHistoryPage>;

export const WatchHistoryParams = UserIdParams.extend({ tmdbId: SyncTmdbId });
export const WatchHistoryWriteResponse = z.object({
  success: z.literal(true),
  count: z.number(),
  items: z.array(WatchHistoryItem),
});
/**
 * `{}` removes every play of the title, `seasonId` / `episodeId` narrow it (p-stream's shape); ours:
 * `watchedAt` removes one play, `type` one kind, `updatedAt` when the viewer removed it.
 */
export const WatchHistoryDeleteBody = z
  .object({
    seasonId: ItemId.nullish(),
    episodeId: ItemId.nullish(),
    watchedAt: WatchedAt.optional(),
    type: SyncMediaType.optional(),
    updatedAt: ChangeTime.optional(),
  })
  .nullish();
export const WatchHistoryDeleteResponse = z.object({
  success: z.literal(true),
  count: z.number(),
  tmdbId: z.string(),
  episodeId: z.string().optional(),
  seasonId: z.string().optional(),
});

const libraryErrors = {
  403: ['profile_locked'],
  404: ['profile_not_found'],
} as const satisfies EndpointErrors;

export const historyEndpoints = {
  watchHistory: defineEndpoint({
    ...historyRoutes.watchHistory,
    summary:
      'Your watch history, the latest play of each movie or episode (with limit/cursor/updatedSince: one page of changes, every play; If-None-Match: 304 when unchanged)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { 400: ['bad_request'], ...libraryErrors },
    params: UserIdParams,
    query: LibraryReadQuery,
    response: z.union([z.array(WatchHistoryItem), WatchHistoryPage]),
  }),
  importWatchHistory: defineEndpoint({
    ...historyRoutes.importWatchHistory,
    summary: 'Merge plays into the history (the same play twice changes nothing; never removes any)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'], 429: ['rate_limited'] },
    params: UserIdParams,
    body: WatchHistoryImportBody,
    response: WatchHistoryWriteResponse,
  }),
  putWatchHistory: defineEndpoint({
    ...historyRoutes.putWatchHistory,
    summary: 'Record a play (one item or an array; last writer wins per play)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'], 429: ['rate_limited'] },
    params: WatchHistoryParams,
    body: WatchHistoryBody,
    response: WatchHistoryWriteResponse,
  }),
  deleteWatchHistory: defineEndpoint({
    ...historyRoutes.deleteWatchHistory,
    summary: 'Remove plays of a title, a season, an episode, or one play',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: WatchHistoryParams,
    body: WatchHistoryDeleteBody,
    response: WatchHistoryDeleteResponse,
  }),
};
