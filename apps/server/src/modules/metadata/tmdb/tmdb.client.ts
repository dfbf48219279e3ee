import type { z } from 'zod';
import type { UiLanguage } from '@marquee/contract';
import { AppError } from '../../../errors.ts';
import {
  TmdbFindResult,
  TmdbGenreList,
  TmdbMovieDetails,
  TmdbMoviePage,
  TmdbMultiPage,
  TmdbSeasonDetails,
  TmdbTvDetails,
  TmdbTvPage,
  type TmdbApi,
  type TmdbKind,
  type TmdbListName,
} from './tmdb.types.ts';

export interface TmdbClientOptions {
  apiKey: string;
  baseUrl: string;
  fallbackUrl: string;
  timeoutMs: number;
  fallbackTimeoutMs: number;
  fetch?: typeof fetch;
}

/** Why a request to one host failed; decides whether the fallback host is tried. */
class HostFailure extends Error {
  constructor(
    readonly kind: 'transport' | 'status' | 'garbage',
    readonly status: number,
    readonly tmdbCode: number | undefined,
    message: string,
  ) {
    super(message);
  }
}

/**
 * TMDB's language tag for a UI language: English as `en-US` (as before), Chinese as mainland Simplified
 * (`zh-CN`), regional tags as they are (`pt-BR`), the rest as ISO 639-1 codes TMDB takes alone.
 */
export function tmdbLanguage(language: UiLanguage = 'en'): string {
  if (language === 'en') return 'en-US';
  if (language === 'zh') return 'zh-CN';
  return language;
}

/** A v4 read token is a JWT (three dot-separated parts); anything else is treated as a v3 key. */
const isReadToken = (key: string) => key.split('.').length === 3;

/**
 * TMDB v3 over HTTP: bearer read token (or v3 `api_key`), `language` the viewer's, 5 s on the primary host
 * and, on a transport failure, a 5xx or an answer that is not TMDB's (an ISP's block page), one more
 * try on the fallback host with 30 s. TMDB's own 4xx verdicts (bad key, not found, rate limited) are
 * final. Errors become typed AppErrors; a 2xx of the wrong shape is `metadata_bad_answer`.
 */
export class TmdbClient implements TmdbApi {
  readonly kind = 'tmdb' as const;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TmdbClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  searchMulti(query: string, language: UiLanguage = 'en') {
    return this.get('/search/multi', TmdbMultiPage, language, { query, include_adult: 'false', page: '1' });
  }
  movie(id: number, language: UiLanguage = 'en') {
    return this.get(`/movie/${id}`, TmdbMovieDetails, language, { append_to_response: 'external_ids' });
  }
  tv(id: number, language: UiLanguage = 'en') {
    return this.get(`/tv/${id}`, TmdbTvDetails, language, { append_to_response: 'external_ids' });
  }
  season(showId: number, seasonNumber: number, language: UiLanguage = 'en') {
    return this.get(`/tv/${showId}/season/${seasonNumber}`, TmdbSeasonDetails, language);
  }
  find(imdbId: string, language: UiLanguage = 'en') {
    return this.get(`/find/${encodeURIComponent(imdbId)}`, TmdbFindResult, language, {
      external_source: 'imdb_id',
    });
  }
  movieList(list: TmdbListName, language: UiLanguage = 'en') {
    return this.get(`/movie/${list}`, TmdbMoviePage, language, { page: '1' });
  }
  tvList(list: Exclude<TmdbListName, 'now_playing'>, language: UiLanguage = 'en') {
    return this.get(`/tv/${list}`, TmdbTvPage, language, { page: '1' });
  }
  genres(kind: TmdbKind, language: UiLanguage = 'en') {
    return this.get(`/genre/${kind}/list`, TmdbGenreList, language);
  }
  discoverMovies(genreId: number, page: number, language: UiLanguage = 'en') {
    return this.get('/discover/movie', TmdbMoviePage, language, {
      with_genres: String(genreId),
      page: String(page),
    });
  }
  discoverTv(genreId: number, page: number, language: UiLanguage = 'en') {
    return this.get('/discover/tv', TmdbTvPage, language, {
      with_genres: String(genreId),
      page: String(page),
    });
  }

  private async get<T extends z.ZodType>(
    path: string,
    schema: T,
    language: UiLanguage,
    query: Record<string, string> = {},
  ): Promise<z.infer<T>> {
    query = { language: tmdbLanguage(language), ...query };
    let body: unknown;
    try {
      body = await this.getFrom(this.options.baseUrl, this.options.timeoutMs, path, query);
    } catch (error) {
      if (!(error instanceof HostFailure)) throw error;
      // The mirror would say the same; an answer without TMDB's error body may be a blocking proxy.
      const isTmdbVerdict = error.kind === 'status' && error.status < 500 && error.tmdbCode !== undefined;
      if (isTmdbVerdict) throw toAppError(error);
      try {
        body = await this.getFrom(this.options.fallbackUrl, this.options.fallbackTimeoutMs, path, query);
      } catch (fallbackError) {
        throw fallbackError instanceof HostFailure ? toAppError(fallbackError) : fallbackError;
      }
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      throw new AppError(502, 'metadata_bad_answer', 'Failed to load metadata', { cause: parsed.error });
    }
    return parsed.data;
  }

  private async getFrom(
    base: string,
    timeoutMs: number,
    path: string,
    query: Record<string, string>,
  ): Promise<unknown> {
    const url = new URL(base.replace(/\/+$/, '') + path);
    for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (isReadToken(this.options.apiKey)) headers.authorization = `Bearer ${this.options.apiKey}`;
    else url.searchParams.set('api_key', this.options.apiKey);

    let response: Response;
    let text: string;
    try {
      response = await this.fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs) });
      text = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new HostFailure(
        'transport',
        0,
        undefined,
        timedOut ? `timed out after ${timeoutMs} ms` : String(error),
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (!response.ok)
        throw new HostFailure('status', response.status, undefined, `HTTP ${response.status}`);
      throw new HostFailure('garbage', response.status, undefined, 'the answer is not JSON');
    }
    if (!response.ok) {
      const code = (body as { status_code?: unknown } | null)?.status_code;
      throw new HostFailure(
        'status',
        response.status,
        typeof code === 'number' ? code : undefined,
        `HTTP ${response.status}`,
      );
    }
    return body;
  }
}

function toAppError(failure: HostFailure): AppError {
  if (failure.kind === 'transport') {
    return new AppError(503, 'metadata_unavailable', 'Failed to load metadata', { cause: failure });
  }
  if (failure.kind === 'garbage') {
    return new AppError(502, 'metadata_bad_answer', 'Failed to load metadata', { cause: failure });
  }
  switch (failure.status) {
    case 401:
      return new AppError(502, 'metadata_auth_failed', 'Failed to load metadata', { cause: failure });
    case 404:
      return new AppError(404, 'media_not_found', "Couldn't find that media", { cause: failure });
    case 429:
      return new AppError(503, 'metadata_rate_limited', 'Failed to load metadata', { cause: failure });
    case 400:
    case 422:
      return new AppError(400, 'bad_request', 'The metadata service refused the request', { cause: failure });
    default:
      return new AppError(503, 'metadata_unavailable', 'Failed to load metadata', { cause: failure });
  }
}
