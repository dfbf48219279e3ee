import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ApiErrorBody,
  MediaDetails,
  MediaList,
  MediaSummary,
  RuntimeConfig,
  SeasonDetails,
  configEndpoints,
  metadataEndpoints,
} from '@marquee/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import {
  catalogData,
  FAKE_IMAGE_BYTES,
  FAKE_OVERVIEWS,
  FAKE_TMDB_READ_TOKEN,
  FAKE_UNNAMED_GENRE,
  type FakeTmdb,
  startFakeTmdbPair,
} from './fake-tmdb.ts';
import { createTestDatabase, testDialect } from './test-database.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-api-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Settings of every app under test: quiet, data in a temp dir, and no web build unless a test makes one. */
const baseEnv = {
  LOG_LEVEL: 'silent',
  DATA_DIR: path.join(tmp, 'data'),
  WEB_DIST_DIR: path.join(tmp, 'no-web-build'),
};

const SECRETS = {
  CAPTCHA_SECRET: 'captcha-secret-5c1f',
  SHKEEPER_API_KEY: 'shkeeper-secret-77aa',
  METRICS_TOKEN: 'metrics-secret-19bd',
};

async function startApp(env: Record<string, string>, setup?: (app: App) => void) {
  const database = await createTestDatabase(tmp);
  const app = await buildApp(loadConfig({ ...baseEnv, ...env }), { database, logger: false });
  setup?.(app);
  await app.server.ready();
  return {
    app,
    database,
    async close() {
      await app.server.close();
      await database.destroy();
    },
  };
}

const json = (response: { body: string }) => JSON.parse(response.body) as unknown;

