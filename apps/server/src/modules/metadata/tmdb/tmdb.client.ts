import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { z } from 'zod';
import type { UiLanguage } from '@marquee/contract';
import { AppError } from '../../../errors.ts';
import {
  TmdbContentRatings,
  TmdbFindResult,
  TmdbGenreList,
  TmdbMovieDetails,
  TmdbMoviePage,
  TmdbMultiPage,
  TmdbReleaseDates,
  TmdbSeasonDetails,
  TmdbTvDetails,
  TmdbTvPage,
  type TmdbApi,
  type TmdbKind,
  type TmdbListName,
} from './tmdb.types.ts';
import { TmdbStats } from './tmdb-stats.ts';

export interface TmdbClientOptions {
  apiKey: string;
  baseUrl: string;
  fallbackUrl: string;
  /** Longest wait for the primary host (TMDB_TIMEOUT_MS). */
  timeoutMs: number;
  /** Longest wait for the fallback host (TMDB_FALLBACK_TIMEOUT_MS), never more than the budget has left. */
  fallbackTimeoutMs: number;
  /**
   * Time for everything one API request asks TMDB (TMDB_BUDGET_MS): every host, every call, the 429 retry
   * (decision 082). Default 7 s.
   */
  budgetMs?: number;
  fetch?: typeof fetch;
  /** Waits out a 429's Retry-After (tests inject one that returns at once). */
  sleep?: (ms: number) => Promise<void>;
  /** Monotonic clock in ms for the budget (default performance.now). */
  clock?: () => number;
  /** Where calls are recorded for the admin self-test (default: a ring of the last 200). */
  stats?: TmdbStats;
}

export const DEFAULT_TMDB_BUDGET_MS = 7_000;
/** No attempt starts with less time than this left in the budget: it could not succeed. */
export const MIN_ATTEMPT_MS = 250;
/** Retry-After sent to our clients for a TMDB 429 that named none (TMDB counts requests per second). */
const DEFAULT_RETRY_AFTER_SECONDS = 1;

/** Why a request to one host failed; decides whether the fallback host is tried. */
class HostFailure extends Error {
  constructor(
    readonly kind: 'transport' | 'status' | 'garbage',
    readonly status: number,
    readonly tmdbCode: number | undefined,
    message: string,
    /** A 429's Retry-After, in ms (absent when it named none, or one we cannot read). */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
}

/** TMDB's own verdict on the request (bad key, not found, rate limited): the mirror would say the same. */
const isTmdbVerdict = (failure: HostFailure) =>
  failure.kind === 'status' && failure.status < 500 && failure.tmdbCode !== undefined;

/** Retry-After as delay-seconds or an HTTP date, in ms from `now` (epoch ms); undefined if unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null) return undefined;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // An HTTP date names its weekday and zone (`Wed, 21 Oct 2015 07:28:00 GMT`); a bare number is not one.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** The time left of one request's TMDB budget. */
interface Budget {
  endsAt: number;
}

/** Something that can run one API request's metadata work under one TMDB budget. */
export interface TmdbBudgeted {
  withBudget<T>(work: () => Promise<T>): Promise<T>;
}
export const hasTmdbBudget = (api: object): api is TmdbBudgeted =>
  typeof (api as Partial<TmdbBudgeted>).withBudget === 'function';

/**
 * TMDB's language tag for a UI language: English as `en-US` (as before), Chinese as mainland Simplified
 * (`zh-CN`), regional tags as they are (`pt-BR`), the rest as ISO 639-1 codes TMDB takes alone.
 */
export function tmdbLanguage(language: UiLanguage = 'en'): string {
  if (language === 'en') return 'en-US';
  if (language === 'zh') return 'zh-CN';
  return language;
}

/** What a title page needs beside the details, fetched in the same call (TMDB allows up to 20). */
export const MOVIE_APPENDS = [
  'credits',
  'videos',
  'release_dates',
  'watch/providers',
  'recommendations',
  'external_ids',
] as const;
/** Shows: aggregate_credits (the whole run's cast, not only the latest season's) and content_ratings. */
export const TV_APPENDS = [
  'aggregate_credits',
  'videos',
  'content_ratings',
  'watch/providers',
  'recommendations',
  'external_ids',
] as const;

/**
 * `videos` come only in the request's language unless told otherwise: the viewer's, English (most
 * trailers) and videos without a language.
 */
export function videoLanguages(language: UiLanguage = 'en'): string {
  const code = language.split('-')[0] as string;
  return code === 'en' ? 'en,null' : `${code},en,null`;
}

/** A v4 read token is a JWT (three dot-separated parts); anything else is treated as a v3 key. */
const isReadToken = (key: string) => key.split('.').length === 3;

/**
 * TMDB v3 over HTTP: bearer read token (or v3 `api_key`), `language` the viewer's. The primary host gets
 * `timeoutMs` (3 s) and, on a transport failure, a 5xx or an answer that is not TMDB's (an ISP's block
 * page), the fallback host gets what the budget has left (at most `fallbackTimeoutMs`). All TMDB calls of
 * one API request share one budget (`withBudget`, 7 s; decision 082). TMDB's own 4xx verdicts (bad key,
 * not found) are final; a 429 is tried once more only when its Retry-After fits in the budget, else it
 * fails at once as `metadata_rate_limited` carrying the Retry-After. Errors become typed AppErrors; a 2xx
 * of the wrong shape is `metadata_bad_answer`. Every call is recorded in `stats`.
 */
export class TmdbClient implements TmdbApi, TmdbBudgeted {
  readonly kind = 'tmdb' as const;
  readonly stats: TmdbStats;
  private readonly fetch: typeof fetch;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly clock: () => number;
  private readonly budgetMs: number;
  private readonly budgets = new AsyncLocalStorage<Budget>();

