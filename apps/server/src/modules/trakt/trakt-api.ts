/*
 * Trakt's API v2 as this server uses it (decision 101): the device flow, tokens, last_activities, the
 * history, the watchlist and scrobbles. Every call has a time limit; an answer that is not a success
 * becomes a TraktError the sync can act on (refresh, wait, stop, try later).
 */

export interface TraktToken {
  access_token: string;
  refresh_token: string;
  /** Seconds */
  expires_in: number;
  /** Epoch seconds */
  created_at: number;
}

export interface TraktDevice {
  device_code: string;
  user_code: string;
  verification_url: string;
  expires_in: number;
  interval: number;
}

/** Ids Trakt gives every movie, show and episode; `tmdb` is the one Marquee keys titles by. */
export interface TraktIds {
  trakt?: number;
  tmdb?: number | null;
  imdb?: string | null;
}

export interface TraktHistoryEntry {
  id: number;
  watched_at: string;
  type: 'movie' | 'episode';
  movie?: { title?: string; year?: number | null; ids: TraktIds };
  episode?: { season: number; number: number; title?: string | null; ids: TraktIds };
  show?: { title?: string; year?: number | null; ids: TraktIds };
}

export interface TraktWatchlistEntry {
  type: string;
  movie?: { title?: string; year?: number | null; ids: TraktIds };
  show?: { title?: string; year?: number | null; ids: TraktIds };
}

/** A rating of a movie or a show (`GET /sync/ratings/movies`, `/shows`). */
export interface TraktRatingEntry {
  rated_at: string;
  rating: number;
  type: string;
  movie?: { title?: string; year?: number | null; ids: TraktIds };
  show?: { title?: string; year?: number | null; ids: TraktIds };
}

export type TraktActivities = Record<string, unknown>;

/** What went wrong with a Trakt call, as the sync acts on it. */
export type TraktFailure =
  | 'unauthorized' // 401: refresh the token (or link again)
  | 'rate_limited' // 429: wait Retry-After
  | 'limit_reached' // 420: the account's own limit
  | 'conflict' // 409: a repeated scrobble, a used device code
  | 'pending' // 400 on the device token: not entered yet
  | 'gone' // 404/410/418 on the device token: unknown, expired, denied
  | 'unavailable'; // no answer, 5xx, or an answer we cannot read

export class TraktError extends Error {
  constructor(
    readonly failure: TraktFailure,
    readonly status: number,
    /** 429: how long Trakt asked to wait. */
    readonly retryAfterMs?: number,
  ) {
    super(`Trakt answered ${status || 'nothing'} (${failure})`);
    this.name = 'TraktError';
  }
}

export interface TraktApiOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Per call. */
  timeoutMs?: number;
}

function failureOf(status: number): TraktFailure {
  if (status === 401 || status === 403) return 'unauthorized';
  if (status === 429) return 'rate_limited';
  if (status === 420) return 'limit_reached';
  if (status === 409) return 'conflict';
  if (status === 400) return 'pending';
  if (status === 404 || status === 410 || status === 418) return 'gone';
  return 'unavailable';
}

function retryAfterOf(response: Response): number | undefined {
  const value = response.headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds) * 1000;
  const at = Date.parse(value);
  return Number.isFinite(at) ? Math.max(0, at - Date.now()) : undefined;
}

/** A response body that says how many pages there are (history, watchlist). */
export interface Page<T> {
  items: T[];
  pageCount: number;
}

export class TraktApi {
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;

