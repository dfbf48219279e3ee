import { LRUCache } from 'lru-cache';
import {
  yearOf,
  type Certifications,
  type Genre,
  type ListName,
  type MediaDetails,
  type MediaSummary,
  type SeasonDetails,
  type TmdbType,
  type UiLanguage,
} from '@marquee/contract';
import {
  SEARCH_CACHE_SWEEP_MS,
  SEARCH_CACHE_TTL_MS,
  FEW_MATCHES,
  MatchTier,
  keepSearchable,
  postersFirst,
  rankHits,
  searchCacheKey,
} from './search-rules.ts';
import { AppError, notFound } from '../../errors.ts';
import type { LegacyLookup } from './justwatch/justwatch.client.ts';
import type { MetadataCacheRepository } from './metadata-cache.repository.ts';
import { hasTmdbBudget } from './tmdb/tmdb.client.ts';
import type { TmdbApi, TmdbMovieItem, TmdbTvItem } from './tmdb/tmdb.types.ts';
import {
  BACKDROP_SIZE,
  MAX_RECOMMENDATIONS,
  POSTER_SIZE,
  STILL_SIZE,
  episodeRef,
  minutes,
  movieCast,
  movieContentRating,
  movieCrew,
  movieStatus,
  ratingOf,
  showCast,
  showContentRating,
  showCrew,
  medianRuntime,
  showRuntime,
  showStatus,
  trailersOf,
  watchProvidersIn,
} from './title-details.ts';

const HOUR = 3_600_000;
/** How long answers from TMDB are kept in the shared cache, by kind of answer. */
const CACHE_TTL = {
  details: 24 * HOUR,
  season: 6 * HOUR,
  list: HOUR,
  genres: 24 * HOUR,
  discover: HOUR,
  find: 24 * HOUR,
  /** Age ratings change rarely (a re-rating, a new country's release). */
  certifications: 7 * 24 * HOUR,
};

export { POSTER_SIZE };

/**
 * TMDB failures an expired answer from the shared cache stands in for (decision 082). TMDB's verdicts on
 * the request (not found, bad request) are passed on instead.
 */
const STALE_STANDS_IN_FOR = new Set<string>([
  'metadata_unavailable',
  'metadata_rate_limited',
  'metadata_bad_answer',
  'metadata_auth_failed',
  'legacy_metadata_unavailable',
]);

export interface MetadataServiceOptions {
  api: TmdbApi;
  /** Shared cache for TMDB answers (absent for the in-memory catalog, which needs none). */
  cache?: MetadataCacheRepository;
  /** Resolves old JustWatch keys; absent → such keys are not found. */
  legacy?: LegacyLookup;
  /**
   * Suggests what a query with typos meant (the embedded catalog's titles), for a TMDB source that
   * tolerates none; absent → no correction.
   */
  spelling?: { correct(query: string): string | undefined };
  now?: () => number;
}

/**
 * Owns the metadata rules: maps TMDB-shaped answers (from TMDB or the embedded catalog) to the
 * contract's shapes, filters and orders search results, and caches.
 */
export class MetadataService {
  private readonly api: TmdbApi;
  private readonly cache: MetadataCacheRepository | undefined;
  private readonly legacy: LegacyLookup | undefined;
  private readonly spelling: MetadataServiceOptions['spelling'];
  private readonly now: () => number;
  /** Search answers for 1 h, swept every 2 min (decision 002). */
  private readonly searchCache: LRUCache<string, MediaSummary[]>;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(options: MetadataServiceOptions) {
    this.api = options.api;
    this.cache = options.cache;
    this.legacy = options.legacy;
    this.spelling = options.spelling;
    this.now = options.now ?? Date.now;
    // ttlResolution 0: read the (injectable) clock on every check instead of reusing a reading for 1 ms.
    this.searchCache = new LRUCache({
      max: 2000,
      ttl: SEARCH_CACHE_TTL_MS,
      ttlAutopurge: false,
      ttlResolution: 0,
      perf: { now: this.now },
    });
    this.sweepTimer = setInterval(() => this.sweepSearchCache(), SEARCH_CACHE_SWEEP_MS);
    this.sweepTimer.unref();
  }

  get source(): TmdbApi['kind'] {
    return this.api.kind;
  }

  /**
   * Runs one API request's work with one TMDB time budget for all its TMDB calls (decision 082), when
   * the source has one (the embedded catalog has none).
   */
  withinBudget<T>(work: () => Promise<T>): Promise<T> {
    return hasTmdbBudget(this.api) ? this.api.withBudget(work) : work();
  }