describe(`HTTP API with the embedded catalog (${testDialect})`, () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  let app: App;
  const get = (url: string, headers: Record<string, string> = {}) =>
    app.server.inject({ method: 'GET', url, headers });

  beforeAll(async () => {
    started = await startApp({ ...SECRETS, FREE_MOVIE_TMDB_ID: '603', DMCA_EMAIL: 'dmca@example.org' });
    app = started.app;
  });
  afterAll(async () => {
    await started.close();
  });

  describe('health', () => {
    it('answers /healthz when the database answers', async () => {
      const response = await get('/healthz');
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ status: 'ok' });
    });

    it('answers /ping.txt with an uncached "pong" (the web app’s online check)', async () => {
      const response = await get('/ping.txt');
      expect(response.statusCode).toBe(200);
      expect(response.body).toBe('pong');
      expect(response.headers['content-type']).toMatch(/^text\/plain/);
      expect(response.headers['cache-control']).toBe('no-store');
    });
  });

  describe('/api/config', () => {
    it('describes the instance in the contract’s shape', async () => {
      const response = await get('/api/config');
      expect(response.statusCode).toBe(200);
      const config = RuntimeConfig.parse(json(response));
      expect(config).toMatchObject({
        instanceName: 'Marquee',
        variant: 'discovery',
        authMethods: ['passphrase'],
        dmcaEmail: 'dmca@example.org',
        captcha: { provider: 'altcha', siteKey: null },
        downtime: null,
        metadataSource: 'catalog',
        freeMovieOfTheMonth: { id: '603', title: 'The Matrix' },
      });
    });

    it('never contains a secret', async () => {
      const response = await get('/api/config');
      for (const secret of Object.values(SECRETS)) expect(response.body).not.toContain(secret);
      expect(response.body).not.toMatch(/secret|api_?key|database_url|redis_url/i);
    });
  });

  describe('/api/search', () => {
    it('finds titles, posters first, in the contract’s shape', async () => {
      const response = await get('/api/search?query=matrix');
      expect(response.statusCode).toBe(200);
      const { results } = MediaList.parse(json(response));
      expect(results[0]).toEqual({
        id: '603',
        type: 'movie',
        title: 'The Matrix',
        year: 1999,
        releaseDate: expect.stringMatching(/^1999-/),
        poster: '/api/images/w342/catalog/movie-603.svg',
      });
    });

    it('tolerates spelling: spiderman finds Spider-Man', async () => {
      const { results } = MediaList.parse(
        json(await get(`/api/search?query=${encodeURIComponent('spiderman')}`)),
      );
      expect(results[0]).toMatchObject({ id: '557', title: 'Spider-Man' });
    });

    it('answers an empty list for no match', async () => {
      const response = await get('/api/search?query=zzqxv%20nothing');
      expect(response.statusCode).toBe(200);
      expect(json(response)).toEqual({ results: [] });
    });

    it.each([
      ['an empty query', '/api/search?query='],
      ['a blank query', '/api/search?query=%20%20%20'],
      ['a missing query', '/api/search'],
      ['a 201-character query', `/api/search?query=${'a'.repeat(201)}`],
    ])('refuses %s with 400 and the validation body', async (_name, url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      const body = ApiErrorBody.parse(json(response));
      expect(body).toMatchObject({
        errorType: 'validation',
        code: 'validation_failed',
        message: expect.any(String),
      });
      expect(body.issues?.[0]?.path[0]).toBe('querystring');
    });

    it('accepts a 200-character query', async () => {
      expect((await get(`/api/search?query=${'a'.repeat(200)}`)).statusCode).toBe(200);
    });
  });

  describe('/api/lists, /api/genres, /api/discover', () => {
    it.each([
      ['movie', 'now_playing'],
      ['movie', 'top_rated'],
      ['movie', 'popular'],
      ['tv', 'top_rated'],
      ['tv', 'popular'],
    ])('serves the %s %s list', async (type, list) => {
      const response = await get(`/api/lists/${type}/${list}`);
      expect(response.statusCode).toBe(200);
      const { results } = MediaList.parse(json(response));
      expect(results.length).toBeGreaterThan(0);
      expect(results.length).toBeLessThanOrEqual(20);
      expect(results.every((r) => r.type === type)).toBe(true);
    });

    it('has no "in cinemas" list for shows, and no unknown lists', async () => {
      const tv = await get('/api/lists/tv/now_playing');
      expect(tv.statusCode).toBe(404);
      expect(ApiErrorBody.parse(json(tv)).code).toBe('not_found');
      expect((await get('/api/lists/movie/upcoming')).statusCode).toBe(400);
      expect((await get('/api/lists/person/popular')).statusCode).toBe(400);
    });

    it('lists genres with TMDB ids', async () => {
      const movie = z
        .object({ genres: z.array(z.object({ id: z.number(), name: z.string() })) })
        .parse(json(await get('/api/genres/movie')));
      expect(movie.genres).toHaveLength(19);
      expect(movie.genres).toContainEqual({ id: 878, name: 'Science Fiction' });
      const tv = z.object({ genres: z.array(z.unknown()) }).parse(json(await get('/api/genres/tv')));
      expect(tv.genres).toHaveLength(16);
      expect((await get('/api/genres/person')).statusCode).toBe(400);
    });

    it('discovers titles of a genre, page 1 by default', async () => {
      const first = MediaList.parse(json(await get('/api/discover/movie?genre=28')));
      const samePage = MediaList.parse(json(await get('/api/discover/movie?genre=28&page=1')));
      const second = MediaList.parse(json(await get('/api/discover/movie?genre=28&page=2')));
      expect(first.results).toHaveLength(20);
      expect(samePage).toEqual(first);
      expect(second.results[0]?.id).not.toBe(first.results[0]?.id);
      const tv = MediaList.parse(json(await get('/api/discover/tv?genre=18')));
      expect(tv.results.every((r) => r.type === 'tv')).toBe(true);
    });

    it.each(['genre=action', 'genre=', '', 'genre=-28', 'genre=28&page=0', 'genre=28&page=501'])(
      'refuses discover?%s with 400',
      async (query) => {
        const response = await get(`/api/discover/movie?${query}`);
        expect(response.statusCode).toBe(400);
        expect(ApiErrorBody.parse(json(response)).code).toBe('validation_failed');
      },
    );
  });

  describe('/api/media and /api/find', () => {
    it('serves movie details', async () => {
      const response = await get('/api/media/movie/603');
      expect(response.statusCode).toBe(200);
      const movie = MediaDetails.parse(json(response));
      expect(movie).toMatchObject({
        id: '603',
        type: 'movie',
        title: 'The Matrix',
        year: 1999,
        imdbId: 'tt0133093',
        seasons: [],
      });
      // The embedded catalog's certifications are per region (and it has no offers in any).
      expect(movie.contentRating).toBe('R');
      const inGermany = MediaDetails.parse(json(await get('/api/media/movie/603?region=DE')));
      expect(inGermany).toEqual({ ...movie, contentRating: '16' });
      const inJapan = MediaDetails.parse(json(await get('/api/media/movie/603?region=JP')));
      expect(inJapan.contentRating).toBeNull();
    });

    it('serves show details and a season whose id matches the show’s season list', async () => {
      const show = MediaDetails.parse(json(await get('/api/media/tv/1399')));
      expect(show).toMatchObject({ id: '1399', type: 'tv', title: 'Game of Thrones' });
      const seasonOne = show.seasons.find((s) => s.number === 1);
      expect(seasonOne?.episodeCount).toBe(10);
      const response = await get('/api/media/tv/1399/season/1');
      expect(response.statusCode).toBe(200);
      const season = SeasonDetails.parse(json(response));
      expect(season.id).toBe(seasonOne?.id);
      expect(season.episodes.map((e) => e.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
      expect(season.episodes[0]?.airDate).toBe('2011-04-17');
    });

    it.each([
      ['/api/media/movie/999999999'],
      ['/api/media/tv/999999999'],
      ['/api/media/tv/1399/season/99'],
      ['/api/media/tv/999999999/season/1'],
      ['/api/find/tt0000000001'],
    ])('answers 404 media_not_found for %s', async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(404);
      expect(ApiErrorBody.parse(json(response))).toMatchObject({
        errorType: 'message',
        code: 'media_not_found',
      });
    });

    it.each([
      '/api/media/movie/abc',
      '/api/media/show/603',
      '/api/media/movie/12345678901',
      '/api/media/tv/1399/season/x',
      '/api/media/movie/603?region=de',
      '/api/media/movie/603?region=USA',
      '/api/find/0133093',
    ])('refuses %s with 400', async (url) => {
      const response = await get(url);
      expect(response.statusCode).toBe(400);
      expect(ApiErrorBody.parse(json(response)).code).toBe('validation_failed');
    });

    it('resolves an IMDb id', async () => {
      const response = await get('/api/find/tt0133093');
      expect(response.statusCode).toBe(200);
      expect(MediaSummary.parse(json(response))).toMatchObject({
        id: '603',
        type: 'movie',
        title: 'The Matrix',
      });
    });
  });

  describe('/api/images', () => {
    it('draws catalog posters as SVG', async () => {
      const response = await get('/api/images/w342/catalog/movie-603.svg');
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
      expect(response.headers['cache-control']).toContain('max-age');
      expect(response.body.startsWith('<svg')).toBe(true);
      expect(response.body).toContain('The Matrix');
      const show = await get('/api/images/w342/catalog/tv-1399.svg');
      expect(show.statusCode).toBe(200);
      expect(show.body).toContain('Thrones');
    });

    it('serves posters at w500 too, the size the app family’s clients ask for', async () => {
      const response = await get('/api/images/w500/catalog/movie-603.svg');
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('The Matrix');
    });

    it.each(['w9999', 'original', 'w780', 'h632'])(
      'refuses a size the server never hands out (%s) with 400',
      async (size) => {
        const response = await get(`/api/images/${size}/catalog/movie-603.svg`);
        expect(response.statusCode).toBe(400);
        expect(ApiErrorBody.parse(json(response)).code).toBe('bad_request');
      },
    );

    it('answers 404 for a poster of an unknown title or any other file', async () => {
      expect((await get('/api/images/w342/catalog/movie-999999999.svg')).statusCode).toBe(404);
      expect((await get('/api/images/w342/abc.jpg')).statusCode).toBe(404);
      const traversal = await get('/api/images/w342/..%2F..%2Fetc%2Fpasswd');
      expect(traversal.statusCode).toBe(404);
      expect(traversal.body).not.toContain('root:');
    });
  });

  describe('errors', () => {
    it('answers an unknown API route with 404 route_not_found as JSON, even to a browser', async () => {
      for (const headers of [{}, { accept: 'text/html' }] as Record<string, string>[]) {
        const response = await get('/api/does-not-exist?x=1', headers);
        expect(response.statusCode).toBe(404);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(ApiErrorBody.parse(json(response))).toEqual({
          errorType: 'message',
          code: 'route_not_found',
          message: 'Route GET /api/does-not-exist not found',
        });
      }
    });

    it('answers a wrong method on a known path with 404, not 500', async () => {
      const response = await app.server.inject({ method: 'DELETE', url: '/api/search?query=x' });
      expect(response.statusCode).toBe(404);
      expect(ApiErrorBody.parse(json(response)).code).toBe('route_not_found');
    });

    it('does not serve HTML pages when no web build exists', async () => {
      const response = await get('/discover', { accept: 'text/html' });
      expect(response.statusCode).toBe(404);
    });
  });

  describe('/api/openapi.json', () => {
    it('documents every metadata and config endpoint of the contract', async () => {
      const response = await get('/api/openapi.json');
      expect(response.statusCode).toBe(200);
      const doc = z
        .object({ openapi: z.string(), paths: z.record(z.string(), z.record(z.string(), z.unknown())) })
        .parse(json(response));
      expect(doc.openapi).toMatch(/^3\./);
      for (const endpoint of [...Object.values(metadataEndpoints), ...Object.values(configEndpoints)]) {
        const openApiPath = endpoint.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
        expect(doc.paths[openApiPath], openApiPath).toBeDefined();
        expect(
          doc.paths[openApiPath]?.[endpoint.method.toLowerCase()],
          `${endpoint.method} ${openApiPath}`,
        ).toBeDefined();
      }
      expect(doc.paths['/api/openapi.json']).toBeUndefined();
    });

    it('serves the OpenAPI UI at /api/docs, its files and the document it reads (built on first ask)', async () => {
      const page = await get('/api/docs/');
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('./static/swagger-ui-bundle.js');
      const script = await get('/api/docs/static/swagger-initializer.js');
      expect(script.statusCode).toBe(200);
      expect(script.headers['content-type']).toMatch(/javascript/);
      const spec = json(await get('/api/docs/json')) as { info: { title: string } };
      expect(spec.info.title).toBe('Marquee API');
      expect((await get('/api/docs/static/no-such-file.js')).statusCode).toBe(404);
    });
  });

  describe('metadata cache', () => {
    it('writes nothing to the database in catalog mode', async () => {
      await get('/api/media/movie/603');
      const rows = await started.database.db.selectFrom('metadata_cache').select('key').execute();
      expect(rows).toEqual([]);
    });
  });
});

