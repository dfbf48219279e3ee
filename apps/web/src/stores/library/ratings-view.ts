import type { MediaType } from '../../lib/media-keys.ts';
import { libraryKey } from './library-rules.ts';
import { RATING_MAX, RATING_MIN } from '@marquee/contract/values';
import type { RatingEntry } from './ratings-rules.ts';

/*
 * How ratings are read for the screens and the sync (docs/decisions/103-ratings.md): the title page's
 * rating, the export's list, what is sent. What was saved is checked here, where it is used, not trusted.
 */

/** Whether a stored value is a rating this device can show and send. */
export const isRatingEntry = (value: unknown): value is RatingEntry => {
  const r = value as Partial<RatingEntry> | null;
  return (
    typeof r?.tmdbId === 'string' &&
    typeof r.updatedAt === 'number' &&
    typeof r.rating === 'number' &&
    r.rating >= RATING_MIN &&
    r.rating <= RATING_MAX
  );
};

/** The rating of a movie or show in the active library, if the viewer gave one (and it is usable). */
export function ratingOf(
  state: { ratings?: Record<string, RatingEntry> },
  type: MediaType,
  tmdbId: string,
): RatingEntry | undefined {
  const held = state.ratings?.[libraryKey(type, tmdbId)];
  return isRatingEntry(held) ? held : undefined;
}

/** Every usable rating, the latest rated first. */
export const ratingsByDate = (ratings: Record<string, RatingEntry>): RatingEntry[] =>
  Object.values(ratings)
    .filter(isRatingEntry)
    .sort((a, b) => b.ratedAt - a.ratedAt);
