import type { ProgressInput, UserSettings } from '@marquee/contract';
import { importPayload } from '../../../lib/sync/wire.ts';
import { listNames } from '../../../stores/library/library-rules.ts';
import type { LibraryStoreData } from '../../../stores/library/library-store.ts';
import type {
  LetterboxdExportInput,
  PStreamBackupInput,
  PStreamBookmarkInput,
  PStreamHistoryInput,
  PStreamProgressInput,
  PStreamRatingInput,
} from '../formats/index.ts';
import { ratingsByDate } from '../../../stores/library/ratings-view.ts';

/*
 * What the export writers take, from the library on this device (the same signed in or out: signed in it
 * mirrors the account). The sync's own conversion of local entries (`importPayload`: meta, ISO times)
 * gives the wire bodies; they become the API's list items the writers read — season and episode as
 * `{id, number}`, seconds as whole-second strings. Pure.
 */

/** The active library: My List (with its named lists), where each title is, every play, the lists' order. */
export type ExportLibrary = Pick<LibraryStoreData, 'bookmarks' | 'progress' | 'history'> &
  Partial<Pick<LibraryStoreData, 'groupOrder' | 'ratings'>>;

export const isLibraryEmpty = (library: ExportLibrary): boolean =>
  Object.keys(library.bookmarks).length === 0 &&
  Object.keys(library.progress).length === 0 &&
  Object.keys(library.history).length === 0 &&
  Object.keys(library.ratings ?? {}).length === 0;

interface WireLists {
  bookmarks: PStreamBookmarkInput[];
  progress: PStreamProgressInput[];
  watchHistory: PStreamHistoryInput[];
}

/** Whole seconds, as the API's lists give them. */
const seconds = (value: number) => String(Math.round(value));

/** A play's season or episode as the history list gives it: `{}` for a movie, absent keys where unknown. */
const entryRef = (id: string | null | undefined, number: number | null | undefined) => ({
  ...(id ? { id } : {}),
  ...(typeof number === 'number' ? { number } : {}),
});

/** A row of `importPayload`'s progress: an episode's carries its ids and numbers too (its inferred type omits them). */
type ProgressBody = ReturnType<typeof importPayload>['progress'][number] &
  Partial<Pick<ProgressInput, 'seasonId' | 'episodeId' | 'seasonNumber' | 'episodeNumber'>>;

function wireLists(library: ExportLibrary): WireLists {
  const payload = importPayload(library);
  // A bookmark's named lists and favourite episodes are p-stream's groups and favourites (none known: none).
  const bookmarks = payload.bookmarks.map((b) => ({
    ...b,
    group: b.group ?? [],
    favoriteEpisodes: b.favoriteEpisodes ?? [],
  }));
  const rows: ProgressBody[] = payload.progress;
  const progress = rows.map((row) => ({
    tmdbId: row.tmdbId,
    meta: row.meta,
    season: { id: row.seasonId ?? null, number: row.seasonNumber ?? null },
    episode: { id: row.episodeId ?? null, number: row.episodeNumber ?? null },
    watched: seconds(row.watched),
    duration: seconds(row.duration),
    updatedAt: row.updatedAt,
  }));
  const watchHistory = payload.history
    .map((play) => ({
      tmdbId: play.tmdbId,
      meta: play.meta,
      season: entryRef(play.seasonId, play.seasonNumber),
      episode: entryRef(play.episodeId, play.episodeNumber),
      watched: seconds(play.watched),
      duration: seconds(play.duration),
      watchedAt: play.watchedAt,
      completed: play.completed,
    }))
    // Oldest first: the order a reader of the file (and Letterboxd's diary) expects.
    .sort((a, b) => Date.parse(a.watchedAt) - Date.parse(b.watchedAt));
  return { bookmarks, progress, watchHistory };
}

/** The ratings as the backup keeps them (the API's items), the latest rated first. */
function wireRatings(library: ExportLibrary): PStreamRatingInput[] {
  return ratingsByDate(library.ratings ?? {}).map((r) => ({
    tmdbId: r.tmdbId,
    type: r.type,
    meta: { title: r.title, year: r.year, ...(r.poster ? { poster: r.poster } : {}), type: r.type },
    rating: r.rating,
    ratedAt: new Date(r.ratedAt).toISOString(),
  }));
}

/**
 * The p-stream backup's input: the library, its named lists in the viewer's order (p-stream's group
 * order, as the lists are shown), and the synced settings by the settings endpoint's names
 * (`readSyncedSettings`; the writer leaves out what is not set).
 */
export function backupInput(library: ExportLibrary, settings: Partial<UserSettings>): PStreamBackupInput {
  const groupOrder = listNames(library.bookmarks, library.groupOrder ?? []);
  return { ...wireLists(library), ratings: wireRatings(library), groupOrder, settings };
}

/** The Letterboxd files' input: every play and My List (the writer keeps the films). */
export function letterboxdInput(library: ExportLibrary): LetterboxdExportInput {
  const { bookmarks, watchHistory } = wireLists(library);
  const ratings = ratingsByDate(library.ratings ?? {}).map((r) => ({
    tmdbId: r.tmdbId,
    type: r.type,
    title: r.title,
    year: r.year,
    rating: r.rating,
  }));
  return { bookmarks, watchHistory, ratings };
}
