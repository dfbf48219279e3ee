import { z } from './z.ts';
import { MATCH_MAX_ITEMS } from './api-paths.ts';
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

/** Someone in the cast (`role`: the character) or crew (`role`: the job), photo through our image proxy. */
export const Credit = z.object({
  id: z.string(),
  name: z.string(),
  role: z.string().nullable(),
  photo: z.string().nullable(),
});
export type Credit = z.infer<typeof Credit>;

/** What a crew member did on the title, for a label in the viewer's language (TMDB's job names are English). */
export const CrewJob = z.enum(['creator', 'director', 'writer', 'composer']);
export type CrewJob = z.infer<typeof CrewJob>;

/** Someone in the crew: `role` is TMDB's job names joined ("Director, Screenplay"), `jobs` what they mean. */
export const CrewCredit = Credit.extend({ jobs: z.array(CrewJob).min(1) });
export type CrewCredit = z.infer<typeof CrewCredit>;

/** A trailer or teaser on a video site, opened on demand (never embedded or autoplayed). */
export const Trailer = z.object({
  name: z.string(),
  site: z.enum(['YouTube', 'Vimeo']),
  url: z.string(),
});
export type Trailer = z.infer<typeof Trailer>;

/** Where a title can be watched in the viewer's region (TMDB's watch providers, JustWatch data). */
export const WatchProvider = z.object({
  id: z.number().int(),
  name: z.string(),
  logo: z.string().nullable(),
  kind: z.enum(['flatrate', 'free', 'ads', 'rent', 'buy']),
});
export type WatchProvider = z.infer<typeof WatchProvider>;

export const WatchProviders = z.object({
  region: z.string(),
  /** TMDB's page listing the offers (its terms ask for the attribution). */
  link: z.string().nullable(),
  providers: z.array(WatchProvider),
});
export type WatchProviders = z.infer<typeof WatchProviders>;

export const EpisodeRef = z.object({
  season: z.number().int(),
  episode: z.number().int(),
  title: z.string(),
  airDate: z.string().nullable(),
});
export type EpisodeRef = z.infer<typeof EpisodeRef>;

/** Where a show is: TMDB's status, normalised. Movies: released, upcoming (or in production / planned). */
export const MediaStatus = z.enum([
  'released',
  'upcoming',
  'in_production',
  'planned',
  'returning',
  'ended',
  'canceled',
]);
export type MediaStatus = z.infer<typeof MediaStatus>;

export const MediaDetails = MediaSummary.extend({
  overview: z.string().nullable(),
  backdrop: z.string().nullable(),
  genres: z.array(Genre),
  /** Movies: the film's minutes; shows: a typical episode's (null when unknown). */
  runtime: z.number().int().nullable(),
  imdbId: z.string().nullable(),
  seasons: z.array(SeasonSummary),
  tagline: z.string().nullable(),
  /** TMDB's vote average (0–10) and count; null without votes. */
  rating: z.object({ average: z.number(), count: z.number().int() }).nullable(),
  /** The certification for the requested region (e.g. "PG-13", "FSK 12"), null when none is known. */
  contentRating: z.string().nullable(),
  status: MediaStatus.nullable(),
  /** Top-billed cast, in billing order. */
  cast: z.array(Credit),
  /** Key crew, one entry per person: creators (shows), directors, writers, composers. */
  crew: z.array(CrewCredit),
  trailers: z.array(Trailer),
  /** Null when the source has no offers for the region (or cannot know). */
  watchProviders: WatchProviders.nullable(),
  /** Shows: the next episode to air, and the last one that did. */
  nextEpisode: EpisodeRef.nullable(),
  lastEpisode: EpisodeRef.nullable(),
  /** "More like this": titles of the same kind. */
  recommendations: z.array(MediaSummary),
});
export type MediaDetails = z.infer<typeof MediaDetails>;

