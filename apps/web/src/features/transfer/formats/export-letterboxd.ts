import { calendarDay } from '../../../lib/intl.ts';
import type { Bookmark, WatchHistoryItem } from '@marquee/contract';
import { mediaTypeOf } from '@marquee/contract/values';
import { writeCsv } from './csv-write.ts';

/*
 * Letterboxd's import format (letterboxd.com/about/importing-data): a header naming any of LetterboxdURI,
 * tmdbID, imdbID, Title, Year, Directors, WatchedDate (YYYY-MM-DD: a diary entry on that day), Rating
 * (0.5–5), Rating10 (1–10), Tags, Review, Rewatch. Letterboxd holds films only: shows and episodes are left
 * out.
 */

export type LetterboxdPlay = Pick<WatchHistoryItem, 'tmdbId' | 'meta' | 'watchedAt'> & {
  episode?: WatchHistoryItem['episode'];
};
export type LetterboxdBookmark = Pick<Bookmark, 'tmdbId' | 'meta'>;
export interface LetterboxdRating {
  tmdbId: string;
  /** Letterboxd keeps films only: a show's rating is left out. */
  type?: 'movie' | 'show';
  imdbId?: string;
  title: string;
  year?: number | null;
  /** 0–10; 0 is "not rated". */
  rating: number;
}

export interface LetterboxdExportInput {
  watchHistory: readonly LetterboxdPlay[];
  bookmarks: readonly LetterboxdBookmark[];
  ratings?: readonly LetterboxdRating[];
}

export interface LetterboxdExportFiles {
  'diary.csv': string;
  'watchlist.csv': string;
  'ratings.csv'?: string;
}

const isMovie = (meta: { type: string }, episode?: { id?: string }) =>
  mediaTypeOf(meta.type, !!episode?.id) === 'movie';

/**
 * The viewer's films as Letterboxd imports them: every play a diary entry (the first play of a film here
 * is not a rewatch, later ones are), the movie bookmarks as the watchlist, ratings when there are any.
 * `timeZone` (IANA, default the device's) decides the diary day of a late-evening play.
 */
export function exportLetterboxdCsv(
  data: LetterboxdExportInput,
  options: { timeZone?: string } = {},
): LetterboxdExportFiles {
  const plays = data.watchHistory
    .filter((play) => isMovie(play.meta, play.episode))
    .sort((a, b) => Date.parse(a.watchedAt) - Date.parse(b.watchedAt));
  const seen = new Set<string>();
  const diary = plays.map((play) => {
    const rewatch = seen.has(play.tmdbId);
    seen.add(play.tmdbId);
    const watched = calendarDay(new Date(play.watchedAt), options.timeZone);
    return [play.meta.title, play.meta.year ?? undefined, play.tmdbId, watched, rewatch ? 'true' : 'false'];
  });
  const watchlist = data.bookmarks
    .filter((bookmark) => isMovie(bookmark.meta))
    .map((bookmark) => [bookmark.meta.title, bookmark.meta.year ?? undefined, bookmark.tmdbId]);
  const files: LetterboxdExportFiles = {
    'diary.csv': writeCsv(['Title', 'Year', 'tmdbID', 'WatchedDate', 'Rewatch'], diary),
    'watchlist.csv': writeCsv(['Title', 'Year', 'tmdbID'], watchlist),
  };
  const rated = (data.ratings ?? []).filter((r) => r.rating > 0 && r.type !== 'show');
  if (rated.length) {
    files['ratings.csv'] = writeCsv(
      ['Title', 'Year', 'tmdbID', 'imdbID', 'Rating10'],
      rated.map((r) => [
        r.title,
        r.year ?? undefined,
        r.tmdbId,
        r.imdbId,
        Math.min(10, Math.max(1, Math.round(r.rating))),
      ]),
    );
  }
  return files;
}
