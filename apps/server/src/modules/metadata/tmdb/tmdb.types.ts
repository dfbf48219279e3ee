import type { UiLanguage } from '@marquee/contract';
import { z } from 'zod';

/**
 * The parts of TMDB's v3 answers that Marquee reads. Validated on arrival: a malformed answer is a
 * typed error, never a crash further down. Unknown fields pass through untouched.
 */
const nullableString = z.string().nullable().optional();

export const TmdbMovieItem = z.object({
  id: z.number().int(),
  media_type: z.literal('movie').optional(),
  adult: z.boolean().optional(),
  title: z.string(),
  poster_path: nullableString,
  backdrop_path: nullableString,
  release_date: z.string().optional(),
  genre_ids: z.array(z.number()).optional(),
  popularity: z.number().optional(),
  overview: z.string().optional(),
});
export type TmdbMovieItem = z.infer<typeof TmdbMovieItem>;

export const TmdbTvItem = z.object({
  id: z.number().int(),
  media_type: z.literal('tv').optional(),
  adult: z.boolean().optional(),
  name: z.string(),
  poster_path: nullableString,
  backdrop_path: nullableString,
  first_air_date: z.string().optional(),
  genre_ids: z.array(z.number()).optional(),
  popularity: z.number().optional(),
  overview: z.string().optional(),
});
export type TmdbTvItem = z.infer<typeof TmdbTvItem>;

/** search/multi mixes movies, shows and people; people (and anything else) are kept loosely typed. */
export const TmdbMultiItem = z.union([
  TmdbMovieItem.extend({ media_type: z.literal('movie') }),
  TmdbTvItem.extend({ media_type: z.literal('tv') }),
  z.object({ id: z.number(), media_type: z.string(), adult: z.boolean().optional() }).loose(),
]);
export type TmdbMultiItem = z.infer<typeof TmdbMultiItem>;

export const page = <T extends z.ZodType>(item: T) =>
  z.object({
    page: z.number().int(),
    results: z.array(item),
    total_pages: z.number().int(),
    total_results: z.number().int(),
  });

export const TmdbMoviePage = page(TmdbMovieItem);
export type TmdbMoviePage = z.infer<typeof TmdbMoviePage>;
export const TmdbTvPage = page(TmdbTvItem);
export type TmdbTvPage = z.infer<typeof TmdbTvPage>;
export const TmdbMultiPage = page(TmdbMultiItem);
export type TmdbMultiPage = z.infer<typeof TmdbMultiPage>;

// TMDB's genre lists answer `name: null` in languages without a name for a genre (the service fills in English).
const TmdbGenre = z.object({ id: z.number().int(), name: z.string().nullable() });
export const TmdbGenreList = z.object({ genres: z.array(TmdbGenre) });
export type TmdbGenreList = z.infer<typeof TmdbGenreList>;

const externalIds = z.object({ imdb_id: z.string().nullable().optional() }).loose().optional();

export const TmdbMovieDetails = TmdbMovieItem.extend({
  imdb_id: z.string().nullable().optional(),
  genres: z.array(TmdbGenre).optional(),
  runtime: z.number().int().nullable().optional(),
  external_ids: externalIds,
});
export type TmdbMovieDetails = z.infer<typeof TmdbMovieDetails>;

export const TmdbSeasonSummary = z.object({
  id: z.number().int(),
  season_number: z.number().int(),
  name: z.string(),
  episode_count: z.number().int().optional(),
  air_date: z.string().nullable().optional(),
});

export const TmdbTvDetails = TmdbTvItem.extend({
  genres: z.array(TmdbGenre).optional(),
  episode_run_time: z.array(z.number()).optional(),
  seasons: z.array(TmdbSeasonSummary).optional(),
  external_ids: externalIds,
});
export type TmdbTvDetails = z.infer<typeof TmdbTvDetails>;

export const TmdbEpisode = z.object({
  id: z.number().int(),
  episode_number: z.number().int(),
  season_number: z.number().int().optional(),
  name: z.string(),
  air_date: z.string().nullable().optional(),
  overview: z.string().optional(),
  runtime: z.number().int().nullable().optional(),
});

export const TmdbSeasonDetails = z.object({
  id: z.number().int(),
  season_number: z.number().int(),
  name: z.string(),
  air_date: z.string().nullable().optional(),
  episodes: z.array(TmdbEpisode),
});
export type TmdbSeasonDetails = z.infer<typeof TmdbSeasonDetails>;

export const TmdbFindResult = z.object({
  movie_results: z.array(TmdbMovieItem),
  tv_results: z.array(TmdbTvItem),
});
export type TmdbFindResult = z.infer<typeof TmdbFindResult>;

export type TmdbKind = 'movie' | 'tv';
export type TmdbListName = 'now_playing' | 'top_rated' | 'popular';

/**
 * A TMDB-compatible metadata source. Implemented by the HTTP client (real TMDB) and by the embedded
 * catalog, which answers in TMDB's own shapes so that one mapping serves both.
 */
export interface TmdbApi {
  readonly kind: 'tmdb' | 'catalog';
  searchMulti(query: string, language?: UiLanguage): Promise<TmdbMultiPage>;
  movie(id: number, language?: UiLanguage): Promise<TmdbMovieDetails>;
  tv(id: number, language?: UiLanguage): Promise<TmdbTvDetails>;
  season(showId: number, seasonNumber: number, language?: UiLanguage): Promise<TmdbSeasonDetails>;
  find(imdbId: string, language?: UiLanguage): Promise<TmdbFindResult>;
  movieList(list: TmdbListName, language?: UiLanguage): Promise<TmdbMoviePage>;
  tvList(list: Exclude<TmdbListName, 'now_playing'>, language?: UiLanguage): Promise<TmdbTvPage>;
  genres(kind: TmdbKind, language?: UiLanguage): Promise<TmdbGenreList>;
  discoverMovies(genreId: number, page: number, language?: UiLanguage): Promise<TmdbMoviePage>;
  discoverTv(genreId: number, page: number, language?: UiLanguage): Promise<TmdbTvPage>;
}