export const Episode = z.object({
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
  airDate: z.string().nullable(),
  overview: z.string().nullable(),
  /** Minutes, when known. */
  runtime: z.number().int().nullable(),
  /** A still from the episode, through our image proxy. */
  still: z.string().nullable(),
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
const imdbIdParam = z.string().regex(/^tt\d{1,10}$/, 'must be an IMDb id (tt…)');

/*
 * Matching titles from other services' exports (Letterboxd, IMDb, Netflix, Trakt, p-stream backups) to
 * TMDB before an import (decision 098).
 */

/** An episode of a show to find: by number in a season, by title (in a season or any), or by TMDB id. */
export const MatchEpisodeQuery = z.object({
  season: z.number().int().min(0).max(999).optional(),
  number: z.number().int().min(0).max(100_000).optional(),
  title: z.string().max(300).optional(),
  tmdbId: tmdbIdParam.optional(),
});
export type MatchEpisodeQuery = z.infer<typeof MatchEpisodeQuery>;

/** One title as the file names it; ids, when the file has them, come before the title. */
export const MatchItem = z.object({
  /** The caller's own key for the title, echoed back. */
  key: z.string().min(1).max(100),
  title: z.string().trim().min(1).max(300),
  year: z.number().int().min(1870).max(2100).optional(),
  type: TmdbTypeSchema.optional(),
  /** Trusted with `type` only (movie and show ids overlap). */
  tmdbId: tmdbIdParam.optional(),
  imdbId: imdbIdParam.optional(),
  episodes: z.array(MatchEpisodeQuery).max(400).optional(),
});
export type MatchItem = z.infer<typeof MatchItem>;

export const MatchBody = z.object({ items: z.array(MatchItem).min(1).max(MATCH_MAX_ITEMS) });
export type MatchBody = z.infer<typeof MatchBody>;

/**
 * `matched`: sure; `unsure`: a best guess with candidates for the viewer to choose from; `unmatched`:
 * nothing like it; `failed`: the metadata service could not be asked for this title (ask again later).
 */
export const MatchStatus = z.enum(['matched', 'unsure', 'unmatched', 'failed']);
export type MatchStatus = z.infer<typeof MatchStatus>;

/** An episode found, with its season (what a progress or history entry needs). */
export const EpisodeMatch = z.object({
  seasonId: z.string(),
  seasonNumber: z.number().int(),
  seasonTitle: z.string(),
  id: z.string(),
  number: z.number().int(),
  title: z.string(),
});
export type EpisodeMatch = z.infer<typeof EpisodeMatch>;

export const MatchResult = z.object({
  key: z.string(),
  status: MatchStatus,
  /** The match, or the best guess when `unsure`; null when `unmatched` or `failed`. */
  match: MediaSummary.nullable(),
  /** Up to 5, best first (the match first). */
  candidates: z.array(MediaSummary).max(5),
  /** One per episode asked for, in order; null where none was found (all null unless the match is a show). */
  episodes: z.array(EpisodeMatch.nullable()),
});
export type MatchResult = z.infer<typeof MatchResult>;

/** One result per item, in the items' order. */
export const MatchResponse = z.object({ results: z.array(MatchResult) });
export type MatchResponse = z.infer<typeof MatchResponse>;

/**
 * What TMDB's failures become (modules/metadata/tmdb/tmdb.client.ts `toAppError`); the embedded catalog
 * answers none of them.
 */
/**
 * A kids' profile's call (its session's token and X-Profile-Id, decision 106) over one title: 403 when the
 * title is over the profile's content limit. Lists of titles leave such titles out instead.
 */
const overLimit = { 403: ['over_content_limit'] } as const satisfies EndpointErrors;

const upstreamErrors = {
  400: ['bad_request'],
  502: ['metadata_bad_answer', 'metadata_auth_failed'],
  503: ['metadata_unavailable', 'metadata_rate_limited'],
} as const satisfies EndpointErrors;

export const metadataEndpoints = {
  search: defineEndpoint({
    ...metadataRoutes.search,
    summary:
      'Search movies and shows (adult results dropped; exact, then prefix, word and typo matches, each by popularity)',
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
    errors: { ...overLimit, ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ type: TmdbTypeSchema, id: tmdbIdParam }),
    query: z.object({
      language,
      /** The viewer's country (ISO 3166-1): content rating and where to watch. */
      region: z
        .string()
        .regex(/^[A-Z]{2}$/, 'must be a country code (ISO 3166-1 alpha-2)')
        .default('US'),
    }),
    response: MediaDetails,
  }),
  season: defineEndpoint({
    ...metadataRoutes.season,
    summary: 'Episodes of one season of a show',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...overLimit, ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ id: tmdbIdParam, number: z.coerce.number().int().min(0).max(999) }),
    query: inLanguage,
    response: SeasonDetails,
  }),
  findByImdb: defineEndpoint({
    ...metadataRoutes.findByImdb,
    summary: 'Resolve an IMDb id to a TMDB movie or show',
    auth: 'none',
    tags: ['metadata'],
    errors: { ...overLimit, ...upstreamErrors, 404: ['media_not_found'] },
    params: z.object({ imdbId: imdbIdParam }),
    query: inLanguage,
    response: MediaSummary,
  }),
  legacyJustWatch: defineEndpoint({
    ...metadataRoutes.legacyJustWatch,
    summary: 'Resolve an old JustWatch media key (JW-…) to a TMDB title',
    auth: 'none',
    tags: ['metadata'],
    errors: {
      ...overLimit,
      ...upstreamErrors,
      404: ['media_not_found'],
      503: [...upstreamErrors[503], 'legacy_metadata_unavailable'],
    },
    params: z.object({ type: z.string().regex(/^[a-z]{0,16}$/), id: z.string().regex(/^\d{1,12}$/) }),
    query: inLanguage,
    response: MediaSummary,
  }),
  match: defineEndpoint({
    ...metadataRoutes.match,
    summary: `Match up to ${MATCH_MAX_ITEMS} titles of other services' exports to TMDB titles and their episodes`,
    auth: 'none',
    tags: ['metadata'],
    // TMDB's failures make single titles `failed`, never the batch.
    errors: { 400: upstreamErrors[400], 429: ['rate_limited'] },
    query: inLanguage,
    body: MatchBody,
    response: MatchResponse,
  }),
} as const;
