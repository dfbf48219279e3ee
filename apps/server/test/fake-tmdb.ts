import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { foldForSearch } from '../src/modules/metadata/search-rules.ts';
import { AppError } from '../src/errors.ts';
import { Catalog, loadCatalogData } from '../src/modules/metadata/catalog/catalog.ts';
import { UI_LANGUAGES, type UiLanguage } from '@marquee/contract';
import type { TmdbApi, TmdbMultiPage } from '../src/modules/metadata/tmdb/tmdb.types.ts';

/**
 * A local stand-in for TMDB's v3 API (the app family's protocols), answering from the embedded catalog
 * in TMDB's own shapes: same paths, same auth, same error bodies, plus switches for the failures the
 * client must survive (slow host, 5xx, 429, garbage) and a log of every request it received.
 */

/** A v4 read token looks like a JWT (three dot-separated parts); the client sends it as a bearer token. */
export const FAKE_TMDB_READ_TOKEN =
  'eyJhbGciOiJIUzI1NiJ9.eyJhdWQiOiJtYXJxdWVlLXRlc3QiLCJzY29wZXMiOlsiYXBpX3JlYWQiXX0.ZmFrZS1zaWduYXR1cmU';
/** A classic v3 key (32 hex characters), sent as `api_key`. */
export const FAKE_TMDB_V3_KEY = '0123456789abcdef0123456789abcdef';

/** What the fake image host serves for any existing file: the start of a JPEG, enough to tell it apart. */
export const FAKE_IMAGE_BYTES = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);

export interface RecordedRequest {
  method: string;
  /** Path below the API root, e.g. `/movie/603`. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
}

/** What to do instead of (or before) answering normally. Fields combine: a delay, then the rest. */
export interface Fault {
  /** Wait this long before answering; longer than the client's timeout makes the client give up. */
  delayMs?: number;
  /** Answer with this HTTP status and TMDB's error body for it (429 → code 25, 500 → 11, 503 → 46 …). */
  status?: number;
  /**
   * Answer with a body that is not JSON (a string to choose the body, e.g. an ISP's HTML block page);
   * with `status` too, that status (200 otherwise).
   */
  malformed?: boolean | string;
  /** Answer 200 with well-formed JSON of the wrong shape (a value to choose it). */
  wrongShape?: boolean | object;
  /** Close the connection without any answer. */
  hangUp?: boolean;
}

export interface FaultScope {
  /** Only requests whose path (below the API root) starts with this string or matches this pattern. */
  path?: string | RegExp;
  /** Only this many matching requests; afterwards the fake answers normally again. */
  times?: number;
}

export interface FakeTmdbOptions {
  /** Where answers come from (default: the embedded catalog with search extras, see withSearchExtras). */
  source?: TmdbApi;
  /** Clock of the default catalog ("now playing" and release rules follow it). */
  now?: () => Date;
  /** Real TMDB drops adult results when include_adult=false; set to pretend it let some through. */
  leakAdultResults?: boolean;
  /** What the image host serves for an existing file (default: the start of a JPEG, FAKE_IMAGE_BYTES). */
  image?: (file: string) => { type: string; body: Buffer };
}

const TMDB_ERRORS: Record<number, { status_code: number; status_message: string }> = {
  400: { status_code: 47, status_message: 'The input is not valid.' },
  401: { status_code: 7, status_message: 'Invalid API key: You must be granted a valid key.' },
  404: { status_code: 34, status_message: 'The resource you requested could not be found.' },
  422: { status_code: 5, status_message: 'Invalid parameters: Your request parameters are incorrect.' },
  429: { status_code: 25, status_message: 'Your request count (41) is over the allowed limit of 40.' },
  500: { status_code: 11, status_message: 'Internal error: Something went wrong, contact TMDb.' },
  503: { status_code: 46, status_message: 'The API is undergoing maintenance. Try again later.' },
};
const INVALID_PAGE = {
  status_code: 22,
  status_message: 'Invalid page: Pages start at 1 and max at 500. They are expected to be an integer.',
};
const TOO_MANY_APPENDS = {
  status_code: 27,
  status_message: 'Too many append to response objects: The maximum number of remote calls is 20.',
};

class TmdbHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: { status_code: number; status_message: string } = TMDB_ERRORS[status] ?? TMDB_ERRORS[500]!,
  ) {
    super(body.status_message);
  }
}

