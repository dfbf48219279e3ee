import type { HistoryRow } from '../history/history.repository.ts';
import type { TraktHistoryEntry, TraktIds } from './trakt-api.ts';

/*
 * How a movie or an episode is named on both sides (decision 101): `m:<tmdb>` for a movie,
 * `e:<show tmdb>:<season>:<episode>` for an episode. Titles whose TMDB id is not a number (a file of the
 * operator's library) and episodes without numbers have no name on Trakt and are not synced.
 */

const numeric = (id: string | number | null | undefined): number | undefined => {
  const n = typeof id === 'number' ? id : /^\d{1,10}$/.test(id ?? '') ? Number(id) : NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

export const movieItem = (tmdb: number) => `m:${tmdb}`;
export const episodeItem = (show: number, season: number, episode: number) =>
  `e:${show}:${season}:${episode}`;

export interface ItemParts {
  type: 'movie' | 'show';
  tmdb: number;
  season?: number;
  episode?: number;
}

export function partsOf(item: string): ItemParts {
  const [kind, tmdb, season, episode] = item.split(':');
  return kind === 'm'
    ? { type: 'movie', tmdb: Number(tmdb) }
    : { type: 'show', tmdb: Number(tmdb), season: Number(season), episode: Number(episode) };
}

/** A Marquee play's item, or undefined when Trakt cannot name it. */
export function itemOfPlay(
  row: Pick<HistoryRow, 'tmdb_id' | 'media_type' | 'season_number' | 'episode_number'>,
) {
  const tmdb = numeric(row.tmdb_id);
  if (tmdb === undefined) return undefined;
  if (row.media_type === 'movie') return movieItem(tmdb);
  if (row.season_number === null || row.episode_number === null) return undefined;
  return episodeItem(tmdb, Number(row.season_number), Number(row.episode_number));
}

/** A scrobble's item. */
export function itemOf(input: {
  tmdbId: string;
  type: 'movie' | 'show';
  seasonNumber?: number;
  episodeNumber?: number;
}) {
  const tmdb = numeric(input.tmdbId);
  if (tmdb === undefined) return undefined;
  if (input.type === 'movie') return movieItem(tmdb);
  if (input.seasonNumber === undefined || input.episodeNumber === undefined) return undefined;
  return episodeItem(tmdb, input.seasonNumber, input.episodeNumber);
}

const tmdbOf = (ids: TraktIds | undefined) => numeric(ids?.tmdb ?? undefined);

/** A Trakt history entry's item, or undefined when Trakt knows no TMDB id for it. */
export function itemOfEntry(entry: TraktHistoryEntry): string | undefined {
  if (entry.type === 'movie') {
    const tmdb = tmdbOf(entry.movie?.ids);
    return tmdb === undefined ? undefined : movieItem(tmdb);
  }
  const show = tmdbOf(entry.show?.ids);
  if (show === undefined || !entry.episode) return undefined;
  return episodeItem(show, entry.episode.season, entry.episode.number);
}

/** Trakt's body naming items (history and scrobble shapes): movies by TMDB id, episodes by show and numbers. */
export function traktBodyOf(items: { item: string; watchedAt?: number }[]) {
  const movies: { ids: { tmdb: number }; watched_at?: string }[] = [];
  const shows = new Map<number, Map<number, { number: number; watched_at?: string }[]>>();
  for (const { item, watchedAt } of items) {
    const parts = partsOf(item);
    const at = watchedAt === undefined ? {} : { watched_at: new Date(watchedAt).toISOString() };
    if (parts.type === 'movie') {
      movies.push({ ids: { tmdb: parts.tmdb }, ...at });
      continue;
    }
    const seasons = shows.get(parts.tmdb) ?? new Map<number, { number: number; watched_at?: string }[]>();
    shows.set(parts.tmdb, seasons);
    const episodes = seasons.get(parts.season!) ?? [];
    seasons.set(parts.season!, episodes);
    episodes.push({ number: parts.episode!, ...at });
  }
  return {
    movies,
    shows: [...shows].map(([tmdb, seasons]) => ({
      ids: { tmdb },
      seasons: [...seasons].map(([number, episodes]) => ({ number, episodes })),
    })),
  };
}

/** How many items of each kind Trakt did not know (its `not_found`), by item. */
export function notFoundItems(answer: unknown): Set<string> {
  const found = new Set<string>();
  const notFound = (answer as { not_found?: Record<string, unknown[]> } | undefined)?.not_found ?? {};
  for (const movie of (notFound.movies ?? []) as { ids?: TraktIds }[]) {
    const tmdb = tmdbOf(movie.ids);
    if (tmdb !== undefined) found.add(movieItem(tmdb));
  }
  for (const show of (notFound.shows ?? []) as {
    ids?: TraktIds;
    seasons?: { number: number; episodes?: { number: number }[] }[];
  }[]) {
    const tmdb = tmdbOf(show.ids);
    if (tmdb === undefined) continue;
    for (const season of show.seasons ?? [])
      for (const episode of season.episodes ?? [])
        found.add(episodeItem(tmdb, season.number, episode.number));
  }
  return found;
}
