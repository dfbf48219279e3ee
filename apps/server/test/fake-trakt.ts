import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local Trakt (API v2) for the tests of the two-way Trakt sync, over real HTTP on 127.0.0.1, answering
 * from a small catalog in Trakt's own shapes. What is faithful:
 * - every call needs `trakt-api-key: <client id>` (403 without) and `trakt-api-version: 2`; user routes
 *   need `Authorization: Bearer <access token>` (401 `invalid_token` with a WWW-Authenticate header);
 * - the device flow with its status codes (400 pending, 404 unknown code, 409 already used, 410 expired,
 *   418 denied, 429 polled sooner than `interval`), refresh (a refresh token works once; the old access
 *   token dies with it) and revoke (the access token and its refresh token die together);
 * - history is not deduplicated: the same play sent twice is held twice; plays are sorted by watched_at
 *   descending and paginated with the X-Pagination-* headers (page 1, limit 10 by default);
 * - the watchlist's account limit (420 with X-Upgrade-URL, X-VIP-User, X-Account-Limit, nothing added);
 * - scrobble: `stop` at 80 % or more records a play (action `scrobble`), below 80 it is a pause; the same
 *   item scrobbled again within the conflict window answers 409 with watched_at and expires_at;
 * - last_activities moves only on a change, whether made through the API or with the controls;
 * - the authenticated write limit (AUTHED_API_POST_LIMIT) when `postRateLimit` is set: 429 with
 *   Retry-After (whole seconds) and an X-Ratelimit JSON header.
 * Where it differs: it is stricter than Trakt about headers (a missing or other `trakt-api-version`
 * answers 400, and the OAuth routes need the API key header too); items are found only by ids of the
 * catalog (no title/year lookup); seasons and episodes on the watchlist are not modelled (they come back
 * in not_found); a user's last_activities times strictly increase (one millisecond apart at least), so
 * two changes in the same millisecond are still told apart. Times come from the `now` option.
 */

export interface FakeTraktMovie {
  title: string;
  year: number;
  runtime?: number;
  ids: { trakt: number; slug: string; imdb: string; tmdb: number };
}

export interface FakeTraktEpisode {
  season: number;
  number: number;
  title: string;
  ids: { trakt: number; tvdb: number; imdb: string; tmdb: number };
}

export interface FakeTraktShow {
  title: string;
  year: number;
  ids: { trakt: number; slug: string; tvdb: number; imdb: string; tmdb: number };
  /** Every episode, by season then number. */
  episodes: FakeTraktEpisode[];
}

export interface FakeTraktCatalog {
  movies: FakeTraktMovie[];
  shows: FakeTraktShow[];
}

/** A show whose episodes get invented but consistent Trakt, TVDB and IMDb ids (TMDB ids from `firstTmdb` on). */
function catalogShow(
  base: Omit<FakeTraktShow, 'episodes'>,
  seasons: { number: number; firstTmdb: number; titles: string[] }[],
): FakeTraktShow {
  const episodes = seasons.flatMap((season) =>
    season.titles.map((title, index) => ({
      season: season.number,
      number: index + 1,
      title,
      ids: {
        trakt: base.ids.trakt * 1000 + season.number * 100 + index + 1,
        tvdb: base.ids.tvdb * 1000 + season.number * 100 + index + 1,
        imdb: `tt${90_000_000 + season.firstTmdb + index}`,
        tmdb: season.firstTmdb + index,
      },
    })),
  );
  return { ...base, episodes };
}