/** Search hits TMDB returns that the catalog has none of: people, adult titles, titles without a poster. */
export interface SearchExtra {
  /** Folded words; the extra is returned when the folded query contains one of them. */
  matches: string[];
  item: Record<string, unknown> & { id: number; media_type: string };
}

export const DEFAULT_SEARCH_EXTRAS: SearchExtra[] = [
  {
    matches: ['matrix', 'keanu'],
    item: {
      id: 6384,
      media_type: 'person',
      adult: false,
      name: 'Keanu Reeves',
      original_name: 'Keanu Reeves',
      gender: 2,
      known_for_department: 'Acting',
      popularity: 48.3,
      profile_path: '/4D0PpNI0kmP58hgrwGC3wCjxhnm.jpg',
      known_for: [{ id: 603, media_type: 'movie', title: 'The Matrix', adult: false }],
    },
  },
  {
    matches: ['matrix'],
    item: {
      id: 9_000_001,
      media_type: 'movie',
      adult: true,
      title: 'Matrix Nights',
      original_title: 'Matrix Nights',
      original_language: 'en',
      overview: '',
      poster_path: '/adult-poster.jpg',
      backdrop_path: null,
      genre_ids: [],
      popularity: 3.1,
      release_date: '2004-01-01',
      video: false,
      vote_average: 0,
      vote_count: 0,
    },
  },
  {
    matches: ['matrix'],
    item: {
      id: 9_000_002,
      media_type: 'movie',
      adult: false,
      title: 'The Matrix: Making Of (no poster)',
      original_title: 'The Matrix: Making Of (no poster)',
      original_language: 'en',
      overview: '',
      poster_path: null,
      backdrop_path: null,
      genre_ids: [99],
      popularity: 2.2,
      release_date: '1999-12-01',
      video: true,
      vote_average: 6.5,
      vote_count: 12,
    },
  },
  {
    matches: ['nolan', 'christopher'],
    item: {
      id: 525,
      media_type: 'person',
      adult: false,
      name: 'Christopher Nolan',
      original_name: 'Christopher Nolan',
      gender: 2,
      known_for_department: 'Directing',
      popularity: 20.1,
      profile_path: '/xuAIuYSmsUzKlUMBFGVZaWsY3DZ.jpg',
      known_for: [],
    },
  },
];

/**
 * Wraps a source so that search/multi also returns the extras whose words the query contains, ahead of
 * the source's own hits (as TMDB mixes people and titles by popularity). Everything else is unchanged.
 */
export function withSearchExtras(source: TmdbApi, extras: SearchExtra[] = DEFAULT_SEARCH_EXTRAS): TmdbApi {
  return {
    kind: source.kind,
    async searchMulti(query, language) {
      const page = await source.searchMulti(query, language);
      const folded = foldForSearch(query);
      const hits = folded
        ? extras.filter((e) => e.matches.some((m) => folded.includes(m))).map((e) => e.item)
        : [];
      const results = [...(hits as TmdbMultiPage['results']), ...page.results];
      return { ...page, results, total_results: page.total_results + hits.length };
    },
    movie: (id, language) => source.movie(id, language),
    tv: (id, language) => source.tv(id, language),
    season: (showId, seasonNumber, language) => source.season(showId, seasonNumber, language),
    find: (imdbId, language) => source.find(imdbId, language),
    movieList: (list, language) => source.movieList(list, language),
    tvList: (list, language) => source.tvList(list, language),
    genres: (kind, language) => source.genres(kind, language),
    discoverMovies: (genreId, page, language) => source.discoverMovies(genreId, page, language),
    discoverTv: (genreId, page, language) => source.discoverTv(genreId, page, language),
    releaseDates: (id) => source.releaseDates(id),
    contentRatings: (id) => source.contentRatings(id),
  };
}

