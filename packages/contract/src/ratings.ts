import { z } from './z.ts';
import { ChangeTime, IsoInstant, UserIdParams } from './accounts.ts';
import { defineEndpoint, type EndpointErrors } from './endpoint.ts';
import { ratingsRoutes } from './routes.ts';
import { EARLIEST_WATCH_MS, RATING_MAX, RATING_MIN } from './sync-rules.ts';
import {
  BookmarkRemoval,
  IMPORT_MAX_ITEMS,
  LibraryReadQuery,
  libraryPage,
  MediaMeta,
  MediaMetaInput,
  SyncMediaType,
  SyncTmdbId,
} from './sync.ts';

/*
 * The viewer's ratings (decision 103): one per movie or show per library, 1–10, with the day it was
 * given; synced like bookmarks — last writer wins per title by change time, removals are tombstones,
 * pages and live `ratings` announcements. p-stream's server keeps ratings too, in a thinner shape
 * (`{userId, ratings: [{tmdb_id, type: movie|tv, rating}]}`, one `POST` to rate): the whole-list read
 * and `POST` speak it, so its client reads and writes the same ratings.
 */

/** A rating: a whole number from 1 to 10 (five stars in halves). */
export const RatingValue = z.number().int().min(RATING_MIN).max(RATING_MAX);

/** When the viewer rated it: ISO 8601; later than now is taken as now, before 1888 refused. */
export const RatedAt = z.iso
  .datetime({ offset: true })
  .refine((value) => Date.parse(value) >= EARLIEST_WATCH_MS, 'before the first film was shown');

/** A rating as a device sends it; the path's id is the title, `type` says movie or show. */
export const RatingInput = z.object({
  type: SyncMediaType,
  meta: MediaMetaInput,
  rating: RatingValue,
  /** When it was rated (default: now). */
  ratedAt: RatedAt.optional(),
  /** When the change was made (last writer wins per title); absent: now. */
  updatedAt: ChangeTime.optional(),
});
export type RatingInput = z.infer<typeof RatingInput>;
/** An imported rating: without `updatedAt` it only fills a gap (never replaces one held). */
export const RatingImportItem = RatingInput.extend({ tmdbId: SyncTmdbId });
export type RatingImportItem = z.infer<typeof RatingImportItem>;
export const RatingImportBody = z.array(RatingImportItem).max(IMPORT_MAX_ITEMS);

export const Rating = z.object({
  tmdbId: z.string(),
  type: SyncMediaType,
  meta: MediaMeta,
  rating: z.number(),
  ratedAt: IsoInstant,
  updatedAt: IsoInstant,
});
export type Rating = z.infer<typeof Rating>;
/** A removed rating: `{tmdbId, type, removedAt}`, as a removed bookmark. */
export const RatingRemoval = BookmarkRemoval;
export type RatingRemoval = z.infer<typeof RatingRemoval>;
export const RatingsPage = libraryPage(Rating, RatingRemoval);
export type RatingsPage = z.infer<typeof RatingsPage>;

/** p-stream's rating: `tmdb_id` a number, `type` `movie` or `tv`, 0–10. */
export const FamilyRating = z.object({
  tmdb_id: z.number(),
  type: z.enum(['movie', 'tv']),
  rating: z.number(),
});
export type FamilyRating = z.infer<typeof FamilyRating>;
/** The whole-list read, as p-stream's server answers it (titles with a numeric TMDB id). */
export const FamilyRatingsList = z.object({ userId: z.string(), ratings: z.array(FamilyRating) });
export type FamilyRatingsList = z.infer<typeof FamilyRatingsList>;
/**
 * p-stream's `POST`: rates a title (replacing its rating); 0 (p-stream's "none") removes it. Values
 * between whole numbers are rounded. `show` is taken for `tv`.
 */
export const FamilyRatingInput = z.object({
  tmdb_id: z.number().int().positive().max(9_999_999_999),
  type: z.enum(['movie', 'tv', 'show']),
  rating: z.number().min(0).max(RATING_MAX),
});
export const FamilyRatingAnswer = z.object({ userId: z.string(), rating: FamilyRating });

export const RatingParams = UserIdParams.extend({ tmdbId: SyncTmdbId });
/** `type` removes only that kind's rating (default both); `updatedAt` is when the viewer removed it. */
export const RatingDeleteBody = z
  .object({ type: SyncMediaType.optional(), updatedAt: ChangeTime.optional() })
  .nullish();
export const RatingDeleteResponse = z.object({
  success: z.literal(true),
  count: z.number(),
  tmdbId: z.string(),
});
export const RatingImportResponse = z.object({ success: z.literal(true), count: z.number() });

const libraryErrors = {
  403: ['profile_locked'],
  404: ['profile_not_found'],
} as const satisfies EndpointErrors;

export const ratingsEndpoints = {
  ratings: defineEndpoint({
    ...ratingsRoutes.ratings,
    summary:
      "Your ratings: p-stream's list, or with limit/cursor/updatedSince one page of changes (ours, every detail); If-None-Match: 304 when unchanged",
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { 400: ['bad_request'], ...libraryErrors },
    params: UserIdParams,
    query: LibraryReadQuery,
    response: z.union([FamilyRatingsList, RatingsPage]),
  }),
  postRating: defineEndpoint({
    ...ratingsRoutes.postRating,
    summary: "Rate a title in p-stream's shape (0 removes its rating)",
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'] },
    params: UserIdParams,
    body: FamilyRatingInput,
    response: FamilyRatingAnswer,
  }),
  importRatings: defineEndpoint({
    ...ratingsRoutes.importRatings,
    summary: 'Merge ratings into the library (per title, the later change wins; undated ones fill gaps only)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'], 429: ['rate_limited'] },
    params: UserIdParams,
    body: RatingImportBody,
    response: RatingImportResponse,
  }),
  putRating: defineEndpoint({
    ...ratingsRoutes.putRating,
    summary: 'Rate a movie or show 1–10 (an older change never overwrites a newer one)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: { ...libraryErrors, 409: ['library_full'] },
    params: RatingParams,
    body: RatingInput,
    response: Rating,
  }),
  deleteRating: defineEndpoint({
    ...ratingsRoutes.deleteRating,
    summary: 'Remove a rating (idempotent)',
    auth: 'session',
    kids: 'allowed',
    tags: ['sync'],
    errors: libraryErrors,
    params: RatingParams,
    body: RatingDeleteBody,
    response: RatingDeleteResponse,
  }),
};
