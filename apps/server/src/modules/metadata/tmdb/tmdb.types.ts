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
  /** The title in its original language (the search ranks by it too). */
  original_title: nullableString,
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
  original_name: nullableString,
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

/**
 * What `append_to_response` adds to a details answer. Each part is optional (absent unless asked for)
 * and forgiving: a part of an unexpected shape is dropped (the page shows less), never the whole title.
 */
const appended = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

const TmdbPerson = z.object({
  id: z.number().int(),
  name: z.string(),
  profile_path: nullableString,
});

/** `credits` (movies): billing `order` from 0, the character played, and the crew with their jobs. */
export const TmdbCredits = z.object({
  cast: z
    .array(TmdbPerson.extend({ character: nullableString, order: z.number().nullable().optional() }))
    .optional(),
  crew: z.array(TmdbPerson.extend({ job: nullableString, department: nullableString })).optional(),
});
export type TmdbCredits = z.infer<typeof TmdbCredits>;

/** `aggregate_credits` (shows): everyone of every season, each with their roles or jobs and episode counts. */
export const TmdbAggregateCredits = z.object({
  cast: z
    .array(
      TmdbPerson.extend({
        order: z.number().nullable().optional(),
        total_episode_count: z.number().nullable().optional(),
        roles: z
          .array(z.object({ character: nullableString, episode_count: z.number().nullable().optional() }))
          .optional(),
      }),
    )
    .optional(),
  crew: z
    .array(
      TmdbPerson.extend({
        department: nullableString,
        total_episode_count: z.number().nullable().optional(),
        jobs: z
          .array(z.object({ job: nullableString, episode_count: z.number().nullable().optional() }))
          .optional(),
      }),
    )
    .optional(),
});
export type TmdbAggregateCredits = z.infer<typeof TmdbAggregateCredits>;

export const TmdbVideo = z.object({
  key: z.string(),
  name: z.string().nullable().optional(),
  site: z.string(),
  type: z.string().nullable().optional(),
  official: z.boolean().nullable().optional(),
  iso_639_1: nullableString,
  published_at: nullableString,
});
export type TmdbVideo = z.infer<typeof TmdbVideo>;
const TmdbVideos = z.object({ results: z.array(TmdbVideo) });

/** `release_dates` (movies): per country, its releases (type 1 premiere … 3 theatrical … 6 TV) and ratings. */
export const TmdbReleaseDates = z.object({
  results: z.array(
    z.object({
      iso_3166_1: z.string(),
      release_dates: z.array(
        z.object({
          certification: nullableString,
          type: z.number().int().nullable().optional(),
          release_date: nullableString,
        }),
      ),
    }),
  ),
});
export type TmdbReleaseDates = z.infer<typeof TmdbReleaseDates>;

/** `content_ratings` (shows): one rating per country. */
export const TmdbContentRatings = z.object({
  results: z.array(z.object({ iso_3166_1: z.string(), rating: nullableString })),
});
export type TmdbContentRatings = z.infer<typeof TmdbContentRatings>;

const TmdbProvider = z.object({
  provider_id: z.number().int(),
  provider_name: z.string(),
  logo_path: nullableString,
  display_priority: z.number().nullable().optional(),
});
export type TmdbProvider = z.infer<typeof TmdbProvider>;

export const WATCH_KINDS = ['flatrate', 'free', 'ads', 'rent', 'buy'] as const;

/** `watch/providers`: per country, TMDB's page of offers and the providers of each kind (JustWatch data). */
export const TmdbWatchProviders = z.object({
  results: z.record(
    z.string(),
    z.object({
      link: nullableString,
      flatrate: z.array(TmdbProvider).optional(),
      free: z.array(TmdbProvider).optional(),
      ads: z.array(TmdbProvider).optional(),
      rent: z.array(TmdbProvider).optional(),
      buy: z.array(TmdbProvider).optional(),
    }),
  ),
});
export type TmdbWatchProviders = z.infer<typeof TmdbWatchProviders>;

const results = <T extends z.ZodType>(item: T) => z.object({ results: z.array(item) });

export const TmdbMovieDetails = TmdbMovieItem.extend({
  imdb_id: z.string().nullable().optional(),
  genres: z.array(TmdbGenre).optional(),
  runtime: z.number().int().nullable().optional(),
  tagline: nullableString,
  /** Rumored, Planned, In Production, Post Production, Released, Canceled. */
  status: nullableString,
  vote_average: z.number().nullable().optional(),
  vote_count: z.number().int().nullable().optional(),
  external_ids: externalIds,
  credits: appended(TmdbCredits),
  videos: appended(TmdbVideos),
  release_dates: appended(TmdbReleaseDates),
  'watch/providers': appended(TmdbWatchProviders),
  recommendations: appended(results(TmdbMovieItem)),
});
export type TmdbMovieDetails = z.infer<typeof TmdbMovieDetails>;

export const TmdbSeasonSummary = z.object({
  id: z.number().int(),
  season_number: z.number().int(),
  name: z.string(),
  episode_count: z.number().int().nullable().optional(),
  air_date: z.string().nullable().optional(),
});

export const TmdbEpisode = z.object({
  id: z.number().int(),
  episode_number: z.number().int(),
  season_number: z.number().int().optional(),
  name: z.string(),
  air_date: z.string().nullable().optional(),
  overview: z.string().nullable().optional(),
  runtime: z.number().int().nullable().optional(),
  still_path: nullableString,
  /** standard, finale or mid_season (a finale often runs long). */
  episode_type: z.string().nullable().optional().catch(null),
});
export type TmdbEpisode = z.infer<typeof TmdbEpisode>;

/** `last_episode_to_air` / `next_episode_to_air`: an episode with its season number, or null. */
const episodeToAir = TmdbEpisode.extend({ season_number: z.number().int() })
  .nullable()
  .optional()
  .catch(null);

export const TmdbTvDetails = TmdbTvItem.extend({
  genres: z.array(TmdbGenre).optional(),
  /** Typical episode lengths; TMDB leaves it empty for most shows nowadays. */
  episode_run_time: z.array(z.number()).nullable().optional(),
  seasons: z.array(TmdbSeasonSummary).optional(),
  tagline: nullableString,
  /** Returning Series, Planned, In Production, Ended, Canceled, Pilot. */
  status: nullableString,
  vote_average: z.number().nullable().optional(),
  vote_count: z.number().int().nullable().optional(),
  created_by: appended(z.array(TmdbPerson)),
  last_episode_to_air: episodeToAir,
  next_episode_to_air: episodeToAir,
  external_ids: externalIds,
  aggregate_credits: appended(TmdbAggregateCredits),
  videos: appended(TmdbVideos),
  content_ratings: appended(TmdbContentRatings),
  'watch/providers': appended(TmdbWatchProviders),
  recommendations: appended(results(TmdbTvItem)),
});
export type TmdbTvDetails = z.infer<typeof TmdbTvDetails>;

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
  /** A film's releases and ratings by country (what a kids' profile's limit is checked against). */
  releaseDates(id: number): Promise<TmdbReleaseDates>;
  /** A show's ratings by country. */
  contentRatings(id: number): Promise<TmdbContentRatings>;
}
