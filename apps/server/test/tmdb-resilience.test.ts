import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { FAKE_TMDB_READ_TOKEN, type FakeTmdb, startFakeTmdbPair } from './fake-tmdb.ts';
import { createTestDatabase, testDialect, type TestDatabase } from './test-database.ts';

/*
 * Decision 082 through the HTTP API: one request's TMDB calls share one budget, so hung TMDB hosts give
 * the client a typed error within the budget (not after the sum of the hosts' timeouts); a TMDB 429 is
 * passed on with its Retry-After; an expired answer stands in while TMDB fails. The budget is short here
 * (production: 3 s primary, 7 s in all), the hosts really do not answer.
 */
const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-tmdb-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const BUDGET_MS = 700;

describe(`TMDB resilience through the API (${testDialect})`, () => {
  let primary: FakeTmdb;
  let fallback: FakeTmdb;
  let closeFakes: () => Promise<void>;
  let started: { inject: (url: string) => Promise<LightMyRequestResponse>; close: () => Promise<void> };
  let database: TestDatabase;

  beforeAll(async () => {
    ({ primary, fallback, close: closeFakes } = await startFakeTmdbPair());
  });
  afterAll(async () => {
    await closeFakes();
  });
  beforeEach(async () => {
    primary.reset();
    fallback.reset();
    database = await createTestDatabase(tmp);
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(tmp, 'data'),
      WEB_DIST_DIR: path.join(tmp, 'no-web-build'),
      TMDB_API_KEY: FAKE_TMDB_READ_TOKEN,
      TMDB_BASE_URL: primary.url,
      TMDB_FALLBACK_URL: fallback.url,
      TMDB_TIMEOUT_MS: '300',
      TMDB_FALLBACK_TIMEOUT_MS: '30000',
      TMDB_BUDGET_MS: String(BUDGET_MS),
    });
    const app = await buildApp(config, { database, logger: false });
    await app.server.ready();
    started = {
      inject: (url) => app.server.inject({ method: 'GET', url }),
      close: async () => {
        await app.server.close();
        await database.destroy();
      },
    };
  });
  afterEach(async () => {
    await started.close();
  });

  async function timed(url: string) {
    const begin = performance.now();
    const response = await started.inject(url);
    return { response, ms: performance.now() - begin };
  }

  it('answers 503 metadata_unavailable within the budget when both hosts hang (search and details)', async () => {
    primary.inject({ delayMs: 60_000 });
    fallback.inject({ delayMs: 60_000 });
    for (const url of ['/api/search?query=matrix&language=fr', '/api/media/movie/603?language=fr']) {
      const { response, ms } = await timed(url);
      expect(response.statusCode, url).toBe(503);
      expect(response.json(), url).toMatchObject({ code: 'metadata_unavailable' });
      expect(ms, url).toBeGreaterThanOrEqual(BUDGET_MS - 300);
      expect(ms, url).toBeLessThan(BUDGET_MS + 800);
    }
    // Each request asked each host once: no retries beyond the budget.
    expect(primary.requests).toHaveLength(2);
    expect(fallback.requests).toHaveLength(2);
  });

  it('shares the budget between the calls of one request (genres in French, then in English)', async () => {
    // French has no name for one movie genre (FAKE_UNNAMED_GENRE): the English list is asked next. The
    // primary hangs and the fallback answers in 200 ms: the French list arrives after 500 ms, and the
    // English one would take as long, more than the 200 ms left. Alone, it would have had a budget of its own.
    primary.inject({ delayMs: 60_000 });
    fallback.inject({ delayMs: 200 });
    const { response, ms } = await timed('/api/genres/movie?language=fr');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'metadata_unavailable' });
    expect(ms).toBeLessThan(BUDGET_MS + 300);
    expect(primary.requests.map((r) => r.query.language)).toEqual(['fr']);
    expect(fallback.requests.map((r) => r.query.language)).toEqual(['fr']);
  });

  it('serves the stale answer from the shared cache when TMDB fails after it expired', async () => {
    const fresh = await started.inject('/api/genres/tv');
    expect(fresh.statusCode).toBe(200);
    await database.db
      .updateTable('metadata_cache')
      .set({ expires_at: Date.now() - 1000 })
      .execute();
    primary.inject({ status: 503 });
    fallback.inject({ status: 503 });
    const stale = await started.inject('/api/genres/tv');
    expect(stale.statusCode).toBe(200);
    expect(stale.json()).toEqual(fresh.json());
    expect(fallback.requests).toHaveLength(1);
  });

  it('passes a TMDB 429 on as metadata_rate_limited with a Retry-After, without waiting for it', async () => {
    primary.inject({ status: 429 });
    const { response, ms } = await timed('/api/lists/movie/popular');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toMatchObject({ code: 'metadata_rate_limited' });
    expect(response.headers['retry-after']).toBe('1');
    expect(ms).toBeLessThan(BUDGET_MS);
    expect(primary.requests).toHaveLength(1);
    expect(fallback.requests).toHaveLength(0);
  });
});