  close(): void {
    clearInterval(this.sweepTimer);
  }

  /** Drops expired search answers; returns how many were dropped. */
  sweepSearchCache(): number {
    // keys() skips expired entries, so count by size: it includes them until they are purged.
    const before = this.searchCache.size;
    this.searchCache.purgeStale();
    return before - this.searchCache.size;
  }

  get searchCacheSize(): number {
    return this.searchCache.size;
  }

  async search(query: string, language: UiLanguage = 'en'): Promise<MediaSummary[]> {
    const key = `${language}:${searchCacheKey(query)}`;
    const cached = this.searchCache.get(key);
    if (cached) return cached;
    const hits = await this.searchHits(query.trim(), language);
    const english = await this.englishFor(language, hits, () => this.searchHits(query.trim(), 'en'));
    const cards = hits.map((hit) => {
      const fallback = english?.get(`${hit.media_type}:${hit.id}`);
      return hit.media_type === 'movie'
        ? this.fromMovie(hit as TmdbMovieItem, fallback as TmdbMovieItem | undefined)
        : this.fromTv(hit as TmdbTvItem, fallback as TmdbTvItem | undefined);
    });
    // TMDB's hits come ranked by the search rules, posters first within a tier; the catalog ranks its
    // own by the same rules (decision 081), posters first overall as before (all of its titles have one).
    const results = this.api.kind === 'tmdb' ? cards : postersFirst(cards);
    this.searchCache.set(key, results);
    return results;
  }

  /**
   * The movies and shows a search finds, in order. TMDB's hits are ranked by the search rules (decision
   * 081). TMDB tolerates no typos: when fewer than FEW_MATCHES of its hits match the query by those rules
   * (typos aside), the query the catalog's titles suggest ("godfathr" → "The Godfather") is searched too,
   * and its hits come after the good matches of the query as typed.
   */
  private async searchHits(query: string, language: UiLanguage) {
    const hits = keepSearchable((await this.api.searchMulti(query, language)).results);
    if (this.api.kind !== 'tmdb') return hits;
    const ranked = rankHits(query, hits);
    const good = ranked.filter((r) => r.tier <= MatchTier.words).map((r) => r.hit);
    const rest = ranked.filter((r) => r.tier > MatchTier.words).map((r) => r.hit);
    const corrected = good.length < FEW_MATCHES ? this.spelling?.correct(query) : undefined;
    if (!corrected || searchCacheKey(corrected) === searchCacheKey(query)) return [...good, ...rest];
    const seen = new Set(hits.map((h) => `${h.media_type}:${h.id}`));
    const more = keepSearchable((await this.api.searchMulti(corrected, language)).results).filter(
      (h) => !seen.has(`${h.media_type}:${h.id}`),
    );
    return [...good, ...rankHits(corrected, more).map((r) => r.hit), ...rest];
  }

  list(type: TmdbType, list: ListName, language: UiLanguage = 'en'): Promise<MediaSummary[]> {
    if (type === 'tv' && list === 'now_playing') {
      return Promise.reject(new AppError(404, 'not_found', 'Shows have no "in cinemas" list'));
    }
    return this.cached(`list:${type}:${list}:${language}`, CACHE_TTL.list, () =>
      this.summaries(type, language, (lang) =>
        type === 'movie'
          ? this.api.movieList(list, lang)
          : this.api.tvList(list as 'top_rated' | 'popular', lang),
      ),
    );
  }

  genres(type: TmdbType, language: UiLanguage = 'en'): Promise<Genre[]> {
    return this.cached(`genres:${type}:${language}`, CACHE_TTL.genres, async () => {
      const { genres } = await this.api.genres(type, language);
      // TMDB answers `name: null` for a genre it has no name for in a language: English then.
      const english = genres.some((g) => !g.name)
        ? new Map((await this.genres(type, 'en')).map((g) => [g.id, g.name]))
        : undefined;
      return genres.map((g) => ({ id: g.id, name: g.name || english?.get(g.id) || String(g.id) }));
    });
  }

  discover(
    type: TmdbType,
    genre: number,
    page: number,
    language: UiLanguage = 'en',
  ): Promise<MediaSummary[]> {
    return this.cached(`discover:${type}:${genre}:${page}:${language}`, CACHE_TTL.discover, () =>
      this.summaries(type, language, (lang) =>
        type === 'movie'
          ? this.api.discoverMovies(genre, page, lang)
          : this.api.discoverTv(genre, page, lang),
      ),
    );
  }

