import { LRUCache } from 'lru-cache';
import {
  yearOf,
  type Genre,
  type ListName,
  type MediaDetails,
  type MediaSummary,
  type SeasonDetails,
  type TmdbType,
} from '@marquee/contract';
import {
  SEARCH_CACHE_SWEEP_MS,
  SEARCH_CACHE_TTL_MS,
  keepSearchable,
  postersFirst,
  searchCacheKey,
} from './search-rules.ts';
import { AppError, notFound } from '../../errors.ts';
import type { LegacyLookup } from './justwatch/justwatch.client.ts';
import type { MetadataCacheRepository } from './metadata-cache.repository.ts';
import type { TmdbApi, TmdbMovieItem, TmdbTvItem } from './tmdb/tmdb.types.ts';

const HOUR = 3_600_000;
/** How long answers from TMDB are kept in the shared cache, by kind of answer. */
const CACHE_TTL = {
  details: 24 * HOUR,
  season: 6 * HOUR,
  list: HOUR,
  genres: 24 * HOUR,
  discover: HOUR,
  find: 24 * HOUR,
};

export const POSTER_SIZE = 'w342';

export interface MetadataServiceOptions {
  api: TmdbApi;
  /** Shared cache for TMDB answers (absent for the in-memory catalog, which needs none). */
  cache?: MetadataCacheRepository;
  /** Resolves old JustWatch keys; absent → such keys are not found. */
  legacy?: LegacyLookup;
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
  private readonly now: () => number;
  /** Search answers for 1 h, swept every 2 min (the seed spec). */
  private readonly searchCache: LRUCache<string, MediaSummary[]>;
  private readonly sweepTimer: NodeJS.Timeout;

