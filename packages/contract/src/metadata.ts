import { z } from './z.ts';
import { defineEndpoint, type EndpointErrors } from './endpoint.ts';
import { UI_LANGUAGES } from './languages.ts';
import { metadataRoutes } from './routes.ts';

export const TmdbTypeSchema = z.enum(['movie', 'tv']);

/** A title as it appears on cards: search results, carousels, lists. */
export const MediaSummary = z.object({
  id: z.string(),
  type: TmdbTypeSchema,
  title: z.string(),
  year: z.number().int().nullable(),
  releaseDate: z.string().nullable(),
  /** URL on our own server (never the image host), or null when the title has no poster. */
  poster: z.string().nullable(),
});
export type MediaSummary = z.infer<typeof MediaSummary>;

export const Genre = z.object({ id: z.number().int(), name: z.string() });
export type Genre = z.infer<typeof Genre>;

export const SeasonSummary = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  episodeCount: z.number().int(),
  airDate: z.string().nullable(),
});
export type SeasonSummary = z.infer<typeof SeasonSummary>;

export const MediaDetails = MediaSummary.extend({
  overview: z.string().nullable(),
  backdrop: z.string().nullable(),
  genres: z.array(Genre),
  runtime: z.number().int().nullable(),
  imdbId: z.string().nullable(),
  seasons: z.array(SeasonSummary),
});
export type MediaDetails = z.infer<typeof MediaDetails>;

export const Episode = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  airDate: z.string().nullable(),
  overview: z.string().nullable(),
});
export type Episode = z.infer<typeof Episode>;

export const SeasonDetails = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  episodes: z.array(Episode),
});
export type SeasonDetails = z.infer<typeof SeasonDetails>;

export const MediaList = z.object({ results: z.array(MediaSummary) });
export type MediaList = z.infer<typeof MediaList>;

export const ListName = z.enum(['now_playing', 'top_rated', 'popular']);
export type ListName = z.infer<typeof ListName>;

/** The language titles, overviews and genre names come in (English where the source has none). */
const language = z.enum(UI_LANGUAGES).default('en');
const inLanguage = z.object({ language });

const tmdbIdParam = z.string().regex(/^\d{1,10}$/, 'must be a numeric TMDB id');

/**
 * What TMDB's failures become (modules/metadata/tmdb/tmdb.client.ts `toAppError`); the embedded catalog
 * answers none of them.
 */
const upstreamErrors = {
  400: ['bad_request'],
  502: ['metadata_bad_answer', 'metadata_auth_failed'],
  503: ['metadata_unavailable', 'metadata_rate_limited'],
} as const satisfies EndpointErrors;

export const metadataEndpoints = {
  search: defineEndpoint({
    ...metadataRoutes.search,
    summary: 'Search movies and shows (adult results dropped, posters first)',
    auth: 'none',
    tags: ['metadata'],
    errors: upstreamErrors,
    query: z.object({ query: z.string().trim().min(1).max(200), language }),
    response: MediaList,
  }),
  list: defineEndpoint({
    ...metadataRoutes.list,
    summary: 'A curated list: in cinemas, top rated, most popular',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...upstreamErrors, 404: ['not_found'] },
    params: z.object({ type: TmdbTypeSchema, list: ListName }),
    query: inLanguage,
    response: MediaList,
  }),
  genres: defineEndpoint({
    ...metadataRoutes.genres,
    summary: 'Genres of movies or shows (TMDB genre ids)',
    auth: 'none',
    tags: ['metadata'],
    errors: upstreamErrors,
    params: z.object({ type: TmdbTypeSchema }),
    query: inLanguage,
    response: z.object({ genres: z.array(Genre) }),
  }),
  discover: defineEndpoint({
    ...metadataRoutes.discover,
    summary: 'Titles of one genre, most popular first',
    auth: 'none',
    tags: ['metadata'],
    errors: upstreamErrors,
    params: z.object({ type: TmdbTypeSchema }),
    query: z.object({
      genre: z.coerce.number().int().positive(),
      page: z.coerce.number().int().min(1).max(500).default(1),
      language,
    }),
    response: MediaList,
  }),
  details: defineEndpoint({
    ...metadataRoutes.details,
    summary: 'Details of a movie or show, with its seasons',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ type: TmdbTypeSchema, id: tmdbIdParam }),
    query: inLanguage,
    response: MediaDetails,
  }),
  season: defineEndpoint({
    ...metadataRoutes.season,
    summary: 'Episodes of one season of a show',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ id: tmdbIdParam, number: z.coerce.number().int().min(0).max(999) }),
    query: inLanguage,
    response: SeasonDetails,
  }),
  findByImdb: defineEndpoint({
    ...metadataRoutes.findByImdb,
    summary: 'Resolve an IMDb id to a TMDB movie or show',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ imdbId: z.string().regex(/^tt\d{1,10}$/, 'must be an IMDb id (tt…)') }),
    query: inLanguage,
    response: MediaSummary,
  }),
  legacyJustWatch: defineEndpoint({
    ...metadataRoutes.legacyJustWatch,
    summary: 'Resolve an old JustWatch media key (JW-…) to a TMDB title',
    auth: 'none',
    tags: ['metadata'],
    errors: {
      ...upstreamErrors,
      404: ['media_not_found'],
      503: [...upstreamErrors[503], 'legacy_metadata_unavailable'],
    },
    params: z.object({ type: z.string().regex(/^[a-z]{0,16}$/), id: z.string().regex(/^\d{1,12}$/) }),
    query: inLanguage,
    response: MediaSummary,
  }),
} as const;
