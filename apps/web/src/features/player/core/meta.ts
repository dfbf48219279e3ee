import type { PlayerEpisode, PlayerMeta, PlayerSeason } from './types.ts';

export class MissingShowDataError extends Error {
  constructor() {
    super('missing show data');
    this.name = 'MissingShowDataError';
  }
}

export interface MetaInput {
  type: 'movie' | 'show';
  title: string;
  releaseYear: number | null;
  tmdbId: string;
  imdbId: string | null;
  poster: string | null;
  overview?: string | null | undefined;
  mediaKey: string;
  season?: PlayerSeason | undefined;
  episode?: PlayerEpisode | undefined;
  episodes?: PlayerEpisode[] | undefined;
  seasons?: PlayerSeason[] | undefined;
}

/** Player metadata; a show without its season and episode fails with 'missing show data'. */
export function makePlayerMeta(input: MetaInput): PlayerMeta {
  const base = {
    type: input.type,
    title: input.title,
    releaseYear: input.releaseYear,
    tmdbId: input.tmdbId,
    imdbId: input.imdbId,
    poster: input.poster,
    ...(input.overview ? { overview: input.overview } : {}),
    mediaKey: input.mediaKey,
  };
  if (input.type === 'movie') return base;
  if (!input.season || !input.episode) throw new MissingShowDataError();
  return {
    ...base,
    season: input.season,
    episode: input.episode,
    episodes: input.episodes ?? [],
    seasons: input.seasons ?? [],
  };
}

/** The next episode: the next number of this season, or the first aired episode of the next season (found by the caller). */
export function nextEpisodeInSeason(meta: PlayerMeta): PlayerEpisode | null {
  if (meta.type !== 'show' || !meta.episode || !meta.episodes) return null;
  const sorted = [...meta.episodes].sort((a, b) => a.number - b.number);
  const index = sorted.findIndex((e) => e.id === meta.episode!.id);
  return index >= 0 ? (sorted[index + 1] ?? null) : null;
}

export function previousEpisodeInSeason(meta: PlayerMeta): PlayerEpisode | null {
  if (meta.type !== 'show' || !meta.episode || !meta.episodes) return null;
  const sorted = [...meta.episodes].sort((a, b) => a.number - b.number);
  const index = sorted.findIndex((e) => e.id === meta.episode!.id);
  return index > 0 ? (sorted[index - 1] ?? null) : null;
}

/** The season after the current one (by number), if the show has one. */
export function nextSeason(meta: PlayerMeta): PlayerSeason | null {
  if (meta.type !== 'show' || !meta.season || !meta.seasons) return null;
  const later = meta.seasons
    .filter((s) => s.number > meta.season!.number)
    .sort((a, b) => a.number - b.number);
  return later[0] ?? null;
}