let defaultCatalogData: ReturnType<typeof loadCatalogData> | undefined;
/** The embedded catalog, parsed once per test file. */
export function catalogData(): ReturnType<typeof loadCatalogData> {
  defaultCatalogData ??= loadCatalogData();
  return defaultCatalogData;
}

export class FakeTmdb {
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[] = [];
  private faults: { fault: Fault; scope: FaultScope; left: number }[] = [];
  private readonly pending = new Set<NodeJS.Timeout>();
  private readonly server = createServer((req, res) => void this.handle(req, res));
  private readonly source: TmdbApi;
  private port = 0;

  private constructor(private readonly options: FakeTmdbOptions) {
    this.source = options.source ?? withSearchExtras(new Catalog(catalogData(), options.now));
  }

  static async start(options: FakeTmdbOptions = {}): Promise<FakeTmdb> {
    const fake = new FakeTmdb(options);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    fake.port = (fake.server.address() as AddressInfo).port;
    return fake;
  }

  /** Image host base as configured in TMDB_IMAGE_URL (TMDB's `https://image.tmdb.org/t/p`). */
  get imageUrl(): string {
    return `http://127.0.0.1:${this.port}/t/p`;
  }

  /** Base URL as the client is configured with it (TMDB's `https://api.themoviedb.org/3`). */
  get url(): string {
    return `http://127.0.0.1:${this.port}/3`;
  }

  /** Requests whose path starts with `prefix` (all when omitted). */
  requestsTo(prefix = ''): RecordedRequest[] {
    return this.requests.filter((r) => r.path.startsWith(prefix));
  }

  /** Applies `fault` to matching requests from now on (or `times` of them). Later faults add up. */
  inject(fault: Fault, scope: FaultScope = {}): void {
    this.faults.push({ fault, scope, left: scope.times ?? Number.POSITIVE_INFINITY });
  }

  /** Forgets the faults and the request log. */
  reset(): void {
    this.faults = [];
    this.requests.length = 0;
  }