const movie = (title: string, year: number, tmdb: number, imdb: string, trakt: number, runtime: number) => ({
  title,
  year,
  runtime,
  ids: { trakt, slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-${year}`, imdb, tmdb },
});

export const DEFAULT_TRAKT_CATALOG: FakeTraktCatalog = {
  movies: [
    movie('The Matrix', 1999, 603, 'tt0133093', 481, 136),
    movie('Fight Club', 1999, 550, 'tt0137523', 432, 139),
    movie('Inception', 2010, 27205, 'tt1375666', 16662, 148),
    movie('Alien', 1979, 348, 'tt0078748', 295, 117),
    movie('Dune', 2021, 438631, 'tt1160419', 287071, 155),
  ],
  shows: [
    catalogShow(
      {
        title: 'Breaking Bad',
        year: 2008,
        ids: { trakt: 1388, slug: 'breaking-bad', tvdb: 81189, imdb: 'tt0903747', tmdb: 1396 },
      },
      [
        {
          number: 1,
          firstTmdb: 62085,
          titles: [
            'Pilot',
            "Cat's in the Bag...",
            "...And the Bag's in the River",
            'Cancer Man',
            'Gray Matter',
            "Crazy Handful of Nothin'",
            'A No-Rough-Stuff-Type Deal',
          ],
        },
        {
          number: 2,
          firstTmdb: 62092,
          titles: [
            'Seven Thirty-Seven',
            'Grilled',
            'Bit by a Dead Bee',
            'Down',
            'Breakage',
            'Peekaboo',
            'Negro y Azul',
            'Better Call Saul',
            '4 Days Out',
            'Over',
            'Mandala',
            'Phoenix',
            'ABQ',
          ],
        },
      ],
    ),
    catalogShow(
      {
        title: 'Stranger Things',
        year: 2016,
        ids: { trakt: 104439, slug: 'stranger-things', tvdb: 305288, imdb: 'tt4574334', tmdb: 66732 },
      },
      [
        {
          number: 1,
          firstTmdb: 1198665,
          titles: [
            'Chapter One: The Vanishing of Will Byers',
            'Chapter Two: The Weirdo on Maple Street',
            'Chapter Three: Holly, Jolly',
            'Chapter Four: The Body',
            'Chapter Five: The Flea and the Acrobat',
            'Chapter Six: The Monster',
            'Chapter Seven: The Bathtub',
            'Chapter Eight: The Upside Down',
          ],
        },
      ],
    ),
  ],
};

export interface FakeTraktOptions {
  clientId?: string;
  clientSecret?: string;
  catalog?: FakeTraktCatalog;
  /** Items a watchlist may hold (100: a non-VIP account). */
  watchlistLimit?: number;
  accessTokenTtlSeconds?: number;
  /** The clock (epoch milliseconds, or a Date): token and device code expiry, polling, times recorded. */
  now?: () => number | Date;
  /** Authenticated writes (POST/PUT/DELETE) allowed per window per user; beyond: 429. Off when absent. */
  postRateLimit?: { requests: number; windowMs: number };
  /** How long a scrobbled item answers 409 to another scrobble (Trakt: an hour, or the runtime). */
  scrobbleConflictMs?: number;
  /** The port to listen on (default: any free one). */
  port?: number;
}

export type FakeTraktPlayAction = 'scrobble' | 'checkin' | 'watch';

/** A play as the controls show it: `tmdbId` is the movie's or the show's. */
export interface FakeTraktPlay {
  id: number;
  watchedAt: string;
  action: FakeTraktPlayAction;
  type: 'movie' | 'episode';
  tmdbId: number;
  season?: number;
  number?: number;
}

export interface FakeTraktListed {
  type: 'movie' | 'show';
  tmdbId: number;
  listedAt: string;
}

/** A rating the user holds (movies and shows; ratings of seasons and episodes are not modelled). */
export interface FakeTraktRating {
  type: 'movie' | 'show';
  tmdbId: number;
  rating: number;
  ratedAt: string;
}

/** A scrobble call received; `answered` is the HTTP status it got. */
export interface FakeTraktScrobble {
  action: 'start' | 'pause' | 'stop';
  tmdbId: number;
  season?: number;
  number?: number;
  progress: number;
  answered: number;
}

export interface FakeTraktAnswer {
  status: number;
  headers?: Record<string, string>;
  /** Sent as JSON; a string is sent as it is (HTML when it starts with `<`). */
  body?: unknown;
}

export interface FakeTraktRequest {
  method: string;
  /** Without the query. */
  path: string;
  status: number;
  /** The owner of the bearer token (or of the token issued), when known. */
  user?: string;
}

export interface FakeTraktPlayInput {
  type: 'movie' | 'episode';
  /** The movie's, or the episode's show's. */
  tmdbId: number;
  season?: number;
  number?: number;
  /** Default: now. */
  watchedAt?: string | number | Date;
  /** Default: `watch`. */
  action?: FakeTraktPlayAction;
}

export interface FakeTrakt {
  /** `http://127.0.0.1:PORT`, without a trailing slash (Trakt's `https://api.trakt.tv`). */
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Every request answered, in order. */
  readonly requests: FakeTraktRequest[];
  close(): Promise<void>;
  /** The viewer entered the code at trakt.tv and allowed the app (the user is created when new). */
  approve(userCode: string, username: string): void;
  deny(userCode: string): void;
  expire(userCode: string): void;
  /** Every current access token of the user answers 401 from now on; their refresh tokens still work. */
  expireAccessTokens(username: string): void;
  /** Every access and refresh token of the user stops working. */
  revokeAll(username: string): void;
  /** Access tokens of the user still valid. */
  activeTokens(username: string): number;
  /** The user's plays, in the order they were recorded. */
  history(username: string): FakeTraktPlay[];
  /** The user's watchlist, by rank. */
  watchlist(username: string): FakeTraktListed[];
  scrobbles(username: string): FakeTraktScrobble[];
  /** The user's ratings of movies and shows, in the order they were given. */
  ratings(username: string): FakeTraktRating[];
  /** Rated at trakt.tv (a rating held is replaced). */
  rate(
    username: string,
    item: { type: 'movie' | 'show'; tmdbId: number; rating: number; ratedAt?: string },
  ): void;
  /** A rating removed at trakt.tv; false when there was none. */
  unrate(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): boolean;
  /** A play added at trakt.tv; answers its history id. */
  addPlay(username: string, play: FakeTraktPlayInput): number;
  /** A play removed at trakt.tv; false when there was none with that id. */
  removePlay(username: string, historyId: number): boolean;
  addToWatchlist(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): void;
  removeFromWatchlist(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): void;
  /** The next `count` requests matching `match` get `answer` instead (before any check). */
  failNext(count: number, answer: FakeTraktAnswer, match?: { method?: string; pathPrefix?: string }): void;
  /** While down, every connection is dropped without an answer. */
  setDown(down: boolean): void;
}

export async function startFakeTrakt(options: FakeTraktOptions = {}): Promise<FakeTrakt> {
  const fake = new FakeTraktServer(options);
  await fake.listen();
  return fake;
}

/** A movie, or an episode with its show (catalog objects, compared by identity). */
interface Item {
  movie?: FakeTraktMovie;
  show?: FakeTraktShow;
  episode?: FakeTraktEpisode;
}

interface Play extends Item {
  id: number;
  watchedAt: number;
  action: FakeTraktPlayAction;
}

interface Target extends Item {
  watchedAt?: number;
}

interface Rated {
  movie?: FakeTraktMovie;
  show?: FakeTraktShow;
  rating: number;
  ratedAt: number;
}

interface Listing {
  id: number;
  listedAt: number;
  movie?: FakeTraktMovie;
  show?: FakeTraktShow;
}

interface Token {
  access: string;
  refresh: string;
  username: string;
  createdAt: number;
  accessOk: boolean;
  refreshOk: boolean;
}

interface DeviceCode {
  deviceCode: string;
  userCode: string;
  expiresAt: number;
  state: 'pending' | 'approved' | 'denied' | 'expired' | 'used';
  username?: string;
  lastPollAt?: number;
}

interface User {
  username: string;
  createdAt: number;
  plays: Play[];
  watchlist: Listing[];
  ratings: Rated[];
  scrobbles: FakeTraktScrobble[];
  activities: Record<string, Record<string, number>>;
  all: number;
  /** Time of the last change to last_activities. */
  lastChange: number;
  /** Item key → when it was last scrobbled (stop at 80 % or more). */
  lastScrobbled: Map<string, number>;
  /** Times of the authenticated writes in the current rate-limit window. */
  writes: number[];
}

interface Call {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  user?: User;
  /** Whom the request log names. */
  username?: string;
}

interface Route {
  auth: boolean;
  run: () => FakeTraktAnswer;
}

interface NotFound {
  movies: unknown[];
  shows: unknown[];
  seasons: unknown[];
  episodes: unknown[];
}

const DEVICE_EXPIRES_S = 600;
const DEVICE_INTERVAL_S = 5;
const SCROBBLE_THRESHOLD = 80;
const SHARING = { twitter: false, mastodon: false, tumblr: false };

/** The fields of /sync/last_activities, by group (besides `all`). */
const ACTIVITY_FIELDS: Record<string, string[]> = {
  movies: [
    'watched_at',
    'collected_at',
    'rated_at',
    'watchlisted_at',
    'recommendations_at',
    'commented_at',
    'paused_at',
    'hidden_at',
  ],
  episodes: ['watched_at', 'collected_at', 'rated_at', 'watchlisted_at', 'commented_at', 'paused_at'],
  shows: ['rated_at', 'watchlisted_at', 'recommendations_at', 'commented_at', 'hidden_at'],
  seasons: ['rated_at', 'watchlisted_at', 'commented_at', 'hidden_at'],
  comments: ['liked_at', 'blocked_at'],
  lists: ['liked_at', 'updated_at', 'commented_at'],
  watchlist: ['updated_at'],
  favorites: ['updated_at'],
  recommendations: ['updated_at'],
  collaborations: ['updated_at'],
  account: ['settings_at', 'followed_at', 'following_at', 'pending_at', 'requested_at'],
  saved_filters: ['updated_at'],
  notes: ['updated_at'],
};

const INVALID_TOKEN = 'The access token is invalid';
const UNAUTHORIZED: FakeTraktAnswer = {
  status: 401,
  headers: {
    'www-authenticate': `Bearer realm="Doorkeeper", error="invalid_token", error_description="${INVALID_TOKEN}"`,
  },
  body: { error: 'invalid_token', error_description: INVALID_TOKEN },
};
const INVALID_CLIENT: FakeTraktAnswer = {
  status: 401,
  body: {
    error: 'invalid_client',
    error_description:
      'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
  },
};
const INVALID_GRANT: FakeTraktAnswer = {
  status: 401,
  body: {
    error: 'invalid_grant',
    error_description:
      'The provided authorization grant is invalid, expired, revoked, does not match the redirection URI used in the authorization request, or was issued to another client.',
  },
};

const iso = (ms: number) => new Date(ms).toISOString();

const asRecord = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Epoch milliseconds of an ISO 8601 string, or undefined. */
function parseTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

const timeOf = (sent: unknown) => parseTime(asRecord(sent).watched_at);

/** Whether the `ids` of a sent item name a known item: any id of the same name and type matches. */
function idsMatch(known: Record<string, string | number>, sent: unknown): boolean {
  const ids = asRecord(asRecord(sent).ids);
  return Object.entries(ids).some(([name, value]) => value !== null && known[name] === value);
}

const sameItem = (a: Item, b: Item) => (a.movie ? a.movie === b.movie : a.episode === b.episode);
const sameListed = (a: Item, b: Item) => (a.movie ? a.movie === b.movie : !!a.show && a.show === b.show);
const itemKey = (item: Item) =>
  item.movie ? `movie:${item.movie.ids.tmdb}` : `episode:${item.episode!.ids.tmdb}`;

const movieJson = (m: FakeTraktMovie) => ({ title: m.title, year: m.year, ids: { ...m.ids } });
const showJson = (s: FakeTraktShow) => ({ title: s.title, year: s.year, ids: { ...s.ids } });
const episodeJson = (e: FakeTraktEpisode) => ({
  season: e.season,
  number: e.number,
  title: e.title,
  ids: { ...e.ids },
});

/** `{movie}` or `{episode, show}` as Trakt nests them. */
const itemJson = (item: Item) =>
  item.movie
    ? { movie: movieJson(item.movie) }
    : { episode: episodeJson(item.episode!), show: showJson(item.show!) };

const positiveInt = (raw: string | null) => {
  const n = Number(raw);
  return raw !== null && Number.isInteger(n) && n >= 1 ? n : undefined;
};

/** Trakt's pagination: `page` (1) and `limit` (default given, at most 1000), with the X-Pagination-* headers. */
function paginate<T>(items: T[], query: URLSearchParams, defaultLimit: number) {
  const page = positiveInt(query.get('page')) ?? 1;
  const limit = Math.min(1000, positiveInt(query.get('limit')) ?? defaultLimit);
  return {
    slice: items.slice((page - 1) * limit, page * limit),
    headers: {
      'x-pagination-page': String(page),
      'x-pagination-limit': String(limit),
      'x-pagination-page-count': String(Math.max(1, Math.ceil(items.length / limit))),
      'x-pagination-item-count': String(items.length),
    },
  };
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

class FakeTraktServer implements FakeTrakt {
  readonly requests: FakeTraktRequest[] = [];
  readonly clientId: string;
  readonly clientSecret: string;
  url = '';
  private readonly server: Server;
  private readonly catalog: FakeTraktCatalog;
  private readonly watchlistLimit: number;
  private readonly ttlMs: number;
  private readonly clock: () => number | Date;
  private readonly postRateLimit: { requests: number; windowMs: number } | undefined;
  private readonly conflictMs: number;
  private readonly users = new Map<string, User>();
  /** By device code. */
  private readonly devices = new Map<string, DeviceCode>();
  /** By access token, and by refresh token. */
  private readonly tokens = new Map<string, Token>();
  private readonly refreshTokens = new Map<string, Token>();
  private faults: {
    answer: FakeTraktAnswer;
    match: { method?: string; pathPrefix?: string };
    left: number;
  }[] = [];
  private down = false;
  private readonly port: number;
  private nextHistoryId = 3_000_000_001;
  private nextListingId = 500_000_001;
  private nextScrobbleId = 7_000_001;

  constructor(options: FakeTraktOptions) {
    this.clientId = options.clientId ?? 'fake-client-id';
    this.clientSecret = options.clientSecret ?? 'fake-client-secret';
    this.catalog = options.catalog ?? DEFAULT_TRAKT_CATALOG;
    this.watchlistLimit = options.watchlistLimit ?? 100;
    this.ttlMs = (options.accessTokenTtlSeconds ?? 86_400) * 1000;
    this.clock = options.now ?? Date.now;
    this.postRateLimit = options.postRateLimit;
    this.conflictMs = options.scrobbleConflictMs ?? 3_600_000;
    this.port = options.port ?? 0;
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(this.port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private now(): number {
    const value = this.clock();
    return typeof value === 'number' ? value : value.getTime();
  }

  // ---- HTTP ----

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (this.down) return void req.socket.destroy();
    const raw = await readBody(req);
    if (this.down) return void req.socket.destroy();
    const url = new URL(req.url ?? '/', 'http://fake.trakt');
    const call: Call = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: {},
    };
    let answer: FakeTraktAnswer;
    try {
      answer = this.answer(call, raw);
    } catch (error) {
      answer = { status: 500, body: { error: 'server_error', error_description: String(error) } };
    }
    this.write(res, call, answer);
  }

  private answer(call: Call, raw: string): FakeTraktAnswer {
    const fault = this.takeFault(call);
    if (fault) return fault;
    if (call.headers['trakt-api-key'] !== this.clientId) return { status: 403 };
    if (call.headers['trakt-api-version'] !== '2')
      return {
        status: 400,
        body: { error: 'bad_request', error_description: 'trakt-api-version: 2 expected' },
      };
    const badBody = this.parseBody(call, raw);
    if (badBody) return badBody;
    const route = this.route(call);
    if (!route) return { status: 404 };
    if (!route.auth) return route.run();
    const token = this.bearer(call);
    if (!token || !this.accessValid(token)) return UNAUTHORIZED;
    call.user = this.userOf(token.username);
    return this.limitWrites(call) ?? route.run();
  }

  private takeFault(call: Call): FakeTraktAnswer | undefined {
    const rule = this.faults.find(
      ({ match, left }) =>
        left > 0 &&
        (!match.method || match.method.toUpperCase() === call.method) &&
        (!match.pathPrefix || call.path.startsWith(match.pathPrefix)),
    );
    if (!rule) return undefined;
    rule.left -= 1;
    this.faults = this.faults.filter((r) => r.left > 0);
    return rule.answer;
  }

  /** A body must be a JSON object sent as application/json; an empty body reads as `{}`. */
  private parseBody(call: Call, raw: string): FakeTraktAnswer | undefined {
    if (raw.trim() === '') return undefined;
    const bad = { status: 400, body: { error: 'bad_request', error_description: 'JSON body expected' } };
    if (!String(call.headers['content-type'] ?? '').includes('application/json')) return bad;
    try {
      const value: unknown = JSON.parse(raw);
      if (!value || typeof value !== 'object' || Array.isArray(value)) return bad;
      call.body = value as Record<string, unknown>;
      return undefined;
    } catch {
      return bad;
    }
  }

  private write(res: ServerResponse, call: Call, answer: FakeTraktAnswer): void {
    const headers: Record<string, string> = {};
    let payload = '';
    if (answer.body !== undefined) {
      const text = typeof answer.body === 'string';
      payload = text ? (answer.body as string) : JSON.stringify(answer.body);
      headers['content-type'] =
        text && payload.trimStart().startsWith('<')
          ? 'text/html; charset=utf-8'
          : 'application/json; charset=utf-8';
    }
    for (const [name, value] of Object.entries(answer.headers ?? {})) headers[name.toLowerCase()] = value;
    const user = call.username ?? call.user?.username ?? this.bearer(call)?.username;
    this.requests.push({
      method: call.method,
      path: call.path,
      status: answer.status,
      ...(user ? { user } : {}),
    });
    res.writeHead(answer.status, headers);
    res.end(payload);
  }

  private route(call: Call): Route | undefined {
    const { method, path } = call;
    const open = (run: () => FakeTraktAnswer): Route => ({ auth: false, run });
    const authed = (run: (user: User) => FakeTraktAnswer): Route => ({
      auth: true,
      run: () => run(call.user!),
    });
    let m: RegExpExecArray | null;
    if (method === 'POST') {
      if (path === '/oauth/device/code') return open(() => this.deviceCode(call));
      if (path === '/oauth/device/token') return open(() => this.deviceToken(call));
      if (path === '/oauth/token') return open(() => this.refresh(call));
      if (path === '/oauth/revoke') return open(() => this.revoke(call));
      if (path === '/sync/history') return authed((u) => this.addHistory(call, u));
      if (path === '/sync/history/remove') return authed((u) => this.removeHistory(call, u));
      if (path === '/sync/watchlist') return authed((u) => this.addWatchlist(call, u));
      if (path === '/sync/watchlist/remove') return authed((u) => this.removeWatchlist(call, u));
      if (path === '/sync/ratings') return authed((u) => this.addRatings(call, u));
      if (path === '/sync/ratings/remove') return authed((u) => this.removeRatings(call, u));
      if ((m = /^\/scrobble\/(start|pause|stop)$/.exec(path)))
        return authed((u) => this.scrobble(call, u, m![1] as FakeTraktScrobble['action']));
      return undefined;
    }
    if (method !== 'GET') return undefined;
    if (path === '/users/settings') return authed((u) => this.settings(u));
    if (path === '/sync/last_activities') return authed((u) => this.lastActivities(u));
    if ((m = /^\/sync\/history(?:\/(movies|shows|episodes))?\/?$/.exec(path)))
      return authed((u) => this.historyList(call, u, m![1]));
    if (
      (m =
        /^\/sync\/watchlist(?:\/(movies|shows|seasons|episodes|all)(?:\/[a-z_]+(?:\/(?:asc|desc))?)?)?\/?$/.exec(
          path,
        ))
    )
      return authed((u) => this.watchlistList(call, u, m![1]));
    if (
      (m = /^\/sync\/ratings(?:\/(movies|shows|seasons|episodes|all)(?:\/(\d+(?:,\d+)*))?)?\/?$/.exec(path))
    )
      return authed((u) => this.ratingsList(call, u, m![1], m![2]));
    return undefined;
  }

  private bearer(call: Call): Token | undefined {
    const value = /^Bearer\s+(\S+)$/i.exec(String(call.headers.authorization ?? ''))?.[1];
    return value ? this.tokens.get(value) : undefined;
  }

  private accessValid(token: Token): boolean {
    return token.accessOk && this.now() < token.createdAt + this.ttlMs;
  }

  /** AUTHED_API_POST_LIMIT: at most `requests` writes in any `windowMs`; 429 beyond, nothing done. */
  private limitWrites(call: Call): FakeTraktAnswer | undefined {
    const rule = this.postRateLimit;
    const user = call.user;
    if (!rule || !user || call.method === 'GET' || call.method === 'HEAD') return undefined;
    const now = this.now();
    user.writes = user.writes.filter((t) => now - t < rule.windowMs);
    if (user.writes.length < rule.requests) {
      user.writes.push(now);
      return undefined;
    }
    const until = user.writes[0]! + rule.windowMs;
    const limit = {
      name: 'AUTHED_API_POST_LIMIT',
      period: rule.windowMs / 1000,
      limit: rule.requests,
      remaining: 0,
      until: iso(until),
    };
    return {
      status: 429,
      headers: {
        'retry-after': String(Math.max(1, Math.ceil((until - now) / 1000))),
        'x-ratelimit': JSON.stringify(limit),
      },
    };
  }

  // ---- OAuth ----

  private clientOk(body: Record<string, unknown>): boolean {
    return body.client_id === this.clientId && body.client_secret === this.clientSecret;
  }

  private deviceCode(call: Call): FakeTraktAnswer {
    if (call.body.client_id !== this.clientId) return INVALID_CLIENT;
    const taken = new Set([...this.devices.values()].map((d) => d.userCode));
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
    let userCode: string;
    do userCode = [...randomBytes(8)].map((b) => alphabet[b % alphabet.length]).join('');
    while (taken.has(userCode));
    const device: DeviceCode = {
      deviceCode: hex(20),
      userCode,
      expiresAt: this.now() + DEVICE_EXPIRES_S * 1000,
      state: 'pending',
    };
    this.devices.set(device.deviceCode, device);
    return {
      status: 200,
      body: {
        device_code: device.deviceCode,
        user_code: userCode,
        verification_url: 'https://trakt.tv/activate',
        expires_in: DEVICE_EXPIRES_S,
        interval: DEVICE_INTERVAL_S,
      },
    };
  }

  private deviceToken(call: Call): FakeTraktAnswer {
    if (!this.clientOk(call.body)) return INVALID_CLIENT;
    const code = call.body.code;
    const device = typeof code === 'string' ? this.devices.get(code) : undefined;
    if (!device) return { status: 404 };
    const now = this.now();
    if (device.state === 'used') return { status: 409 };
    if (device.state === 'expired' || now >= device.expiresAt) return { status: 410 };
    if (device.state === 'denied') return { status: 418 };
    const previous = device.lastPollAt;
    device.lastPollAt = now;
    if (previous !== undefined && now - previous < DEVICE_INTERVAL_S * 1000) return { status: 429 };
    if (device.state === 'pending') return { status: 400 };
    device.state = 'used';
    call.username = device.username;
    return { status: 200, body: this.issue(device.username!) };
  }

  private issue(username: string) {
    const now = this.now();
    const token: Token = {
      access: hex(32),
      refresh: hex(32),
      username,
      createdAt: now,
      accessOk: true,
      refreshOk: true,
    };
    this.tokens.set(token.access, token);
    this.refreshTokens.set(token.refresh, token);
    return {
      access_token: token.access,
      token_type: 'bearer',
      expires_in: Math.round(this.ttlMs / 1000),
      refresh_token: token.refresh,
      scope: 'public',
      created_at: Math.floor(now / 1000),
    };
  }

  private refresh(call: Call): FakeTraktAnswer {
    const body = call.body;
    if (!this.clientOk(body)) return INVALID_CLIENT;
    if (body.grant_type !== 'refresh_token')
      return {
        status: 400,
        body: {
          error: 'unsupported_grant_type',
          error_description: 'The authorization grant type is not supported by the authorization server.',
        },
      };
    const old =
      typeof body.refresh_token === 'string' ? this.refreshTokens.get(body.refresh_token) : undefined;
    if (!old || !old.refreshOk) return INVALID_GRANT;
    old.accessOk = false;
    old.refreshOk = false;
    call.username = old.username;
    return { status: 200, body: this.issue(old.username) };
  }

  /** Revoking either token of a pair ends both; an unknown token is not an error. */
  private revoke(call: Call): FakeTraktAnswer {
    if (!this.clientOk(call.body)) return INVALID_CLIENT;
    const value = call.body.token;
    const token =
      typeof value === 'string' ? (this.tokens.get(value) ?? this.refreshTokens.get(value)) : undefined;
    if (token) {
      token.accessOk = false;
      token.refreshOk = false;
      call.username = token.username;
    }
    return { status: 200, body: {} };
  }

  // ---- Account ----

  private userOf(username: string): User {
    let user = this.users.get(username);
    if (!user) {
      const now = this.now();
      const activities = Object.fromEntries(
        Object.entries(ACTIVITY_FIELDS).map(([group, keys]) => [
          group,
          Object.fromEntries(keys.map((key) => [key, now])),
        ]),
      );
      user = {
        username,
        createdAt: now,
        plays: [],
        watchlist: [],
        ratings: [],
        scrobbles: [],
        activities,
        all: now,
        lastChange: now,
        lastScrobbled: new Map(),
        writes: [],
      };
      this.users.set(username, user);
    }
    return user;
  }

  /** Moves the given `group.field`s of last_activities (and `all`) to now. */
  private touch(user: User, fields: string[]): void {
    if (fields.length === 0) return;
    const at = Math.max(this.now(), user.lastChange + 1);
    user.lastChange = at;
    user.all = at;
    for (const field of fields) {
      const [group, key] = field.split('.') as [string, string];
      user.activities[group]![key] = at;
    }
  }

  private settings(user: User): FakeTraktAnswer {
    return {
      status: 200,
      body: {
        user: {
          username: user.username,
          private: false,
          name: user.username,
          vip: false,
          vip_ep: false,
          ids: { slug: user.username.toLowerCase().replace(/[^a-z0-9]+/g, '-') },
          joined_at: iso(user.createdAt),
        },
        account: { timezone: 'UTC', date_format: 'mdy', time_24hr: false, cover_image: null },
      },
    };
  }

  private lastActivities(user: User): FakeTraktAnswer {
    const groups = Object.fromEntries(
      Object.entries(user.activities).map(([group, fields]) => [
        group,
        Object.fromEntries(Object.entries(fields).map(([key, at]) => [key, iso(at)])),
      ]),
    );
    return { status: 200, body: { all: iso(user.all), ...groups } };
  }

  // ---- History ----

  private historyList(call: Call, user: User, kind: string | undefined): FakeTraktAnswer {
    const start = parseTime(call.query.get('start_at'));
    const end = parseTime(call.query.get('end_at'));
    const plays = user.plays
      .filter(
        (p) =>
          (kind === undefined || (kind === 'movies' ? !!p.movie : !p.movie)) &&
          (start === undefined || p.watchedAt >= start) &&
          (end === undefined || p.watchedAt <= end),
      )
      .sort((a, b) => b.watchedAt - a.watchedAt || b.id - a.id);
    const { slice, headers } = paginate(plays, call.query, 10);
    return {
      status: 200,
      headers,
      body: slice.map((p) => ({
        id: p.id,
        watched_at: iso(p.watchedAt),
        action: p.action,
        type: p.movie ? 'movie' : 'episode',
        ...itemJson(p),
      })),
    };
  }

  private findEpisode(sent: unknown): Item | undefined {
    for (const show of this.catalog.shows) {
      const episode = show.episodes.find((e) => idsMatch(e.ids, sent));
      if (episode) return { show, episode };
    }
    return undefined;
  }

  /** The plays a history body names: movies, shows (whole, by season, or by episode) and episodes by id. */
  private resolvePlays(body: Record<string, unknown>): { targets: Target[]; notFound: NotFound } {
    const notFound: NotFound = { movies: [], shows: [], seasons: [], episodes: [] };
    const targets: Target[] = [];
    for (const sent of asArray(body.movies)) {
      const found = this.catalog.movies.find((m) => idsMatch(m.ids, sent));
      if (found) targets.push({ movie: found, watchedAt: timeOf(sent) });
      else notFound.movies.push(sent);
    }
    for (const sent of asArray(body.shows)) this.resolveShow(sent, targets, notFound);
    for (const sent of asArray(body.episodes)) {
      const found = this.findEpisode(sent);
      if (found) targets.push({ ...found, watchedAt: timeOf(sent) });
      else notFound.episodes.push(sent);
    }
    return { targets, notFound };
  }

  /** A show without seasons means all its episodes; a season without episodes, all of the season's. */
  private resolveShow(sent: unknown, targets: Target[], notFound: NotFound): void {
    const show = this.catalog.shows.find((s) => idsMatch(s.ids, sent));
    if (!show) return void notFound.shows.push(sent);
    const showTime = timeOf(sent);
    const seasons = asRecord(sent).seasons;
    if (!Array.isArray(seasons)) {
      for (const episode of show.episodes) targets.push({ show, episode, watchedAt: showTime });
      return;
    }
    for (const season of seasons) {
      const inSeason = show.episodes.filter((e) => e.season === asRecord(season).number);
      if (inSeason.length === 0) {
        notFound.seasons.push(season);
        continue;
      }
      const seasonTime = timeOf(season) ?? showTime;
      const episodes = asRecord(season).episodes;
      if (!Array.isArray(episodes)) {
        for (const episode of inSeason) targets.push({ show, episode, watchedAt: seasonTime });
        continue;
      }
      for (const sentEpisode of episodes) {
        const episode = inSeason.find((e) => e.number === asRecord(sentEpisode).number);
        if (episode) targets.push({ show, episode, watchedAt: timeOf(sentEpisode) ?? seasonTime });
        else notFound.episodes.push(sentEpisode);
      }
    }
  }

  private record(user: User, item: Item, watchedAt: number, action: FakeTraktPlayAction): Play {
    const play: Play = { id: this.nextHistoryId++, watchedAt, action, ...item };
    user.plays.push(play);
    this.touch(user, [play.movie ? 'movies.watched_at' : 'episodes.watched_at']);
    return play;
  }

  /** Moves movies.watched_at and/or episodes.watched_at after plays were removed. */
  private touchPlays(user: User, movies: number, episodes: number): void {
    this.touch(user, [
      ...(movies > 0 ? ['movies.watched_at'] : []),
      ...(episodes > 0 ? ['episodes.watched_at'] : []),
    ]);
  }

  private addHistory(call: Call, user: User): FakeTraktAnswer {
    const { targets, notFound } = this.resolvePlays(call.body);
    const now = this.now();
    for (const { watchedAt, ...item } of targets) {
      user.plays.push({ id: this.nextHistoryId++, watchedAt: watchedAt ?? now, action: 'watch', ...item });
    }
    const movies = targets.filter((t) => t.movie).length;
    const episodes = targets.length - movies;
    this.touchPlays(user, movies, episodes);
    return { status: 201, body: { added: { movies, episodes }, not_found: { ...notFound, people: [] } } };
  }

  /** An item without watched_at loses all its plays; with it, the plays at that instant; `ids` by history id. */
  private removeHistory(call: Call, user: User): FakeTraktAnswer {
    const { targets, notFound } = this.resolvePlays(call.body);
    const removed: Play[] = [];
    const take = (matches: (p: Play) => boolean) => {
      const kept: Play[] = [];
      for (const play of user.plays) (matches(play) ? removed : kept).push(play);
      user.plays = kept;
    };
    for (const target of targets)
      take(
        (p) => sameItem(p, target) && (target.watchedAt === undefined || p.watchedAt === target.watchedAt),
      );
    const missingIds: unknown[] = [];
    for (const id of asArray(call.body.ids)) {
      const before = removed.length;
      take((p) => p.id === id);
      if (removed.length === before) missingIds.push(id);
    }
    const movies = removed.filter((p) => p.movie).length;
    const episodes = removed.length - movies;
    this.touchPlays(user, movies, episodes);
    return {
      status: 200,
      body: { deleted: { movies, episodes }, not_found: { ...notFound, ids: missingIds } },
    };
  }

  // ---- Watchlist ----

  private watchlistList(call: Call, user: User, kind: string | undefined): FakeTraktAnswer {
    const rows = user.watchlist
      .map((listing, index) => ({ listing, rank: index + 1 }))
      .filter(
        ({ listing }) =>
          kind === undefined ||
          kind === 'all' ||
          (kind === 'movies' && !!listing.movie) ||
          (kind === 'shows' && !!listing.show),
      )
      .map(({ listing, rank }) => ({
        rank,
        id: listing.id,
        listed_at: iso(listing.listedAt),
        notes: null,
        type: listing.movie ? 'movie' : 'show',
        ...(listing.movie ? { movie: movieJson(listing.movie) } : { show: showJson(listing.show!) }),
      }));
    const sortHeaders = { 'x-sort-by': 'rank', 'x-sort-how': 'asc' };
    if (!call.query.has('page') && !call.query.has('limit'))
      return { status: 200, headers: sortHeaders, body: rows };
    const { slice, headers } = paginate(rows, call.query, 10);
    return { status: 200, headers: { ...sortHeaders, ...headers }, body: slice };
  }

  private resolveListed(body: Record<string, unknown>): { items: Item[]; notFound: NotFound } {
    // Seasons and episodes on the watchlist are not modelled: they come back as not found.
    const notFound: NotFound = {
      movies: [],
      shows: [],
      seasons: asArray(body.seasons),
      episodes: asArray(body.episodes),
    };
    const items: Item[] = [];
    for (const sent of asArray(body.movies)) {
      const found = this.catalog.movies.find((m) => idsMatch(m.ids, sent));
      if (found) items.push({ movie: found });
      else notFound.movies.push(sent);
    }
    for (const sent of asArray(body.shows)) {
      const found = this.catalog.shows.find((s) => idsMatch(s.ids, sent));
      if (found) items.push({ show: found });
      else notFound.shows.push(sent);
    }
    return { items, notFound };
  }

  private listSummary(user: User) {
    return { updated_at: iso(user.activities.watchlist!.updated_at!), item_count: user.watchlist.length };
  }

  private touchWatchlist(user: User, items: Item[]): void {
    if (items.length === 0) return;
    this.touch(user, [
      'watchlist.updated_at',
      ...(items.some((i) => i.movie) ? ['movies.watchlisted_at'] : []),
      ...(items.some((i) => i.show) ? ['shows.watchlisted_at'] : []),
    ]);
  }

  private listItems(user: User, items: Item[]): void {
    const now = this.now();
    for (const item of items)
      user.watchlist.push({ id: this.nextListingId++, listedAt: now, movie: item.movie, show: item.show });
    this.touchWatchlist(user, items);
  }

  private addWatchlist(call: Call, user: User): FakeTraktAnswer {
    const { items, notFound } = this.resolveListed(call.body);
    const fresh: Item[] = [];
    const existing: Item[] = [];
    for (const item of items) {
      const listed =
        user.watchlist.some((l) => sameListed(item, l)) || fresh.some((f) => sameListed(item, f));
      (listed ? existing : fresh).push(item);
    }
    if (user.watchlist.length + fresh.length > this.watchlistLimit)
      return {
        status: 420,
        headers: {
          'x-upgrade-url': 'https://trakt.tv/vip',
          'x-vip-user': 'false',
          'x-account-limit': String(this.watchlistLimit),
        },
      };
    this.listItems(user, fresh);
    return {
      status: 201,
      body: {
        added: counts(fresh),
        existing: counts(existing),
        not_found: notFound,
        list: this.listSummary(user),
      },
    };
  }

  private removeWatchlist(call: Call, user: User): FakeTraktAnswer {
    const { items, notFound } = this.resolveListed(call.body);
    const deleted = user.watchlist.filter((l) => items.some((item) => sameListed(item, l)));
    user.watchlist = user.watchlist.filter((l) => !deleted.includes(l));
    this.touchWatchlist(user, deleted);
    return {
      status: 200,
      body: { deleted: counts(deleted), not_found: notFound, list: this.listSummary(user) },
    };
  }

  // ---- Ratings ----

  /** GET /sync/ratings[/type[/ratings]]: newest first; seasons and episodes hold none here. */
  private ratingsList(call: Call, user: User, kind = 'all', only?: string): FakeTraktAnswer {
    const wanted = only ? new Set(only.split(',').map(Number)) : undefined;
    const rows = [...user.ratings]
      .sort((a, b) => b.ratedAt - a.ratedAt)
      .filter(
        (r) =>
          (kind === 'all' || (kind === 'movies' && !!r.movie) || (kind === 'shows' && !!r.show)) &&
          (!wanted || wanted.has(r.rating)),
      )
      .map((r) => ({
        rated_at: iso(r.ratedAt),
        rating: r.rating,
        type: r.movie ? 'movie' : 'show',
        ...(r.movie ? { movie: movieJson(r.movie) } : { show: showJson(r.show!) }),
      }));
    if (!call.query.has('page') && !call.query.has('limit')) return { status: 200, body: rows };
    const { slice, headers } = paginate(rows, call.query, 10);
    return { status: 200, headers, body: slice };
  }

  /** Rates (or rates again) the items sent; a rating outside 1–10 is not found, as Trakt answers it. */
  private addRatings(call: Call, user: User): FakeTraktAnswer {
    const { items, notFound } = this.resolveListed(call.body);
    const sent = [...asArray(call.body.movies), ...asArray(call.body.shows)];
    const added: Item[] = [];
    for (const item of items) {
      const body = asRecord(sent.find((x) => idsMatch((item.movie ?? item.show)!.ids, x)));
      const rating = body.rating;
      if (typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 10) {
        (item.movie ? notFound.movies : notFound.shows).push(body);
        continue;
      }
      const at = typeof body.rated_at === 'string' ? Date.parse(body.rated_at) : this.now();
      this.putRating(user, item, rating, Number.isNaN(at) ? this.now() : at);
      added.push(item);
    }
    this.touchRatings(user, added);
    return { status: 201, body: { added: counts(added), not_found: notFound } };
  }

  private removeRatings(call: Call, user: User): FakeTraktAnswer {
    const { items, notFound } = this.resolveListed(call.body);
    const deleted = user.ratings.filter((r) => items.some((item) => sameListed(item, r)));
    user.ratings = user.ratings.filter((r) => !deleted.includes(r));
    this.touchRatings(user, deleted);
    return { status: 200, body: { deleted: counts(deleted), not_found: notFound } };
  }

  private putRating(user: User, item: Item, rating: number, ratedAt: number): void {
    user.ratings = user.ratings.filter((r) => !sameListed(item, r));
    user.ratings.push({ movie: item.movie, show: item.show, rating, ratedAt });
  }

  private touchRatings(user: User, items: Item[]): void {
    this.touch(user, [
      ...(items.some((i) => i.movie) ? ['movies.rated_at'] : []),
      ...(items.some((i) => i.show) ? ['shows.rated_at'] : []),
    ]);
  }

  // ---- Scrobble ----

  /** `{movie}`, `{show, episode: {season, number}}`, or `{episode}` by the episode's own ids. */
  private scrobbleItem(body: Record<string, unknown>): Item | undefined {
    if (body.movie !== undefined) {
      const found = this.catalog.movies.find((m) => idsMatch(m.ids, body.movie));
      return found && { movie: found };
    }
    const sentEpisode = asRecord(body.episode);
    if (body.show !== undefined) {
      const show = this.catalog.shows.find((s) => idsMatch(s.ids, body.show));
      const episode = show?.episodes.find(
        (e) => e.season === sentEpisode.season && e.number === sentEpisode.number,
      );
      return show && episode && { show, episode };
    }
    return body.episode !== undefined ? this.findEpisode(body.episode) : undefined;
  }

  private scrobbleLog(body: Record<string, unknown>, item: Item | undefined) {
    if (item?.movie) return { tmdbId: item.movie.ids.tmdb };
    if (item?.show)
      return { tmdbId: item.show.ids.tmdb, season: item.episode!.season, number: item.episode!.number };
    const sent = asRecord(body.movie ?? body.show ?? body.episode);
    const tmdb = asRecord(sent.ids).tmdb;
    return { tmdbId: typeof tmdb === 'number' ? tmdb : 0 };
  }

  private scrobble(call: Call, user: User, action: FakeTraktScrobble['action']): FakeTraktAnswer {
    const item = this.scrobbleItem(call.body);
    const progress = call.body.progress;
    const valid =
      typeof progress === 'number' && Number.isFinite(progress) && progress >= 0 && progress <= 100;
    const answer = this.scrobbleAnswer(user, action, item, valid ? (progress as number) : undefined);
    user.scrobbles.push({
      action,
      ...this.scrobbleLog(call.body, item),
      progress: typeof progress === 'number' ? progress : Number.NaN,
      answered: answer.status,
    });
    return answer;
  }

  private scrobbleAnswer(
    user: User,
    action: FakeTraktScrobble['action'],
    item: Item | undefined,
    progress: number | undefined,
  ): FakeTraktAnswer {
    if (progress === undefined)
      return { status: 422, body: { error: 'validation_failed', error_description: 'progress 0 to 100' } };
    if (!item) return { status: 404 };
    const now = this.now();
    if (action === 'stop' && progress >= SCROBBLE_THRESHOLD) {
      const last = user.lastScrobbled.get(itemKey(item));
      if (last !== undefined && now - last < this.conflictMs)
        return { status: 409, body: { watched_at: iso(last), expires_at: iso(last + this.conflictMs) } };
      user.lastScrobbled.set(itemKey(item), now);
      const play = this.record(user, item, now, 'scrobble');
      return {
        status: 201,
        body: { id: play.id, action: 'scrobble', progress, sharing: SHARING, ...itemJson(item) },
      };
    }
    const answered = action === 'start' ? 'start' : 'pause';
    if (answered === 'pause') this.touch(user, [item.movie ? 'movies.paused_at' : 'episodes.paused_at']);
    const id = answered === 'start' ? 0 : this.nextScrobbleId++;
    return { status: 201, body: { id, action: answered, progress, sharing: SHARING, ...itemJson(item) } };
  }

  // ---- Controls ----

  private deviceByUserCode(userCode: string): DeviceCode {
    const device = [...this.devices.values()].find((d) => d.userCode === userCode.toUpperCase());
    if (!device) throw new Error(`fake Trakt: no device code with user code ${userCode}`);
    return device;
  }

  approve(userCode: string, username: string): void {
    const device = this.deviceByUserCode(userCode);
    if (device.state !== 'pending' || this.now() >= device.expiresAt)
      throw new Error(`fake Trakt: user code ${userCode} can no longer be approved (${device.state})`);
    device.state = 'approved';
    device.username = username;
    this.userOf(username);
  }

  deny(userCode: string): void {
    this.deviceByUserCode(userCode).state = 'denied';
  }

  expire(userCode: string): void {
    this.deviceByUserCode(userCode).state = 'expired';
  }

  private tokensOf(username: string): Token[] {
    return [...this.tokens.values()].filter((t) => t.username === username);
  }

  expireAccessTokens(username: string): void {
    for (const token of this.tokensOf(username)) token.accessOk = false;
  }

  revokeAll(username: string): void {
    for (const token of this.tokensOf(username)) {
      token.accessOk = false;
      token.refreshOk = false;
    }
  }

  activeTokens(username: string): number {
    return this.tokensOf(username).filter((t) => this.accessValid(t)).length;
  }

  history(username: string): FakeTraktPlay[] {
    return (this.users.get(username)?.plays ?? []).map((p) => ({
      id: p.id,
      watchedAt: iso(p.watchedAt),
      action: p.action,
      type: p.movie ? 'movie' : 'episode',
      ...(p.movie
        ? { tmdbId: p.movie.ids.tmdb }
        : { tmdbId: p.show!.ids.tmdb, season: p.episode!.season, number: p.episode!.number }),
    }));
  }

  watchlist(username: string): FakeTraktListed[] {
    return (this.users.get(username)?.watchlist ?? []).map((l) => ({
      type: l.movie ? 'movie' : 'show',
      tmdbId: (l.movie ?? l.show!).ids.tmdb,
      listedAt: iso(l.listedAt),
    }));
  }

  scrobbles(username: string): FakeTraktScrobble[] {
    return (this.users.get(username)?.scrobbles ?? []).map((s) => ({ ...s }));
  }

  ratings(username: string): FakeTraktRating[] {
    return (this.users.get(username)?.ratings ?? []).map((r) => ({
      type: r.movie ? 'movie' : 'show',
      tmdbId: (r.movie ?? r.show!).ids.tmdb,
      rating: r.rating,
      ratedAt: iso(r.ratedAt),
    }));
  }

  rate(
    username: string,
    item: { type: 'movie' | 'show'; tmdbId: number; rating: number; ratedAt?: string },
  ): void {
    const found = this.catalogItem(item.type, item.tmdbId);
    const user = this.userOf(username);
    const at = item.ratedAt === undefined ? this.now() : Date.parse(item.ratedAt);
    this.putRating(user, found, item.rating, Number.isNaN(at) ? this.now() : at);
    this.touchRatings(user, [found]);
  }

  unrate(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): boolean {
    const found = this.catalogItem(item.type, item.tmdbId);
    const user = this.userOf(username);
    const deleted = user.ratings.filter((r) => sameListed(found, r));
    user.ratings = user.ratings.filter((r) => !deleted.includes(r));
    this.touchRatings(user, deleted);
    return deleted.length > 0;
  }

  /** The catalog item a control names; throws when the catalog has none. */
  private catalogItem(
    type: 'movie' | 'episode' | 'show',
    tmdbId: number,
    season?: number,
    number?: number,
  ): Item {
    const found = (): Item | undefined => {
      if (type === 'movie') {
        const m = this.catalog.movies.find((x) => x.ids.tmdb === tmdbId);
        return m && { movie: m };
      }
      const show = this.catalog.shows.find((s) => s.ids.tmdb === tmdbId);
      if (type === 'show') return show && { show };
      const episode = show?.episodes.find((e) => e.season === season && e.number === number);
      return show && episode && { show, episode };
    };
    const item = found();
    if (!item)
      throw new Error(`fake Trakt: no ${type} ${tmdbId} ${season ?? ''}x${number ?? ''} in the catalog`);
    return item;
  }

  addPlay(username: string, play: FakeTraktPlayInput): number {
    const item = this.catalogItem(play.type, play.tmdbId, play.season, play.number);
    const at = play.watchedAt === undefined ? this.now() : new Date(play.watchedAt).getTime();
    if (Number.isNaN(at)) throw new Error(`fake Trakt: bad watchedAt ${String(play.watchedAt)}`);
    return this.record(this.userOf(username), item, at, play.action ?? 'watch').id;
  }

  removePlay(username: string, historyId: number): boolean {
    const user = this.userOf(username);
    const play = user.plays.find((p) => p.id === historyId);
    if (!play) return false;
    user.plays = user.plays.filter((p) => p !== play);
    this.touchPlays(user, play.movie ? 1 : 0, play.movie ? 0 : 1);
    return true;
  }

  /** Listed at trakt.tv; already listed: nothing changes; over the account's limit: throws. */
  addToWatchlist(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): void {
    const found = this.catalogItem(item.type, item.tmdbId);
    const user = this.userOf(username);
    if (user.watchlist.some((l) => sameListed(found, l))) return;
    if (user.watchlist.length >= this.watchlistLimit)
      throw new Error(`fake Trakt: ${username}'s watchlist is full (${this.watchlistLimit})`);
    this.listItems(user, [found]);
  }

  removeFromWatchlist(username: string, item: { type: 'movie' | 'show'; tmdbId: number }): void {
    const found = this.catalogItem(item.type, item.tmdbId);
    const user = this.userOf(username);
    const deleted = user.watchlist.filter((l) => sameListed(found, l));
    user.watchlist = user.watchlist.filter((l) => !deleted.includes(l));
    this.touchWatchlist(user, deleted);
  }

  failNext(
    count: number,
    answer: FakeTraktAnswer,
    match: { method?: string; pathPrefix?: string } = {},
  ): void {
    if (count > 0) this.faults.push({ answer, match, left: count });
  }

  setDown(down: boolean): void {
    this.down = down;
  }
}

function counts(items: Item[]) {
  const movies = items.filter((i) => i.movie).length;
  return { movies, shows: items.length - movies, seasons: 0, episodes: 0 };
}