describe('malformed requests', () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    started = await startApp({}, ({ server }) => {
      // A JSON endpoint like the account routes: the same error handling applies to every route.
      server.post(
        '/api/test/echo',
        { schema: { body: z.object({ name: z.string().min(1) }) } },
        async (request) => request.body,
      );
    });
  });
  afterAll(async () => {
    await started.close();
  });
  const post = (payload: string, contentType = 'application/json') =>
    started.app.server.inject({
      method: 'POST',
      url: '/api/test/echo',
      payload,
      headers: { 'content-type': contentType },
    });

  it('accepts a well-formed body', async () => {
    const response = await post('{"name":"ok"}');
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ name: 'ok' });
  });

  it('answers malformed JSON with 400 bad_request, not 500', async () => {
    const response = await post('{"name": "unterminated');
    expect(response.statusCode).toBe(400);
    expect(ApiErrorBody.parse(json(response))).toMatchObject({ errorType: 'message', code: 'bad_request' });
  });

  it('reads an empty JSON body as no body: a route that needs one answers 400 validation_failed', async () => {
    const response = await post('');
    expect(response.statusCode).toBe(400);
    expect(ApiErrorBody.parse(json(response)).code).toBe('validation_failed');
  });

  it('answers a body of the wrong shape with 400 validation_failed naming the field', async () => {
    const response = await post('{"name": 42}');
    expect(response.statusCode).toBe(400);
    const body = ApiErrorBody.parse(json(response));
    expect(body.code).toBe('validation_failed');
    expect(body.issues?.[0]?.path).toEqual(['body', 'name']);
  });

  it('answers an unsupported content type with 415', async () => {
    const response = await post('name=x', 'application/x-www-form-urlencoded');
    expect(response.statusCode).toBe(415);
    expect(ApiErrorBody.parse(json(response)).code).toBe('unsupported_media_type');
  });

  it('answers a body over 1 MiB with 413', async () => {
    const response = await post(JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }));
    expect(response.statusCode).toBe(413);
    expect(ApiErrorBody.parse(json(response)).code).toBe('payload_too_large');
  });
});