  /**
   * A title page: the details and its credits, trailers, rating for `region`, offers in `region` and
   * recommendations, from one TMDB call (decision 083). Cached per language and region.
   */
  /**
   * A title's details only if they are at hand — the embedded catalog, or the shared cache (fresh or
   * not) — never asking TMDB (what a page's HTML may wait for: a bot's request costs no upstream call).
   */
  async detailsAtHand(
    type: TmdbType,
    id: string,
    language: UiLanguage = 'en',
    region: string = 'US',
  ): Promise<MediaDetails | null> {
    if (this.api.kind !== 'tmdb') return this.details(type, id, language, region).catch(() => null);
    const hit = await this.cache?.lookup(`details:${type}:${id}:${language}:${region}`, this.now());
    return hit ? (JSON.parse(hit.value) as MediaDetails) : null;
  }

  details(
    type: TmdbType,
    id: string,
    language: UiLanguage = 'en',
    region: string = 'US',
  ): Promise<MediaDetails> {
    return this.cached(`details:${type}:${id}:${language}:${region}`, CACHE_TTL.details, async () => {
      const local = await this.detailsIn(type, id, language, region);
      if (language === 'en' || (local.overview && local.poster && local.genres.every((g) => g.name))) {
        return local;
      }
      // What TMDB has no translation for (an overview, a localised poster, a genre's name) reads in English.
      const english = await this.details(type, id, 'en', region);
      const genreNames = new Map(english.genres.map((g) => [g.id, g.name]));
      const englishCards = new Map(english.recommendations.map((r) => [r.id, r]));
      return {
        ...local,
        overview: local.overview ?? english.overview,
        poster: local.poster ?? english.poster,
        backdrop: local.backdrop ?? english.backdrop,
        genres: local.genres.map((g) => ({ id: g.id, name: g.name || genreNames.get(g.id) || String(g.id) })),
        recommendations: local.recommendations.map((r) => ({
          ...r,
          title: r.title || englishCards.get(r.id)?.title || '',
          poster: r.poster ?? englishCards.get(r.id)?.poster ?? null,
        })),
      };
    });
  }

  private async detailsIn(
    type: TmdbType,
    id: string,
    language: UiLanguage,
    region: string,
  ): Promise<MediaDetails> {
    const image = (path: string | null | undefined, size: string) => this.imageUrl(path, size);
    const today = new Date(this.now()).toISOString().slice(0, 10);
    const visible = <T extends { adult?: boolean | undefined }>(items: readonly T[] | undefined) =>
      (items ?? []).filter((item) => item.adult !== true).slice(0, MAX_RECOMMENDATIONS);
    if (type === 'movie') {
      const movie = await this.api.movie(Number(id), language);
      return {
        ...this.fromMovie(movie),
        overview: movie.overview || null,
        backdrop: this.imageUrl(movie.backdrop_path, BACKDROP_SIZE),
        genres: (movie.genres ?? []).map((g) => ({ id: g.id, name: g.name ?? '' })),
        runtime: minutes(movie.runtime),
        imdbId: movie.imdb_id || movie.external_ids?.imdb_id || null,
        seasons: [],
        tagline: movie.tagline?.trim() || null,
        rating: ratingOf(movie.vote_average, movie.vote_count),
        contentRating: movieContentRating(movie.release_dates, region),
        status: movieStatus(movie.status, movie.release_date, today),
        cast: movieCast(movie.credits, image),
        crew: movieCrew(movie.credits, image),
        trailers: trailersOf(movie.videos?.results, language),
        watchProviders: watchProvidersIn(movie['watch/providers'], region, image),
        nextEpisode: null,
        lastEpisode: null,
        recommendations: visible(movie.recommendations?.results).map((m) => this.fromMovie(m)),
      };
    }
    const show = await this.api.tv(Number(id), language);
    let runtime = showRuntime(show.episode_run_time, show.last_episode_to_air, show.next_episode_to_air);
    const last = show.last_episode_to_air;
    // A finale (or mid-season episode) often runs long: the typical length is its season's middle one.
    if (
      !(show.episode_run_time ?? []).some((m) => m > 0) &&
      last?.episode_type &&
      last.episode_type !== 'standard'
    ) {
      const season = await this.api.season(Number(id), last.season_number, language).catch(() => null);
      runtime = medianRuntime(season?.episodes) ?? runtime;
    }
    return {
      ...this.fromTv(show),
      overview: show.overview || null,
      backdrop: this.imageUrl(show.backdrop_path, BACKDROP_SIZE),
      genres: (show.genres ?? []).map((g) => ({ id: g.id, name: g.name ?? '' })),
      runtime,
      imdbId: show.external_ids?.imdb_id || null,
      seasons: (show.seasons ?? [])
        .map((s) => ({
          id: String(s.id),
          number: s.season_number,
          title: s.name,
          episodeCount: s.episode_count ?? 0,
          airDate: s.air_date || null,
        }))
        .sort((a, b) => a.number - b.number),
      tagline: show.tagline?.trim() || null,
      rating: ratingOf(show.vote_average, show.vote_count),
      contentRating: showContentRating(show.content_ratings, region),
      status: showStatus(show.status, show.first_air_date, show.next_episode_to_air, today),
      cast: showCast(show.aggregate_credits, image),
      crew: showCrew(show.created_by, show.aggregate_credits, image),
      trailers: trailersOf(show.videos?.results, language),
      watchProviders: watchProvidersIn(show['watch/providers'], region, image),
      nextEpisode: episodeRef(show.next_episode_to_air),
      lastEpisode: episodeRef(show.last_episode_to_air),
      recommendations: visible(show.recommendations?.results).map((s) => this.fromTv(s)),
    };
  }