  async close(): Promise<void> {
    for (const timer of this.pending) clearTimeout(timer);
    this.pending.clear();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private takeFault(path: string): Fault | undefined {
    const rule = this.faults.find(
      ({ scope, left }) =>
        left > 0 &&
        (scope.path === undefined ||
          (typeof scope.path === 'string' ? path.startsWith(scope.path) : scope.path.test(path))),
    );
    if (!rule) return undefined;
    rule.left -= 1;
    return rule.fault;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake.tmdb');
    const path = url.pathname.startsWith('/3/') ? url.pathname.slice(2) : url.pathname;
    const query = Object.fromEntries(url.searchParams);
    this.requests.push({ method: req.method ?? 'GET', path, query, headers: req.headers });

    const fault = this.takeFault(path);
    if (fault?.delayMs) {
      const stillWanted = await new Promise<boolean>((resolve) => {
        const timer = setTimeout(() => {
          this.pending.delete(timer);
          resolve(true);
        }, fault.delayMs);
        this.pending.add(timer);
        res.on('close', () => {
          clearTimeout(timer);
          this.pending.delete(timer);
          resolve(false);
        });
      });
      if (!stillWanted || res.destroyed) return;
    }
    if (fault?.hangUp) {
      req.socket.destroy();
      return;
    }
    if (fault?.malformed) {
      const isHtml = typeof fault.malformed === 'string' && fault.malformed.trimStart().startsWith('<');
      const body =
        typeof fault.malformed === 'string'
          ? fault.malformed
          : '{"page":1,"results":[{"id":603,"title":"The Ma';
      res.writeHead(fault.status ?? 200, {
        'content-type': isHtml ? 'text/html; charset=utf-8' : 'application/json;charset=utf-8',
      });
      res.end(body);
      return;
    }
    if (fault?.status) return this.send(res, fault.status, TMDB_ERRORS[fault.status] ?? TMDB_ERRORS[500]);
    if (fault?.wrongShape) {
      const body =
        typeof fault.wrongShape === 'object'
          ? fault.wrongShape
          : { id: 'six hundred three', results: 'none', page: '1' };
      return this.send(res, 200, body);
    }

    const image = /^\/t\/p\/(w\d+|h\d+|original)\/+([A-Za-z0-9_-]+\.(?:jpg|png|svg))$/.exec(url.pathname);
    if (image) return this.sendImage(res, image[2] as string);

    try {
      if (!url.pathname.startsWith('/3/')) throw new TmdbHttpError(404);
      if (!this.isAuthorised(req, url)) throw new TmdbHttpError(401);
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new TmdbHttpError(404);
      this.send(res, 200, await this.route(path, url.searchParams));
    } catch (error) {
      if (error instanceof TmdbHttpError) return this.send(res, error.status, error.body);
      if (error instanceof AppError && error.status === 404) return this.send(res, 404, TMDB_ERRORS[404]);
      this.send(res, 500, TMDB_ERRORS[500]);
    }
  }

  /** Bearer read token, or the v3 key (or, as smov sends it, the read token) in `api_key`. */
  private isAuthorised(req: IncomingMessage, url: URL): boolean {
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (bearer === FAKE_TMDB_READ_TOKEN) return true;
    const apiKey = url.searchParams.get('api_key');
    return apiKey === FAKE_TMDB_V3_KEY || apiKey === FAKE_TMDB_READ_TOKEN;
  }

  /** The image host (image.tmdb.org/t/p/{size}/{file}): no key needed; files named `missing-*` do not exist. */
  private sendImage(res: ServerResponse, file: string): void {
    if (file.startsWith('missing-')) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html><body>Not Found</body></html>');
      return;
    }
    const chosen = this.options.image?.(file);
    const type =
      chosen?.type ??
      (file.endsWith('.png') ? 'image/png' : file.endsWith('.svg') ? 'image/svg+xml' : 'image/jpeg');
    res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' });
    res.end(chosen?.body ?? FAKE_IMAGE_BYTES);
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, {
      'content-type': 'application/json;charset=utf-8',
      'access-control-allow-origin': '*',
      'cache-control': 'public, max-age=300',
    });
    res.end(JSON.stringify(body));
  }

  private async route(path: string, params: URLSearchParams): Promise<unknown> {
    const language = uiLanguageOf(params.get('language'));
    const answer = await this.answer(path, params, language);
    return language === 'en' ? answer : translated(answer, path, language);
  }

  private async answer(path: string, params: URLSearchParams, language: UiLanguage): Promise<unknown> {
    const page = pageOf(params);
    const source = this.source;
    // Every call in the asked language (titles and genre names from the catalog's translations).
    const api = new Proxy(source, {
      get: (target, property) => {
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function'
          ? (...args: unknown[]) => (value as (...a: unknown[]) => unknown).apply(target, [...args, language])
          : value;
      },
    });
    let m: RegExpExecArray | null;

    if (path === '/configuration') {
      return {
        images: {
          base_url: 'http://image.tmdb.org/t/p/',
          secure_base_url: 'https://image.tmdb.org/t/p/',
          poster_sizes: ['w92', 'w154', 'w185', 'w342', 'w500', 'w780', 'original'],
          backdrop_sizes: ['w300', 'w780', 'w1280', 'original'],
        },
      };
    }
    if (path === '/search/multi') {
      const text = params.get('query') ?? '';
      if (!text.trim()) return { page, results: [], total_pages: 1, total_results: 0 };
      const answer = await api.searchMulti(text);
      const includeAdult = params.get('include_adult') === 'true' || this.options.leakAdultResults === true;
      const results = includeAdult ? answer.results : answer.results.filter((r) => r.adult !== true);
      return { ...answer, page, results: page === 1 ? results : [], total_results: results.length };
    }
    if ((m = /^\/movie\/(now_playing|top_rated|popular)$/.exec(path))) {
      const list = await api.movieList(m[1] as 'now_playing' | 'top_rated' | 'popular');
      const paged = { ...list, page, results: page === 1 ? list.results : [] };
      if (m[1] !== 'now_playing') return paged;
      const today = (this.options.now ?? (() => new Date()))();
      const day = (offset: number) =>
        new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
      return { dates: { maximum: day(7), minimum: day(-45) }, ...paged };
    }
    if ((m = /^\/tv\/(top_rated|popular)$/.exec(path))) {
      const list = await api.tvList(m[1] as 'top_rated' | 'popular');
      return { ...list, page, results: page === 1 ? list.results : [] };
    }
    if ((m = /^\/movie\/(\d+)$/.exec(path))) return appendOnly(await api.movie(Number(m[1])), params);
    if ((m = /^\/tv\/(\d+)$/.exec(path))) return appendOnly(await api.tv(Number(m[1])), params);
    if ((m = /^\/movie\/(\d+)\/release_dates$/.exec(path)))
      return { id: Number(m[1]), ...(await source.releaseDates(Number(m[1]))) };
    if ((m = /^\/tv\/(\d+)\/content_ratings$/.exec(path)))
      return { id: Number(m[1]), ...(await source.contentRatings(Number(m[1]))) };
    if ((m = /^\/tv\/(\d+)\/season\/(\d+)$/.exec(path))) {
      const season = await api.season(Number(m[1]), Number(m[2]));
      return {
        _id: `${m[1]}s${m[2]}`.padStart(24, '0'),
        poster_path: null,
        overview: '',
        vote_average: 0,
        ...season,
      };
    }
    if ((m = /^\/find\/([^/]+)$/.exec(path))) {
      const source = params.get('external_source');
      if (!source) throw new TmdbHttpError(422);
      const empty = {
        movie_results: [],
        person_results: [],
        tv_results: [],
        tv_episode_results: [],
        tv_season_results: [],
      };
      if (source !== 'imdb_id') return empty;
      const found = await api.find(decodeURIComponent(m[1] as string));
      return {
        ...empty,
        movie_results: found.movie_results.map((r) => ({ ...r, media_type: 'movie' })),
        tv_results: found.tv_results.map((r) => ({ ...r, media_type: 'tv' })),
      };
    }
    if ((m = /^\/genre\/(movie|tv)\/list$/.exec(path))) return api.genres(m[1] as 'movie' | 'tv');
    if ((m = /^\/discover\/(movie|tv)$/.exec(path))) {
      const genre = Number.parseInt((params.get('with_genres') ?? '').split(/[,|]/)[0] ?? '', 10);
      if (!Number.isFinite(genre)) {
        const popular = m[1] === 'movie' ? await api.movieList('popular') : await api.tvList('popular');
        return { ...popular, page, results: page === 1 ? popular.results : [] };
      }
      return m[1] === 'movie' ? api.discoverMovies(genre, page) : api.discoverTv(genre, page);
    }
    throw new TmdbHttpError(404);
  }
}