describe('web app serving', () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  const dist = path.join(tmp, 'dist');
  beforeAll(async () => {
    mkdirSync(path.join(dist, 'assets'), { recursive: true });
    writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><!--marquee-runtime-config--></head><body><div id="root"></div></body></html>',
    );
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log("app")');
    writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    started = await startApp({
      WEB_DIST_DIR: dist,
      INSTANCE_NAME: 'Movie </script><script>alert(1)</script> night',
    });
  });
  afterAll(async () => {
    await started.close();
  });
  const get = (url: string, accept = 'text/html,application/xhtml+xml') =>
    started.app.server.inject({ method: 'GET', url, headers: { accept } });

  function inlinedConfig(html: string): RuntimeConfig {
    const match = /<script>window\.__MARQUEE_CONFIG__=(.*?)<\/script>/.exec(html);
    expect(match).not.toBeNull();
    return RuntimeConfig.parse(JSON.parse(match![1]!));
  }

  it.each([
    '/',
    '/discover',
    '/media/tmdb-movie-603-the-matrix',
    '/browse/matrix',
    '/media/tmdb-tv-1399/123/456',
  ])('serves index.html with the runtime configuration inlined for %s', async (url) => {
    const response = await get(url);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.body).toContain('<div id="root">');
    expect(response.body).not.toContain('<!--marquee-runtime-config-->');
    expect(inlinedConfig(response.body)).toMatchObject({ metadataSource: 'catalog', variant: 'discovery' });
  });

  it('escapes the inlined configuration so a setting cannot end the script', async () => {
    const response = await get('/discover');
    expect(response.body).not.toContain('</script><script>alert(1)');
    expect(inlinedConfig(response.body).instanceName).toBe('Movie </script><script>alert(1)</script> night');
  });

  it('serves built files, with long caching for hashed assets', async () => {
    const asset = await get('/assets/app-abc123.js', '*/*');
    expect(asset.statusCode).toBe(200);
    expect(asset.body).toBe('console.log("app")');
    expect(asset.headers['cache-control']).toContain('immutable');
    const icon = await get('/favicon.svg', 'image/*');
    expect(icon.statusCode).toBe(200);
    expect(icon.headers['cache-control'] ?? '').not.toContain('immutable');
  });

  it('keeps API 404s as JSON and answers non-HTML requests for unknown paths with 404', async () => {
    const api = await get('/api/nope');
    expect(api.statusCode).toBe(404);
    expect(ApiErrorBody.parse(json(api)).code).toBe('route_not_found');
    const missingAsset = await get('/assets/missing.js', '*/*');
    expect(missingAsset.statusCode).toBe(404);
  });
});