  constructor(options: MetadataServiceOptions) {
    this.api = options.api;
    this.cache = options.cache;
    this.legacy = options.legacy;
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

  async search(query: string): Promise<MediaSummary[]> {
    const key = searchCacheKey(query);
    const cached = this.searchCache.get(key);
    if (cached) return cached;
    const page = await this.api.searchMulti(query.trim());
    const results = postersFirst(
      keepSearchable(page.results).map((hit) =>
        hit.media_type === 'movie' ? this.fromMovie(hit as TmdbMovieItem) : this.fromTv(hit as TmdbTvItem),
      ),
    );
    this.searchCache.set(key, results);
    return results;
  }

  list(type: TmdbType, list: ListName): Promise<MediaSummary[]> {
    if (type === 'tv' && list === 'now_playing') {
      return Promise.reject(new AppError(404, 'not_found', 'Shows have no "in cinemas" list'));
    }
    return this.cached(`list:${type}:${list}`, CACHE_TTL.list, async () =>
      type === 'movie'
        ? (await this.api.movieList(list)).results
            .filter((m) => m.adult !== true)
            .map((m) => this.fromMovie(m))
        : (await this.api.tvList(list as 'top_rated' | 'popular')).results
            .filter((s) => s.adult !== true)
            .map((s) => this.fromTv(s)),
    );
  }

  genres(type: TmdbType): Promise<Genre[]> {
    return this.cached(`genres:${type}`, CACHE_TTL.genres, async () => (await this.api.genres(type)).genres);
  }

  discover(type: TmdbType, genre: number, page: number): Promise<MediaSummary[]> {
    return this.cached(`discover:${type}:${genre}:${page}`, CACHE_TTL.discover, async () =>
      type === 'movie'
        ? (await this.api.discoverMovies(genre, page)).results
            .filter((m) => m.adult !== true)
            .map((m) => this.fromMovie(m))
        : (await this.api.discoverTv(genre, page)).results
            .filter((s) => s.adult !== true)
            .map((s) => this.fromTv(s)),
    );
  }

  details(type: TmdbType, id: string): Promise<MediaDetails> {
    return this.cached(`details:${type}:${id}`, CACHE_TTL.details, async () => {
      if (type === 'movie') {
        const movie = await this.api.movie(Number(id));
        return {
          ...this.fromMovie(movie),
          overview: movie.overview || null,
          backdrop: this.imageUrl(movie.backdrop_path, 'w1280'),
          genres: movie.genres ?? [],
          runtime: movie.runtime ?? null,
          imdbId: movie.imdb_id ?? movie.external_ids?.imdb_id ?? null,
          seasons: [],
        };
      }
      const show = await this.api.tv(Number(id));
      return {
        ...this.fromTv(show),
        overview: show.overview || null,
        backdrop: this.imageUrl(show.backdrop_path, 'w1280'),
        genres: show.genres ?? [],
        runtime: show.episode_run_time?.[0] ?? null,
        imdbId: show.external_ids?.imdb_id ?? null,
        seasons: (show.seasons ?? [])
          .map((s) => ({
            id: String(s.id),
            number: s.season_number,
            title: s.name,
            episodeCount: s.episode_count ?? 0,
            airDate: s.air_date || null,
          }))
          .sort((a, b) => a.number - b.number),
      };
    });
  }

  season(showId: string, seasonNumber: number): Promise<SeasonDetails> {
    return this.cached(`season:${showId}:${seasonNumber}`, CACHE_TTL.season, async () => {
      const season = await this.api.season(Number(showId), seasonNumber);
      return {
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
          }))
          .sort((a, b) => a.number - b.number),
      };
    });
  }

  async findByImdb(imdbId: string): Promise<MediaSummary> {
    const found = await this.cached(`find:${imdbId}`, CACHE_TTL.find, async () => {
      const result = await this.api.find(imdbId);
      const movie = result.movie_results[0];
      if (movie) return this.fromMovie(movie);
      const show = result.tv_results[0];
      return show ? this.fromTv(show) : null;
    });
    if (!found) throw notFound("Couldn't find that media", 'media_not_found');
    return found;
  }

  /**
   * An old `JW-{type}-{id}` key → the TMDB title: through the JustWatch lookup's TMDB id, or its IMDb id
   * and TMDB's find. Movies and shows both resolve (the older clients failed on shows).
   */
  async resolveJustWatch(jwType: string, jwId: string): Promise<MediaSummary> {
    if (!this.legacy) throw notFound("Couldn't find that media", 'media_not_found');
    const ids = await this.cached(`jw:${jwType}:${jwId}`, CACHE_TTL.find, () =>
      this.legacy!.lookup(jwType, jwId),
    );
    if (ids.tmdbId) {
      const details = await this.details(ids.kind === 'show' ? 'tv' : 'movie', ids.tmdbId);
      return {
        id: details.id,
        type: details.type,
        title: details.title,
        year: details.year,
        releaseDate: details.releaseDate,
        poster: details.poster,
      };
    }
    if (ids.imdbId) return this.findByImdb(ids.imdbId);
    throw notFound("Couldn't find that media", 'media_not_found');
  }

  /** Poster/backdrop URL on our own server; the image host is never exposed to the browser. */
  imageUrl(path: string | null | undefined, size: string = POSTER_SIZE): string | null {
    if (!path) return null;
    return `/api/images/${size}/${path.replace(/^\/+/, '')}`;
  }

  private fromMovie(m: TmdbMovieItem): MediaSummary {
    return {
      id: String(m.id),
      type: 'movie',
      title: m.title,
      year: yearOf(m.release_date),
      releaseDate: m.release_date || null,
      poster: this.imageUrl(m.poster_path),
    };
  }

  private fromTv(s: TmdbTvItem): MediaSummary {
    return {
      id: String(s.id),
      type: 'tv',
      title: s.name,
      year: yearOf(s.first_air_date),
      releaseDate: s.first_air_date || null,
      poster: this.imageUrl(s.poster_path),
    };
  }

  private async cached<T>(key: string, ttlMs: number, load: () => Promise<T>): Promise<T> {
    if (!this.cache) return load();
    const hit = await this.cache.get(key, this.now());
    if (hit !== undefined) return JSON.parse(hit) as T;
    const value = await load();
    await this.cache.set(key, JSON.stringify(value), this.now() + ttlMs);
    return value;
  }
}