  constructor(private readonly options: TraktApiOptions) {
    this.fetch = options.fetch ?? fetch;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<{ json: unknown; response: Response }> {
    let response: Response;
    try {
      response = await this.fetch(`${this.options.baseUrl.replace(/\/+$/, '')}${path}`, {
        method,
        headers: {
          'content-type': 'application/json',
          'trakt-api-version': '2',
          'trakt-api-key': this.options.clientId,
          'user-agent': 'Marquee',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch {
      throw new TraktError('unavailable', 0);
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new TraktError(failureOf(response.status), response.status, retryAfterOf(response));
    }
    const text = await response.text().catch(() => {
      throw new TraktError('unavailable', response.status);
    });
    try {
      return { json: text ? (JSON.parse(text) as unknown) : {}, response };
    } catch {
      throw new TraktError('unavailable', response.status);
    }
  }

  private secrets() {
    return { client_id: this.options.clientId, client_secret: this.options.clientSecret };
  }

  async deviceCode(): Promise<TraktDevice> {
    return (await this.call('POST', '/oauth/device/code', { client_id: this.options.clientId }))
      .json as TraktDevice;
  }

  /** The tokens once the viewer entered the code; TraktError `pending` before, `gone` when it ended. */
  async deviceToken(deviceCode: string): Promise<TraktToken> {
    return (await this.call('POST', '/oauth/device/token', { code: deviceCode, ...this.secrets() }))
      .json as TraktToken;
  }

  async refresh(refreshToken: string): Promise<TraktToken> {
    const body = {
      refresh_token: refreshToken,
      grant_type: 'refresh_token',
      redirect_uri: 'urn:ietf:wg:oauth:2.0:oob',
      ...this.secrets(),
    };
    return (await this.call('POST', '/oauth/token', body)).json as TraktToken;
  }

  async revoke(token: string): Promise<void> {
    await this.call('POST', '/oauth/revoke', { token, ...this.secrets() });
  }

  async username(token: string): Promise<string> {
    const { json } = await this.call('GET', '/users/settings', undefined, token);
    const user = (json as { user?: { username?: unknown; ids?: { slug?: unknown } } }).user;
    return typeof user?.username === 'string' ? user.username : String(user?.ids?.slug ?? '');
  }

  async lastActivities(token: string): Promise<TraktActivities> {
    return (await this.call('GET', '/sync/last_activities', undefined, token)).json as TraktActivities;
  }

  async historyPage(token: string, page: number, limit: number): Promise<Page<TraktHistoryEntry>> {
    const { json, response } = await this.call(
      'GET',
      `/sync/history?page=${page}&limit=${limit}`,
      undefined,
      token,
    );
    return {
      items: json as TraktHistoryEntry[],
      pageCount: Number(response.headers.get('x-pagination-page-count') ?? 1),
    };
  }

  async addHistory(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/history', body, token)).json;
  }

  async removeHistory(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/history/remove', body, token)).json;
  }

  async watchlist(token: string): Promise<TraktWatchlistEntry[]> {
    return (await this.call('GET', '/sync/watchlist', undefined, token)).json as TraktWatchlistEntry[];
  }

  async addWatchlist(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/watchlist', body, token)).json;
  }

  async removeWatchlist(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/watchlist/remove', body, token)).json;
  }

  /** Trakt's answer: `action` is `scrobble` when it recorded a play. */
  /** The ratings of movies and of shows (seasons and episodes are not kept here: decision 103). */
  async ratings(token: string): Promise<TraktRatingEntry[]> {
    const movies = (await this.call('GET', '/sync/ratings/movies', undefined, token)).json;
    const shows = (await this.call('GET', '/sync/ratings/shows', undefined, token)).json;
    return [...(movies as TraktRatingEntry[]), ...(shows as TraktRatingEntry[])];
  }

  async addRatings(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/ratings', body, token)).json;
  }

  async removeRatings(token: string, body: unknown): Promise<unknown> {
    return (await this.call('POST', '/sync/ratings/remove', body, token)).json;
  }

  async scrobble(
    token: string,
    action: 'start' | 'pause' | 'stop',
    body: unknown,
  ): Promise<{ action?: string }> {
    return (await this.call('POST', `/scrobble/${action}`, body, token)).json as { action?: string };
  }
}