  season(showId: string, seasonNumber: number, language: UiLanguage = 'en'): Promise<SeasonDetails> {
    return this.cached(`season:${showId}:${seasonNumber}:${language}`, CACHE_TTL.season, async () => {
      const season = await this.api.season(Number(showId), seasonNumber, language);
      const local: SeasonDetails = {
        id: String(season.id),
        number: season.season_number,
        title: season.name,
        episodes: season.episodes
          .map((e) => ({
            id: String(e.id),
            number: e.episode_number,
            title: e.name,
            airDate: e.air_date || null,
            overview: e.overview || null,
            runtime: minutes(e.runtime),
            still: this.imageUrl(e.still_path, STILL_SIZE),
          }))
          .sort((a, b) => a.number - b.number),
      };
      if (language === 'en' || local.episodes.every((e) => e.overview && e.title)) return local;
      // Episodes TMDB has no translation for keep their English overview (and name, if it has none).
      const english = new Map(
        (await this.season(showId, seasonNumber, 'en')).episodes.map((e) => [e.number, e]),
      );
      return {
        ...local,
        episodes: local.episodes.map((e) => ({
          ...e,
          title: e.title || english.get(e.number)?.title || e.title,
          overview: e.overview ?? english.get(e.number)?.overview ?? null,
        })),
      };
    });
  }

  /**
   * A title's age ratings by country (`{ US: 'PG-13', DE: '12' }`), what kids' profiles' limits are checked
   * against (decision 106): a film's from its releases (theatrical first), a show's as TMDB lists them.
   */
  certifications(type: TmdbType, id: string): Promise<Certifications> {
    return this.cached(`certs:${type}:${id}`, CACHE_TTL.certifications, async () => {
      const rated: [string, string][] = [];
      if (type === 'movie') {
        const answer = await this.api.releaseDates(Number(id));
        for (const { iso_3166_1: country } of answer.results) {
          const rating = movieContentRating(answer, country);
          if (rating) rated.push([country, rating]);
        }
      } else {
        for (const { iso_3166_1: country, rating } of (await this.api.contentRatings(Number(id))).results)
          if (rating?.trim()) rated.push([country, rating.trim()]);
      }
      return Object.fromEntries(rated);
    });
  }

  async findByImdb(imdbId: string, language: UiLanguage = 'en'): Promise<MediaSummary> {
    const found = await this.cached(`find:${imdbId}:${language}`, CACHE_TTL.find, async () => {
      const result = await this.api.find(imdbId, language);
      const movie = result.movie_results[0];
      if (movie) return this.fromMovie(movie);
      const show = result.tv_results[0];
      return show ? this.fromTv(show) : null;
    });
    if (!found) throw notFound("Couldn't find that media", 'media_not_found');
    return found;
  }

