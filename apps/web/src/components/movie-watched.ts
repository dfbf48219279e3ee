import { useLibraryStore } from '../stores/index.ts';
import type { PlayEntry } from '../stores/library/history-rules.ts';

/*
 * A movie is watched when the watch history holds a play of it (decision 095: a mark is a play like those
 * the player records). Every card on a page asks: the history is scanned once per change of it, not once
 * per card.
 */
let scanned: { history: Record<string, PlayEntry>; ids: ReadonlySet<string> } | undefined;

/** The movies the watch history holds a play of (the set is the same object until the history changes). */
export function watchedMovies(history: Record<string, PlayEntry>): ReadonlySet<string> {
  if (scanned?.history !== history) {
    const ids = new Set<string>();
    for (const play of Object.values(history)) if (play.type === 'movie') ids.add(play.tmdbId);
    scanned = { history, ids };
  }
  return scanned.ids;
}

/** Whether the movie `id` has a play in the watch history (false for anything else than a movie). */
export const useMovieWatched = (id: string, movie: boolean): boolean =>
  useLibraryStore((s) => movie && watchedMovies(s.history).has(id));