/** The UI language a TMDB `language` parameter names (`fr`, `fr-FR`, `zh-CN`, `pt-BR`); English otherwise. */
function uiLanguageOf(tag: string | null): UiLanguage {
  if (!tag) return 'en';
  const exact = UI_LANGUAGES.find((l) => l.toLowerCase() === tag.toLowerCase());
  return exact ?? UI_LANGUAGES.find((l) => l === tag.split('-')[0]) ?? 'en';
}

/**
 * Overviews the fake has in other languages, by kind and id. As TMDB does, any other overview in a
 * language other than English is an empty string (no translation), and a genre without a name in the
 * language is `null` (FAKE_UNNAMED_GENRE in French).
 */
export const FAKE_OVERVIEWS: Record<'movie' | 'tv', Record<number, Partial<Record<UiLanguage, string>>>> = {
  movie: {
    278: {
      fr: "Un banquier condamné à perpétuité pour un meurtre qu'il dit ne pas avoir commis passe vingt ans dans une prison brutale, s'y fait un ami et garde l'espoir.",
      ja: '無実を訴えながら終身刑に服す銀行員が、過酷な刑務所で20年を過ごし、友情と希望を失わずに生きる。',
    },
  },
  tv: {},
};
/** A genre the fake's French genre list names `null`, as TMDB does for some genres in some languages. */
export const FAKE_UNNAMED_GENRE = { kind: 'movie' as const, id: 10770, language: 'fr' as const };