describe('over a real socket', () => {
  let started: Awaited<ReturnType<typeof startApp>>;
  let base: string;
  beforeAll(async () => {
    started = await startApp({});
    base = await started.app.server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await started.close();
  });

  it('answers fetch() like a browser would see it', async () => {
    const ping = await fetch(`${base}/ping.txt`);
    expect(await ping.text()).toBe('pong');
    const search = await fetch(`${base}/api/search?query=${encodeURIComponent('the dark knight')}`);
    expect(search.status).toBe(200);
    expect(search.headers.get('content-type')).toMatch(/^application\/json/);
    const { results } = MediaList.parse(await search.json());
    expect(results[0]).toMatchObject({ id: '155', title: 'The Dark Knight' });
    const poster = await fetch(`${base}${results[0]!.poster}`);
    expect(poster.status).toBe(200);
    expect(poster.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
  });
});

describe(`HTTP API in TMDB mode (${testDialect})`, () => {
  let fakes: Awaited<ReturnType<typeof startFakeTmdbPair>>;
  let primary: FakeTmdb;
  let fallback: FakeTmdb;
  let started: Awaited<ReturnType<typeof startApp>>;
  const seen: string[] = [];
  const get = async (url: string) => {
    const response = await started.app.server.inject({ method: 'GET', url });
    seen.push(JSON.stringify(response.headers), response.body);
    return response;
  };

  beforeAll(async () => {
    fakes = await startFakeTmdbPair({ leakAdultResults: true });
    ({ primary, fallback } = fakes);
  });
  beforeEach(async () => {
    // Clean fakes for the app's own start-up lookups (the free movie), then a clean log for the test.
    primary.reset();
    fallback.reset();
    started = await startApp({
      TMDB_API_KEY: FAKE_TMDB_READ_TOKEN,
      TMDB_BASE_URL: primary.url,
      TMDB_FALLBACK_URL: fallback.url,
      TMDB_IMAGE_URL: primary.imageUrl,
      TMDB_TIMEOUT_MS: '150',
      TMDB_FALLBACK_TIMEOUT_MS: '3000',
      FREE_MOVIE_TMDB_ID: '603',
    });
    primary.reset();
    fallback.reset();
  });
  afterEach(async () => {
    await started.close();
  });
  afterAll(async () => {
    await fakes.close();
    // Whatever was asked, the key never reached a client.
    for (const text of seen) expect(text).not.toContain(FAKE_TMDB_READ_TOKEN);
    expect(seen.length).toBeGreaterThan(10);
  });

  it('says it uses TMDB, and keeps the key to itself', async () => {
    const response = await get('/api/config');
    const config = RuntimeConfig.parse(json(response));
    expect(config.metadataSource).toBe('tmdb');
    expect(config.freeMovieOfTheMonth).toEqual({ id: '603', title: 'The Matrix' });
    expect(response.body).not.toContain(FAKE_TMDB_READ_TOKEN);
  });

  it('searches TMDB with the key and filters people and adult titles, posters first', async () => {
    const response = await get('/api/search?query=matrix');
    expect(response.statusCode).toBe(200);
    const { results } = MediaList.parse(json(response));
    expect(results[0]).toMatchObject({ id: '603', title: 'The Matrix' });
    expect(results.map((r) => r.id)).not.toContain('6384');
    expect(results.map((r) => r.id)).not.toContain('9000001');
    expect(results.at(-1)).toMatchObject({ id: '9000002', poster: null });
    const [request] = primary.requestsTo('/search/multi');
    expect(request?.headers.authorization).toBe(`Bearer ${FAKE_TMDB_READ_TOKEN}`);
    expect(request?.query).toMatchObject({
      query: 'matrix',
      include_adult: 'false',
      language: 'en-US',
      page: '1',
    });
  });

  it('serves details, seasons and lists from TMDB and caches them in the database', async () => {
    const movie = MediaDetails.parse(json(await get('/api/media/movie/155')));
    expect(movie).toMatchObject({
      id: '155',
      title: 'The Dark Knight',
      imdbId: 'tt0468569',
      poster: '/api/images/w342/catalog/movie-155.svg',
    });
    await get('/api/media/movie/155');
    expect(primary.requestsTo('/movie/155')).toHaveLength(1);

    const season = SeasonDetails.parse(json(await get('/api/media/tv/1399/season/1')));
    expect(season.episodes).toHaveLength(10);
    expect(MediaList.parse(json(await get('/api/lists/movie/popular'))).results.length).toBe(20);
    const keys = (await started.database.db.selectFrom('metadata_cache').select('key').execute())
      .map((r) => r.key)
      .sort();
    // details:movie:603 is the free movie of the month, looked up at start.
    expect(keys).toEqual([
      'details:movie:155:en:US',
      'details:movie:603:en:US',
      'list:movie:popular:en',
      'season:1399:1:en',
    ]);
    // Another region is another page (its certification and offers): one more call, cached apart.
    MediaDetails.parse(json(await get('/api/media/movie/155?region=DE')));
    await get('/api/media/movie/155?region=DE');
    expect(primary.requestsTo('/movie/155')).toHaveLength(2);
    expect(
      await started.database.db
        .selectFrom('metadata_cache')
        .select('key')
        .where('key', '=', 'details:movie:155:en:DE')
        .executeTakeFirst(),
    ).toBeDefined();
  });

  it('answers a French viewer in French, in English where TMDB has no translation, cached per language', async () => {
    const { titles, genres } = catalogData();
    const shawshank = MediaDetails.parse(json(await get('/api/media/movie/278?language=fr')));
    expect(shawshank.title).toBe(titles?.movie['278']?.fr);
    expect(shawshank.title).not.toBe('The Shawshank Redemption');
    expect(shawshank.overview).toBe(FAKE_OVERVIEWS.movie[278]?.fr);
    expect(primary.requestsTo('/movie/278')[0]?.query.language).toBe('fr');

    // No French overview at TMDB (an empty string): the English one, from one more (cached) call.
    const english = MediaDetails.parse(json(await get('/api/media/movie/155')));
    const french = MediaDetails.parse(json(await get('/api/media/movie/155?language=fr')));
    expect(english.overview).toBeTruthy();
    expect(french.overview).toBe(english.overview);
    expect(primary.requestsTo('/movie/155').map((r) => r.query.language)).toEqual(['en-US', 'fr']);
    await get('/api/media/movie/155?language=fr');
    expect(primary.requestsTo('/movie/155')).toHaveLength(2);

    // Genre names in French; one TMDB names null in French reads in English.
    const list = json(await get('/api/genres/movie?language=fr')) as {
      genres: { id: number; name: string }[];
    };
    const name = (id: number) => list.genres.find((g) => g.id === id)?.name;
    expect(name(28)).toBe(genres?.movie['28']?.fr);
    expect(name(FAKE_UNNAMED_GENRE.id)).toBe('TV Movie');

    // Chinese goes to TMDB as zh-CN; a language outside the 40 is refused.
    await get('/api/media/movie/603?language=zh');
    expect(primary.requestsTo('/movie/603').at(-1)?.query.language).toBe('zh-CN');
    const refused = await get('/api/media/movie/603?language=xx');
    expect(refused.statusCode).toBe(400);
    expect(ApiErrorBody.parse(json(refused)).code).toBe('validation_failed');
  });

  it('answers 404 media_not_found for titles TMDB does not know', async () => {
    const response = await get('/api/media/movie/999999999');
    expect(response.statusCode).toBe(404);
    expect(ApiErrorBody.parse(json(response)).code).toBe('media_not_found');
  });

  it('falls back to the second host when the first is too slow', async () => {
    primary.inject({ delayMs: 3_000 });
    const response = await get('/api/genres/tv');
    expect(response.statusCode).toBe(200);
    expect(fallback.requestsTo('/genre/tv/list')).toHaveLength(1);
  });

  it('reports TMDB outages and a refused key with their codes, without leaking the key', async () => {
    primary.inject({ status: 500 });
    fallback.inject({ status: 503 });
    const down = await get('/api/lists/tv/popular');
    expect(down.statusCode).toBe(503);
    expect(ApiErrorBody.parse(json(down)).code).toBe('metadata_unavailable');

    primary.reset();
    fallback.reset();
    primary.inject({ status: 401 });
    const refused = await get('/api/genres/movie');
    expect(refused.statusCode).toBe(502);
    expect(ApiErrorBody.parse(json(refused)).code).toBe('metadata_auth_failed');
    expect(refused.body).not.toContain(FAKE_TMDB_READ_TOKEN);

    primary.reset();
    primary.inject({ status: 429 });
    const limited = await get('/api/discover/movie?genre=28');
    expect(limited.statusCode).toBe(503);
    expect(ApiErrorBody.parse(json(limited)).code).toBe('metadata_rate_limited');
  });

  it('proxies TMDB images through our origin without sending the key to the image host', async () => {
    const response = await get('/api/images/w342/abc123XYZ.jpg');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.rawPayload.equals(FAKE_IMAGE_BYTES)).toBe(true);
    const [request] = primary.requestsTo('/t/p/');
    expect(request?.path).toBe('/t/p/w342/abc123XYZ.jpg');
    expect(request?.headers.authorization).toBeUndefined();
    expect(request?.query).toEqual({});
    expect((await get('/api/images/w342/missing-poster.jpg')).statusCode).toBe(404);
    // The sizes of a title page: cast photos, episode stills, provider logos, backdrops.
    for (const size of ['w185', 'w300', 'w92', 'w1280']) {
      expect((await get(`/api/images/${size}/abc123XYZ.jpg`)).statusCode, size).toBe(200);
    }
    expect(primary.requestsTo('/t/p/').map((r) => r.path.split('/')[3])).toEqual([
      'w342',
      'w342',
      'w185',
      'w300',
      'w92',
      'w1280',
    ]);
  });
});
