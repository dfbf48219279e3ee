import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../errors.ts';
import {
  FAKE_TMDB_READ_TOKEN,
  FAKE_TMDB_V3_KEY,
  FakeTmdb,
  startFakeTmdbPair,
} from '../../../../test/fake-tmdb.ts';
import { MIN_ATTEMPT_MS, TmdbClient, retryAfterMs, type TmdbClientOptions } from './tmdb.client.ts';

let primary: FakeTmdb;
let fallback: FakeTmdb;
let closeFakes: () => Promise<void>;

beforeAll(async () => {
  ({ primary, fallback, close: closeFakes } = await startFakeTmdbPair());
});
afterAll(async () => {
  await closeFakes();
});
beforeEach(() => {
  primary.reset();
  fallback.reset();
});

/** A client on the two fakes; timeouts are short so that a slow host fails the test run quickly. */
function client(options: Partial<TmdbClientOptions> = {}) {
  return new TmdbClient({
    apiKey: FAKE_TMDB_READ_TOKEN,
    baseUrl: primary.url,
    fallbackUrl: fallback.url,
    timeoutMs: 2_000,
    fallbackTimeoutMs: 5_000,
    ...options,
  });
}

async function failure(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('what TmdbClient sends', () => {
  it('authenticates with the read token as a bearer header and asks for JSON in en-US', async () => {
    await client().genres('movie');
    const [request] = primary.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_TMDB_READ_TOKEN}`);
    expect(request?.headers.accept).toBe('application/json');
    expect(request?.query.language).toBe('en-US');
    expect(request?.query.api_key).toBeUndefined();
  });

  it('searches search/multi with query, include_adult=false, language=en-US and page=1', async () => {
    await client().searchMulti('the matrix');
    expect(primary.requests).toHaveLength(1);
    expect(primary.requests[0]).toMatchObject({
      method: 'GET',
      path: '/search/multi',
      query: { query: 'the matrix', include_adult: 'false', language: 'en-US', page: '1' },
    });
  });

  it('asks for a title page in one call per title, and gets the IMDb id through external_ids', async () => {
    const api = client();
    const movie = await api.movie(603);
    const show = await api.tv(1399);
    await api.movie(603, 'pt-BR');
    expect(
      primary.requests.map((r) => [r.path, r.query.append_to_response, r.query.include_video_language]),
    ).toEqual([
      ['/movie/603', 'credits,videos,release_dates,watch/providers,recommendations,external_ids', 'en,null'],
      [
        '/tv/1399',
        'aggregate_credits,videos,content_ratings,watch/providers,recommendations,external_ids',
        'en,null',
      ],
      [
        '/movie/603',
        'credits,videos,release_dates,watch/providers,recommendations,external_ids',
        'pt,en,null',
      ],
    ]);
    expect(movie).toMatchObject({ id: 603, title: 'The Matrix' });
    expect(movie.external_ids?.imdb_id).toBe('tt0133093');
    expect(show).toMatchObject({ id: 1399, name: 'Game of Thrones' });
    expect(show.external_ids?.imdb_id).toMatch(/^tt\d+$/);
  });

  it('calls the TMDB paths the service uses, with their parameters', async () => {
    const api = client();
    await api.season(1399, 1);
    await api.find('tt0133093');
    await api.movieList('now_playing');
    await api.movieList('top_rated');
    await api.movieList('popular');
    await api.tvList('top_rated');
    await api.tvList('popular');
    await api.genres('tv');
    await api.discoverMovies(28, 6);
    await api.discoverTv(18, 1);
    expect(primary.requests.map((r) => `${r.path} ${new URLSearchParams(r.query).toString()}`)).toEqual([
      '/tv/1399/season/1 language=en-US',
      '/find/tt0133093 language=en-US&external_source=imdb_id',
      '/movie/now_playing language=en-US&page=1',
      '/movie/top_rated language=en-US&page=1',
      '/movie/popular language=en-US&page=1',
      '/tv/top_rated language=en-US&page=1',
      '/tv/popular language=en-US&page=1',
      '/genre/tv/list language=en-US',
      '/discover/movie language=en-US&with_genres=28&page=6',
      '/discover/tv language=en-US&with_genres=18&page=1',
    ]);
  });

  it('sends a classic v3 key as api_key instead of a bearer header', async () => {
    const answer = await client({ apiKey: FAKE_TMDB_V3_KEY }).movie(603);
    expect(answer.id).toBe(603);
    const [request] = primary.requests;
    expect(request?.query.api_key).toBe(FAKE_TMDB_V3_KEY);
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('tolerates a base URL with a trailing slash', async () => {
    await client({ baseUrl: `${primary.url}/` }).genres('movie');
    expect(primary.requests[0]?.path).toBe('/genre/movie/list');
  });
});

describe('what TmdbClient reads', () => {
  it('parses the answers in TMDB shapes', async () => {
    const api = client();
    const search = await api.searchMulti('matrix');
    expect(search.page).toBe(1);
    expect(search.results.some((r) => r.media_type === 'movie' && r.id === 603)).toBe(true);
    expect(search.results.some((r) => r.media_type === 'person')).toBe(true);

    const season = await api.season(1399, 1);
    expect(season.season_number).toBe(1);
    expect(season.episodes.length).toBeGreaterThan(0);
    expect(season.episodes[0]).toMatchObject({ episode_number: 1, name: expect.any(String) });

    const found = await api.find('tt0133093');
    expect(found.movie_results[0]?.id).toBe(603);
    expect(found.tv_results).toEqual([]);

    const unknownImdb = await api.find('tt0000000001');
    expect(unknownImdb.movie_results).toEqual([]);

    const genres = await api.genres('movie');
    expect(genres.genres[0]).toEqual({ id: 28, name: 'Action' });

    const discover = await api.discoverMovies(28, 1);
    expect(discover.results.length).toBeGreaterThan(0);
    expect(discover.results.length).toBeLessThanOrEqual(20);
  });
});

describe('fallback host', () => {
  it('gives up on a slow primary after its timeout and answers from the fallback', async () => {
    primary.inject({ delayMs: 5_000 });
    const started = performance.now();
    const movie = await client({ timeoutMs: 100 }).movie(603);
    expect(movie.title).toBe('The Matrix');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(1);
    expect(fallback.requests[0]).toMatchObject({
      path: '/movie/603',
      query: { append_to_response: expect.stringContaining('external_ids'), language: 'en-US' },
    });
    expect(fallback.requests[0]?.headers.authorization).toBe(`Bearer ${FAKE_TMDB_READ_TOKEN}`);
  });

  it('waits longer for the fallback than for the primary (3 s, then the rest of 7 s, in production)', async () => {
    primary.inject({ delayMs: 400 });
    fallback.inject({ delayMs: 400 });
    const show = await client({ timeoutMs: 100, fallbackTimeoutMs: 3_000 }).tv(1399);
    expect(show.id).toBe(1399);
  });

  it.each([500, 502, 503])('retries on the fallback when the primary answers %i', async (status) => {
    primary.inject({ status });
    const genres = await client().genres('movie');
    expect(genres.genres.length).toBe(19);
    expect(fallback.requests).toHaveLength(1);
  });

  it('retries on the fallback when the primary drops the connection', async () => {
    primary.inject({ hangUp: true });
    const list = await client().movieList('popular');
    expect(list.results.length).toBeGreaterThan(0);
    expect(fallback.requests).toHaveLength(1);
  });

  it('retries on the fallback when the primary host cannot be reached at all', async () => {
    const gone = await FakeTmdb.start();
    const goneUrl = gone.url;
    await gone.close();
    const movie = await client({ baseUrl: goneUrl }).movie(603);
    expect(movie.id).toBe(603);
    expect(fallback.requests).toHaveLength(1);
  });

  it('retries on the fallback when the primary answers something that is not TMDB (an ISP block page)', async () => {
    primary.inject({ malformed: '<html><body>This site is blocked</body></html>' });
    expect((await client().movie(603)).id).toBe(603);
    primary.inject({ status: 451, malformed: '<html><body>Unavailable for legal reasons</body></html>' });
    expect((await client().tv(1399)).id).toBe(1399);
    expect(fallback.requests).toHaveLength(2);
  });

  it('uses the primary again for the next request', async () => {
    primary.inject({ status: 503 }, { times: 1 });
    const api = client();
    await api.genres('tv');
    await api.genres('movie');
    expect(primary.requests).toHaveLength(2);
    expect(fallback.requests).toHaveLength(1);
  });
});

describe('errors', () => {
  it('turns a refused key into metadata_auth_failed without trying the fallback', async () => {
    const error = await failure(client({ apiKey: 'eyJ.wrong.token' }).movie(603));
    expect(error.code).toBe('metadata_auth_failed');
    expect(error.status).toBe(502);
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
  });

  it('turns an unknown title into media_not_found without trying the fallback', async () => {
    const movie = await failure(client().movie(999_999_999));
    expect(movie).toMatchObject({ status: 404, code: 'media_not_found' });
    const season = await failure(client().season(1399, 99));
    expect(season).toMatchObject({ status: 404, code: 'media_not_found' });
    expect(fallback.requests).toHaveLength(0);
  });

  it('turns a 429 into metadata_rate_limited without hammering the fallback', async () => {
    primary.inject({ status: 429 });
    const error = await failure(client().searchMulti('alien'));
    expect(error).toMatchObject({ status: 503, code: 'metadata_rate_limited' });
    // Without a Retry-After there is no telling when TMDB takes requests again: no retry at all.
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
  });

  it('reports metadata_unavailable when both hosts fail', async () => {
    primary.inject({ status: 500 });
    fallback.inject({ status: 503 });
    expect(await failure(client().movie(603))).toMatchObject({ status: 503, code: 'metadata_unavailable' });
  });

  it('reports metadata_unavailable when both hosts are too slow', async () => {
    primary.inject({ delayMs: 5_000 });
    fallback.inject({ delayMs: 5_000 });
    const started = performance.now();
    const error = await failure(client({ timeoutMs: 100, fallbackTimeoutMs: 150 }).movie(603));
    expect(error.code).toBe('metadata_unavailable');
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('reports metadata_unavailable when neither host can be reached', async () => {
    const gone = await FakeTmdb.start();
    const goneUrl = gone.url;
    await gone.close();
    const error = await failure(client({ baseUrl: goneUrl, fallbackUrl: goneUrl }).genres('movie'));
    expect(error).toMatchObject({ status: 503, code: 'metadata_unavailable' });
  });

  it('reports metadata_bad_answer for a body that is not JSON on both hosts', async () => {
    primary.inject({ malformed: true });
    fallback.inject({ malformed: true });
    expect(await failure(client().movie(603))).toMatchObject({ status: 502, code: 'metadata_bad_answer' });
  });

  it('reports metadata_bad_answer for JSON of the wrong shape', async () => {
    primary.inject({ wrongShape: true });
    expect(await failure(client().movie(603))).toMatchObject({ status: 502, code: 'metadata_bad_answer' });
    primary.reset();
    primary.inject({
      wrongShape: {
        page: 1,
        results: [{ id: 'x', media_type: 'movie', title: 3 }],
        total_pages: 1,
        total_results: 1,
      },
    });
    expect(await failure(client().movieList('popular'))).toMatchObject({ code: 'metadata_bad_answer' });
  });

  it('refuses a page TMDB would refuse (code 22) as a bad request, not an outage', async () => {
    const error = await failure(client().discoverMovies(28, 501));
    expect(error).toMatchObject({ status: 400, code: 'bad_request' });
    expect(fallback.requests).toHaveLength(0);
  });
});

/** TMDB's documented answer when over the rate limit (code 25), with the Retry-After it may send. */
function rateLimited(retryAfter?: string): Response {
  return new Response(
    JSON.stringify({
      status_code: 25,
      status_message: 'Your request count (#) is over the allowed limit of (40).',
      success: false,
    }),
    {
      status: 429,
      headers: {
        'content-type': 'application/json;charset=utf-8',
        ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
      },
    },
  );
}
const genresAnswer = () =>
  new Response(JSON.stringify({ genres: [{ id: 28, name: 'Action' }] }), {
    status: 200,
    headers: { 'content-type': 'application/json;charset=utf-8' },
  });

/** A fetch that answers `answers` in turn and records the URLs asked; the waits for Retry-After too. */
function scripted(...answers: (() => Response)[]) {
  const urls: string[] = [];
  const waits: number[] = [];
  const fetch = (async (url: URL | string) => {
    urls.push(String(url));
    const next = answers.shift();
    if (!next) throw new Error('no more answers scripted');
    return next();
  }) as typeof globalThis.fetch;
  const sleep = async (ms: number) => void waits.push(ms);
  return { urls, waits, options: { fetch, sleep } };
}

async function elapsed<T>(promise: Promise<T>): Promise<{ ms: number; error: unknown }> {
  const started = performance.now();
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  return { ms: performance.now() - started, error };
}

describe('time budget (decision 082)', () => {
  it('gives up on two hung hosts when the budget is spent, not at the sum of their timeouts', async () => {
    // Hosts that never answer (within the test): the client must not wait for them.
    primary.inject({ delayMs: 60_000 });
    fallback.inject({ delayMs: 60_000 });
    const api = client({ timeoutMs: 150, fallbackTimeoutMs: 60_000, budgetMs: 600 });
    const { ms, error } = await elapsed(api.movie(603));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, code: 'metadata_unavailable' });
    // 150 ms on the primary, the remaining 450 ms on the fallback.
    expect(ms).toBeGreaterThanOrEqual(580);
    expect(ms).toBeLessThan(1_500);
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(1);
  });

  it('gives the fallback only what the budget has left', async () => {
    primary.inject({ status: 503 });
    fallback.inject({ delayMs: 700 });
    const short = await elapsed(client({ fallbackTimeoutMs: 5_000, budgetMs: 400 }).genres('movie'));
    expect(short.error).toMatchObject({ code: 'metadata_unavailable' });
    expect(short.ms).toBeLessThan(700);
    // With room for it, the same slow fallback answers.
    const genres = await client({ fallbackTimeoutMs: 5_000, budgetMs: 3_000 }).genres('movie');
    expect(genres.genres.length).toBe(19);
  });

  it('shares one budget between all the calls of one request', async () => {
    primary.inject({ delayMs: 200 });
    const api = client({ timeoutMs: 2_000, budgetMs: 200 + 200 + MIN_ATTEMPT_MS - 10 });
    const { error } = await elapsed(
      api.withBudget(async () => {
        await api.genres('movie');
        await api.genres('tv');
        await api.movie(603);
      }),
    );
    expect(error).toMatchObject({ status: 503, code: 'metadata_unavailable' });
    // The third call found too little time left and asked no host at all.
    expect(primary.requests.map((r) => r.path)).toEqual(['/genre/movie/list', '/genre/tv/list']);
    expect(fallback.requests).toHaveLength(0);
  });

  it('gives calls outside a request a budget each', async () => {
    primary.inject({ delayMs: 200 });
    const api = client({ timeoutMs: 2_000, budgetMs: 200 + MIN_ATTEMPT_MS });
    await api.genres('movie');
    await api.genres('tv');
    expect((await api.movie(603)).id).toBe(603);
  });
});

describe('rate limits: 429 and Retry-After', () => {
  it('waits out a Retry-After that fits in the budget and asks the same host once more', async () => {
    const script = scripted(() => rateLimited('2'), genresAnswer);
    const genres = await client({ ...script.options, budgetMs: 7_000 }).genres('movie');
    expect(genres.genres).toEqual([{ id: 28, name: 'Action' }]);
    expect(script.waits).toEqual([2_000]);
    expect(script.urls).toHaveLength(2);
    expect(script.urls.every((url) => url.startsWith(primary.url))).toBe(true);
  });

  it('fails at once with metadata_rate_limited and the Retry-After when it does not fit', async () => {
    const script = scripted(() => rateLimited('30'), genresAnswer);
    const { ms, error } = await elapsed(client({ ...script.options, budgetMs: 7_000 }).genres('movie'));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, code: 'metadata_rate_limited', retryAfterSeconds: 30 });
    expect(ms).toBeLessThan(1_000);
    expect(script.waits).toEqual([]);
    expect(script.urls).toHaveLength(1);
  });

  it('counts the wait against the budget: a Retry-After leaving no time for the retry is not waited for', async () => {
    const script = scripted(() => rateLimited('2'), genresAnswer);
    const error = await failure(client({ ...script.options, budgetMs: 2_100 }).genres('movie'));
    expect(error).toMatchObject({ code: 'metadata_rate_limited', retryAfterSeconds: 2 });
    expect(script.waits).toEqual([]);
  });

  it('retries a 429 once only, passing on the second Retry-After', async () => {
    const script = scripted(
      () => rateLimited('1'),
      () => rateLimited('3'),
      genresAnswer,
    );
    const error = await failure(client({ ...script.options, budgetMs: 7_000 }).genres('movie'));
    expect(error).toMatchObject({ code: 'metadata_rate_limited', retryAfterSeconds: 3 });
    expect(script.waits).toEqual([1_000]);
    expect(script.urls).toHaveLength(2);
  });

  it('tells clients to wait a second when TMDB named no Retry-After (its limit is per second)', async () => {
    const script = scripted(() => rateLimited());
    const error = await failure(client(script.options).genres('movie'));
    expect(error).toMatchObject({ code: 'metadata_rate_limited', retryAfterSeconds: 1 });
    expect(script.urls).toHaveLength(1);
  });

  it("honours a plain-text 429's Retry-After (a proxy's or CDN's page in front of TMDB)", async () => {
    const plain = () =>
      new Response('Too Many Requests', {
        status: 429,
        headers: { 'content-type': 'text/plain', 'retry-after': '2' },
      });
    const waited = scripted(plain, genresAnswer);
    expect((await client({ ...waited.options, budgetMs: 7_000 }).genres('movie')).genres).toHaveLength(1);
    expect(waited.waits).toEqual([2_000]);
    // Too long to wait for (the other host is asked, and says the same): passed on to the client.
    const busy = () => new Response('Too Many Requests', { status: 429, headers: { 'retry-after': '40' } });
    const passedOn = scripted(busy, busy);
    const error = await failure(client(passedOn.options).genres('movie'));
    expect(error).toMatchObject({ code: 'metadata_rate_limited', retryAfterSeconds: 40 });
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(retryAfterMs('0', now)).toBe(0);
    expect(retryAfterMs(' 12 ', now)).toBe(12_000);
    expect(retryAfterMs('Sat, 01 Mar 2025 12:00:05 GMT', now)).toBe(5_000);
    expect(retryAfterMs('Sat, 01 Mar 2025 11:59:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs('-3', now)).toBeUndefined();
    expect(retryAfterMs(null, now)).toBeUndefined();
  });
});

describe('call statistics for the admin self-test', () => {
  it('records each call with its host, and failures with their code and what each host did', async () => {
    const api = client({ timeoutMs: 100, fallbackTimeoutMs: 150 });
    await api.genres('movie');
    primary.inject({ status: 503 }, { times: 1 });
    await api.genres('tv');
    primary.inject({ delayMs: 60_000 });
    fallback.inject({ delayMs: 60_000 });
    await failure(api.movie(603));
    const summary = api.stats.summary();
    expect(summary).toMatchObject({
      calls: 3,
      fallbackAnswers: 1,
      errors: { metadata_unavailable: 1 },
    });
    expect(summary.p50Ms).toBeGreaterThan(0);
    expect(summary.p95Ms).toBeGreaterThanOrEqual(summary.p50Ms!);
    expect(summary.lastError).toMatchObject({ code: 'metadata_unavailable' });
    expect(summary.lastError?.message).toBe(
      '/movie/603: primary: timed out after 100 ms; fallback: timed out after 150 ms',
    );
    expect(JSON.stringify(summary)).not.toContain(FAKE_TMDB_READ_TOKEN);
  });
});