  /**
   * Cards of a list in `language`; titles TMDB has no translation or poster for in it get the English
   * ones (one more call, for the same list in English, cached like any other).
   */
  private async summaries(
    type: TmdbType,
    language: UiLanguage,
    load: (language: UiLanguage) => Promise<{ results: (TmdbMovieItem | TmdbTvItem)[] }>,
  ): Promise<MediaSummary[]> {
    const visible = async (lang: UiLanguage) =>
      (await load(lang)).results.filter((item) => item.adult !== true);
    const items = await visible(language);
    const english = await this.englishFor(
      language,
      items.map((item) => ({ ...item, media_type: type })),
      async () => (await visible('en')).map((item) => ({ ...item, media_type: type })),
    );
    return items.map((item) => {
      const fallback = english?.get(`${type}:${item.id}`);
      return type === 'movie'
        ? this.fromMovie(item as TmdbMovieItem, fallback as TmdbMovieItem | undefined)
        : this.fromTv(item as TmdbTvItem, fallback as TmdbTvItem | undefined);
    });
  }

  /** The English versions of hits that lack a title or poster in `language`, by `type:id`; else undefined. */
  private async englishFor<T extends { id: number; media_type?: string; poster_path?: string | null }>(
    language: UiLanguage,
    hits: readonly (T & { title?: string; name?: string })[],
    loadEnglish: () => Promise<T[]>,
  ): Promise<Map<string, T> | undefined> {
    if (language === 'en' || this.api.kind === 'catalog') return undefined;
    if (hits.every((h) => (h.title || h.name) && h.poster_path)) return undefined;
    const english = await loadEnglish();
    return new Map(english.map((h) => [`${h.media_type}:${h.id}`, h]));
  }

  /**
   * An old `JW-{type}-{id}` key → the TMDB title: through the JustWatch lookup's TMDB id, or its IMDb id
   * and TMDB's find. Movies and shows both resolve (the older clients failed on shows).
   */
  async resolveJustWatch(jwType: string, jwId: string, language: UiLanguage = 'en'): Promise<MediaSummary> {
    if (!this.legacy) throw notFound("Couldn't find that media", 'media_not_found');
    const ids = await this.cached(`jw:${jwType}:${jwId}`, CACHE_TTL.find, () =>
      this.legacy!.lookup(jwType, jwId),
    );
    if (ids.tmdbId) {
      const details = await this.details(ids.kind === 'show' ? 'tv' : 'movie', ids.tmdbId, language);
      return {
        id: details.id,
        type: details.type,
        title: details.title,
        year: details.year,
        releaseDate: details.releaseDate,
        poster: details.poster,
      };
    }
    if (ids.imdbId) return this.findByImdb(ids.imdbId, language);
    throw notFound("Couldn't find that media", 'media_not_found');
  }

  /** Poster/backdrop URL on our own server; the image host is never exposed to the browser. */
  imageUrl(path: string | null | undefined, size: string = POSTER_SIZE): string | null {
    if (!path) return null;
    return `/api/images/${size}/${path.replace(/^\/+/, '')}`;
  }

  /** A card; `english` fills what the viewer's language lacks (title, poster). */
  private fromMovie(m: TmdbMovieItem, english?: TmdbMovieItem): MediaSummary {
    return {
      id: String(m.id),
      type: 'movie',
      title: m.title || english?.title || '',
      year: yearOf(m.release_date),
      releaseDate: m.release_date || null,
      poster: this.imageUrl(m.poster_path ?? english?.poster_path),
    };
  }

  private fromTv(s: TmdbTvItem, english?: TmdbTvItem): MediaSummary {
    return {
      id: String(s.id),
      type: 'tv',
      title: s.name || english?.name || '',
      year: yearOf(s.first_air_date),
      releaseDate: s.first_air_date || null,
      poster: this.imageUrl(s.poster_path ?? english?.poster_path),
    };
  }

  /**
   * The shared cache's answer while fresh, else `load`'s (stored for `ttlMs`). When loading fails because
   * TMDB does, an expired answer still kept is served instead of the error (decision 082).
   */
  private async cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    if (!this.cache) return load();
    const hit = await this.cache.lookup(key, this.now());
    if (hit?.fresh) return JSON.parse(hit.value) as T;
    let value: T;
    try {
      value = await load();
    } catch (error) {
      if (hit && error instanceof AppError && STALE_STANDS_IN_FOR.has(error.code))
        return JSON.parse(hit.value) as T;
      throw error;
    }
    await this.cache.set(key, JSON.stringify(value), this.now() + ttlMs);
    return value;
  }
}
