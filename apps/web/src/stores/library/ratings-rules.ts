import { EARLIEST_WATCH_MS, RATING_MAX, RATING_MIN } from '@marquee/contract/values';
import type { MediaType } from '../../lib/media-keys.ts';
import type { LibraryMeta } from './library-rules.ts';

/*
 * The viewer's ratings on this device (docs/decisions/103-ratings.md): one per movie or show, keyed as
 * bookmarks are (`libraryKey`), a whole number from RATING_MIN to RATING_MAX, kept by the bookmarks' rule
 * (the outbox's `applyOp`): last writer wins per title by change time, a removal remembered so a late,
 * older rating does not come back. The library store (so the first view) carries this, kept small; what
 * the screens read is in ratings-view.ts, an import's ops in ratings-ops.ts.
 */

export interface RatingEntry extends LibraryMeta {
  /** 1–10 (five stars in halves). */
  rating: number;
  /** When the viewer rated it (epoch ms): an import keeps the file's date. */
  ratedAt: number;
  /** When the entry last changed (epoch ms): the conflict rule compares these. */
  updatedAt: number;
}

/** A rating as the server takes it (a whole number 1–10; a half rounds up), else null. */
export function validRating(value: number): number | null {
  const rating = Math.round(value);
  // NaN fails both.
  return rating >= RATING_MIN && rating <= RATING_MAX ? rating : null;
}

/** When a rating was given, as the server keeps it: later than now is now; unknown or before 1888, now. */
export const validRatedAt = (value: number | undefined, now: number): number =>
  // Undefined and NaN compare false.
  (value as number) >= EARLIEST_WATCH_MS ? Math.min(value as number, now) : now;

/** A rating given (the outbox's `rating-put`): `at` orders it against other changes of the title. */
export interface RatingWrite {
  kind: 'rating-put';
  type: MediaType;
  tmdbId: string;
  meta: Pick<LibraryMeta, 'title' | 'year' | 'poster'>;
  rating: number;
  ratedAt: number;
  at: number;
}

/**
 * The write of `rating` (null unless it is one the server takes) for `title`, rated at `ratedAt`, dated
 * `at` (unknown: when it was rated).
 */
export function ratingWrite(
  title: LibraryMeta,
  rating: number,
  ratedAt: number | undefined,
  at: number | undefined,
  now: number,
): RatingWrite | null {
  const value = validRating(rating);
  if (value === null) return null;
  const when = validRatedAt(ratedAt, now);
  return {
    kind: 'rating-put',
    type: title.type,
    tmdbId: title.tmdbId,
    meta: { title: title.title, year: title.year, poster: title.poster },
    rating: value,
    ratedAt: when,
    // Undefined and NaN compare false.
    at: (at as number) >= 0 ? (at as number) : when,
  };
}