function translated(answer: unknown, path: string, language: UiLanguage): unknown {
  const kindOf = (item: Record<string, unknown>): 'movie' | 'tv' =>
    item.media_type === 'tv' || ('name' in item && 'first_air_date' in item) ? 'tv' : 'movie';
  const walk = (value: unknown, kind?: 'movie' | 'tv'): unknown => {
    if (Array.isArray(value)) return value.map((v) => walk(v, kind));
    if (!value || typeof value !== 'object') return value;
    const item = { ...(value as Record<string, unknown>) };
    if (typeof item.id === 'number' && typeof item.overview === 'string') {
      const k = kind ?? kindOf(item);
      item.overview = FAKE_OVERVIEWS[k][item.id]?.[language] ?? '';
    }
    for (const key of ['results', 'movie_results', 'tv_results', 'episodes']) {
      if (key in item)
        item[key] = walk(
          item[key],
          key === 'episodes'
            ? undefined
            : key.startsWith('tv')
              ? 'tv'
              : key.startsWith('movie')
                ? 'movie'
                : kind,
        );
    }
    if (
      Array.isArray(item.genres) &&
      path.startsWith('/genre/') &&
      language === FAKE_UNNAMED_GENRE.language
    ) {
      item.genres = (item.genres as { id: number; name: string }[]).map((g) =>
        path === `/genre/${FAKE_UNNAMED_GENRE.kind}/list` && g.id === FAKE_UNNAMED_GENRE.id
          ? { ...g, name: null }
          : g,
      );
    }
    return item;
  };
  const kind = /^\/(movie|tv)\//.exec(path)?.[1] as 'movie' | 'tv' | undefined;
  return walk(answer, kind);
}

/** TMDB's page rule: absent → 1; otherwise an integer 1–500, else 400 with code 22. */
function pageOf(params: URLSearchParams): number {
  const raw = params.get('page');
  if (raw === null) return 1;
  const page = Number(raw);
  if (!/^\d+$/.test(raw) || page < 1 || page > 500) throw new TmdbHttpError(400, INVALID_PAGE);
  return page;
}

/** What TMDB answers for an appended part the source has nothing for (the embedded catalog has no credits). */
const EMPTY_APPENDS: Record<string, unknown> = {
  external_ids: { imdb_id: null },
  credits: { cast: [], crew: [] },
  aggregate_credits: { cast: [], crew: [] },
  videos: { results: [] },
  release_dates: { results: [] },
  content_ratings: { results: [] },
  'watch/providers': { results: {} },
  recommendations: { page: 1, results: [], total_pages: 1, total_results: 0 },
};

/**
 * Appended parts (`external_ids`, `credits`, `recommendations` …) are part of a details answer only when
 * asked for with append_to_response (at most 20), and then always (empty when there is nothing).
 */
function appendOnly(details: Record<string, unknown>, params: URLSearchParams): Record<string, unknown> {
  const appended = (params.get('append_to_response') ?? '').split(',').filter(Boolean);
  if (appended.length > 20) throw new TmdbHttpError(400, TOO_MANY_APPENDS);
  const answer = { ...details };
  for (const key of Object.keys(EMPTY_APPENDS)) {
    if (!appended.includes(key)) delete answer[key];
    else if (answer[key] === undefined) answer[key] = EMPTY_APPENDS[key];
  }
  return answer;
}

/** A primary and a fallback host, as TMDB's two hosts; both answer from the same catalog. */
export async function startFakeTmdbPair(options: FakeTmdbOptions = {}): Promise<{
  primary: FakeTmdb;
  fallback: FakeTmdb;
  close(): Promise<void>;
}> {
  const [primary, fallback] = await Promise.all([FakeTmdb.start(options), FakeTmdb.start(options)]);
  return {
    primary,
    fallback,
    close: async () => void (await Promise.all([primary.close(), fallback.close()])),
  };
}