  constructor(private readonly options: TmdbClientOptions) {
    this.fetch = options.fetch ?? globalThis.fetch;
    this.sleep = options.sleep ?? ((ms) => sleep(ms));
    this.clock = options.clock ?? (() => performance.now());
    this.budgetMs = options.budgetMs ?? DEFAULT_TMDB_BUDGET_MS;
    this.stats = options.stats ?? new TmdbStats();
  }

  /**
   * Runs `work` (everything one API request asks TMDB) under one budget: each call gets what the earlier
   * ones left, and a call with nothing left fails at once. Calls outside any budget get one each.
   */
  withBudget<T>(work: () => Promise<T>): Promise<T> {
    return this.budgets.run({ endsAt: this.clock() + this.budgetMs }, work);
  }

  searchMulti(query: string, language: UiLanguage = 'en') {
    return this.get('/search/multi', TmdbMultiPage, language, { query, include_adult: 'false', page: '1' });
  }
  /** One call per title: the details and, appended, everything its page shows (decision 083). */
  movie(id: number, language: UiLanguage = 'en') {
    return this.get(`/movie/${id}`, TmdbMovieDetails, language, {
      append_to_response: MOVIE_APPENDS.join(','),
      include_video_language: videoLanguages(language),
    });
  }
  tv(id: number, language: UiLanguage = 'en') {
    return this.get(`/tv/${id}`, TmdbTvDetails, language, {
      append_to_response: TV_APPENDS.join(','),
      include_video_language: videoLanguages(language),
    });
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

  releaseDates(id: number) {
    return this.get(`/movie/${id}/release_dates`, TmdbReleaseDates, 'en');
  }
  contentRatings(id: number) {
    return this.get(`/tv/${id}/content_ratings`, TmdbContentRatings, 'en');
  }

  private async get<T extends z.ZodType>(
    path: string,
    schema: T,
    language: UiLanguage,
    query: Record<string, string> = {},
  ): Promise<z.infer<T>> {
    query = { language: tmdbLanguage(language), ...query };
    const budget = this.budgets.getStore() ?? { endsAt: this.clock() + this.budgetMs };
    const started = this.clock();
    const notes: string[] = [];
    let host: 'primary' | 'fallback' | null = null;
    try {
      let body: unknown;
      ({ body, host } = await this.fromHosts(path, query, budget, notes));
      const parsed = schema.safeParse(body);
      if (!parsed.success) {
        notes.push(`${host}: the answer is not in TMDB's shape`);
        throw new AppError(502, 'metadata_bad_answer', 'Failed to load metadata', { cause: parsed.error });
      }
      this.stats.record({ at: Date.now(), durationMs: this.clock() - started, host });
      return parsed.data;
    } catch (error) {
      this.stats.record({
        at: Date.now(),
        durationMs: this.clock() - started,
        host,
        errorCode: error instanceof AppError ? error.code : 'internal_error',
        errorMessage: `${path}: ${notes.length ? notes.join('; ') : String(error)}`,
      });
      throw error;
    }
  }

  /** The primary host, then (unless TMDB gave its verdict or the budget is spent) the fallback. */
  private async fromHosts(
    path: string,
    query: Record<string, string>,
    budget: Budget,
    notes: string[],
  ): Promise<{ body: unknown; host: 'primary' | 'fallback' }> {
    let failure: HostFailure | undefined;
    if (this.left(budget) < MIN_ATTEMPT_MS) {
      notes.push("no time left in the request's budget");
      throw new AppError(503, 'metadata_unavailable', 'Failed to load metadata');
    }
    try {
      return { body: await this.fromHost('primary', path, query, budget, notes), host: 'primary' };
    } catch (error) {
      if (!(error instanceof HostFailure)) throw error;
      if (isTmdbVerdict(error)) throw toAppError(error);
      failure = error;
    }
    if (this.left(budget) < MIN_ATTEMPT_MS) {
      notes.push('no time left for the fallback host');
      throw toAppError(failure);
    }
    try {
      return { body: await this.fromHost('fallback', path, query, budget, notes), host: 'fallback' };
    } catch (error) {
      throw error instanceof HostFailure ? toAppError(error) : error;
    }
  }

  /** One host: one request, and one more after a 429 whose Retry-After fits in what the budget has left. */
  private async fromHost(
    which: 'primary' | 'fallback',
    path: string,
    query: Record<string, string>,
    budget: Budget,
    notes: string[],
  ): Promise<unknown> {
    const base = which === 'primary' ? this.options.baseUrl : this.options.fallbackUrl;
    const cap = which === 'primary' ? this.options.timeoutMs : this.options.fallbackTimeoutMs;
    const attempt = async () => {
      try {
        return await this.getFrom(base, Math.min(cap, this.left(budget)), path, query);
      } catch (error) {
        if (error instanceof HostFailure) notes.push(`${which}: ${error.message}`);
        throw error;
      }
    };
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof HostFailure) || error.status !== 429 || error.retryAfterMs === undefined)
        throw error;
      if (error.retryAfterMs + MIN_ATTEMPT_MS > this.left(budget)) throw error;
      await this.sleep(error.retryAfterMs);
      return attempt();
    }
  }

  private left(budget: Budget): number {
    return budget.endsAt - this.clock();
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
      response = await this.fetch(url, {
        headers,
        signal: AbortSignal.timeout(Math.max(1, Math.ceil(timeoutMs))),
      });
      text = await response.text();
    } catch (error) {
      const timedOut = (error as Error).name === 'TimeoutError' || (error as Error).name === 'AbortError';
      throw new HostFailure(
        'transport',
        0,
        undefined,
        timedOut ? `timed out after ${Math.round(timeoutMs)} ms` : String(error),
      );
    }
    // A 429's Retry-After counts whatever its body (a proxy's or CDN's plain-text page included).
    const wait = response.status === 429 ? retryAfterMs(response.headers.get('retry-after')) : undefined;
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      if (!response.ok)
        throw new HostFailure(
          'status',
          response.status,
          undefined,
          `HTTP ${response.status}` + (wait === undefined ? '' : `, Retry-After ${Math.ceil(wait / 1000)} s`),
          wait,
        );
      throw new HostFailure('garbage', response.status, undefined, 'the answer is not JSON');
    }
    if (!response.ok) {
      const code = (body as { status_code?: unknown } | null)?.status_code;
      const tmdbCode = typeof code === 'number' ? code : undefined;
      throw new HostFailure(
        'status',
        response.status,
        tmdbCode,
        `HTTP ${response.status}${tmdbCode === undefined ? '' : ` (TMDB code ${tmdbCode})`}` +
          (wait === undefined ? '' : `, Retry-After ${Math.ceil(wait / 1000)} s`),
        wait,
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
      return new AppError(503, 'metadata_rate_limited', 'Failed to load metadata', {
        cause: failure,
        retryAfterSeconds:
          failure.retryAfterMs === undefined
            ? DEFAULT_RETRY_AFTER_SECONDS
            : Math.max(1, Math.ceil(failure.retryAfterMs / 1000)),
      });
    case 400:
    case 422:
      return new AppError(400, 'bad_request', 'The metadata service refused the request', { cause: failure });
    default:
      return new AppError(503, 'metadata_unavailable', 'Failed to load metadata', { cause: failure });
  }
}
