import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, scrapeQuery, type ScrapeMediaParams } from '@marquee/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { AppError } from '../src/errors.ts';
import { Catalog, loadCatalogData, type CatalogData } from '../src/modules/metadata/catalog/catalog.ts';
import type { TmdbApi } from '../src/modules/metadata/tmdb/tmdb.types.ts';
import { createTestDatabase, testDialect, type TestDatabase } from './test-database.ts';

/*
 * The scrape API refuses what is not out yet (issue 14): it looks the release date up in the metadata
 * (here the embedded catalog answering as TMDB does, with the app's clock pinned) and answers 403
 * media_unreleased before scraping. Released titles scrape as before. The check fails closed (issue 25,
 * item 10): media the metadata does not list answer 404 media_not_found, and while the metadata cannot
 * answer, 503 metadata_unavailable, unless its shared cache still holds the answer.
 */

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-release-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const NOW = new Date('2026-04-20T10:00:00Z');
const NO_DATE_MOVIE = 990_001;
const NO_DATE_SHOW = 990_002;
const FAILING_MOVIE = 990_003;

/** The embedded catalog plus a film without a date and a show whose first episode has none. */
function catalogData(): CatalogData {
  const data = loadCatalogData();
  const matrix = data.movies.find((m) => m.id === 603)!;
  const breakingBad = data.shows.find((s) => s.id === 1396)!;
  return {
    ...data,
    movies: [...data.movies, { ...matrix, id: NO_DATE_MOVIE, title: 'Undated Film', release_date: '' }],
    shows: [
      ...data.shows,
      {
        ...breakingBad,
        id: NO_DATE_SHOW,
        name: 'Undated Show',
        seasons: [
          {
            season_number: 1,
            name: 'Season 1',
            air_date: '',
            episodes: [
              { episode_number: 1, name: 'Pilot', air_date: '', runtime: 50 },
              { episode_number: 2, name: 'Two', air_date: '', runtime: 50 },
            ],
          },
        ],
      },
    ],
  };
}

const tmdbDown = () => new AppError(503, 'metadata_unavailable', 'Failed to load metadata');

/**
 * The catalog as TMDB: kind `tmdb`, so the metadata service keeps its answers in the shared cache (and
 * serves expired ones while TMDB fails, decision 082). FAILING_MOVIE always fails; while `outage` is set,
 * every call fails with it (TMDB down).
 */
class CatalogAsTmdb implements TmdbApi {
  readonly kind = 'tmdb' as const;
  outage: AppError | null = null;
  constructor(private readonly catalog: Catalog) {}
  private up(): void {
    if (this.outage) throw this.outage;
  }
  searchMulti: TmdbApi['searchMulti'] = async (...args) => {
    this.up();
    return this.catalog.searchMulti(...args);
  };
  movie: TmdbApi['movie'] = async (...args) => {
    if (args[0] === FAILING_MOVIE) throw tmdbDown();
    this.up();
    return this.catalog.movie(...args);
  };
  tv: TmdbApi['tv'] = async (...args) => {
    this.up();
    return this.catalog.tv(...args);
  };
  season: TmdbApi['season'] = async (...args) => {
    this.up();
    return this.catalog.season(...args);
  };
  find: TmdbApi['find'] = async (...args) => {
    this.up();
    return this.catalog.find(...args);
  };
  movieList: TmdbApi['movieList'] = async (...args) => {
    this.up();
    return this.catalog.movieList(...args);
  };
  tvList: TmdbApi['tvList'] = async (...args) => {
    this.up();
    return this.catalog.tvList(...args);
  };
  genres: TmdbApi['genres'] = async (...args) => {
    this.up();
    return this.catalog.genres(...args);
  };
  discoverMovies: TmdbApi['discoverMovies'] = async (...args) => {
    this.up();
    return this.catalog.discoverMovies(...args);
  };
  releaseDates: TmdbApi['releaseDates'] = async (id) => {
    this.up();
    return this.catalog.releaseDates(id);
  };
  contentRatings: TmdbApi['contentRatings'] = async (id) => {
    this.up();
    return this.catalog.contentRatings(id);
  };
  discoverTv: TmdbApi['discoverTv'] = async (...args) => {
    this.up();
    return this.catalog.discoverTv(...args);
  };
}

const movie = (tmdbId: string, title = 'Some title'): ScrapeMediaParams => ({ type: 'movie', title, tmdbId });
const episode = (tmdbId: string, season: number, number: number): ScrapeMediaParams => ({
  type: 'show',
  title: 'Some show',
  tmdbId,
  season: { number: season, tmdbId: '1' },
  episode: { number, tmdbId: '2' },
});

describe(`the scrape API and the release rule (${testDialect})`, () => {
  let now = NOW;
  let app: App;
  let database: TestDatabase;
  let base: string;
  let tmdb: CatalogAsTmdb;
  beforeAll(async () => {
    database = await createTestDatabase(tmp);
    const clock = () => now;
    tmdb = new CatalogAsTmdb(new Catalog(catalogData(), clock));
    app = await buildApp(
      loadConfig({
        LOG_LEVEL: 'silent',
        DATA_DIR: path.join(tmp, 'data'),
        WEB_DIST_DIR: path.join(tmp, 'x'),
      }),
      { database, logger: false, now: clock, metadataApi: tmdb },
    );
    base = await app.server.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app.server.close();
    await database.destroy();
  });

  async function scrape(media: ScrapeMediaParams, route: 'scrape' | 'scrape/source' = 'scrape') {
    const extra = route === 'scrape/source' ? { id: 'sample' } : {};
    const response = await fetch(`${base}/${route}?${new URLSearchParams(scrapeQuery(media, extra))}`);
    const text = await response.text();
    const json = response.headers.get('content-type')?.startsWith('application/json');
    return {
      status: response.status,
      error: json ? ApiErrorBody.parse(JSON.parse(text)) : null,
      text,
      retryAfter: response.headers.get('retry-after'),
    };
  }

  const ROUTES = ['scrape', 'scrape/source'] as const;

  /** Runs `work` with TMDB failing every call with `outage` and nothing in the shared cache. */
  async function whileTmdbIsDown(work: () => Promise<void>, outage = tmdbDown()) {
    tmdb.outage = outage;
    try {
      await work();
    } finally {
      tmdb.outage = null;
    }
  }
  const forgetCachedMetadata = () => database.db.deleteFrom('metadata_cache').execute();

  it('refuses a film whose release date is in the future, on both scrape routes', async () => {
    // The Odyssey: 2026-07-15 in the catalog.
    for (const route of ['scrape', 'scrape/source'] as const) {
      const { status, error } = await scrape(movie('1368337', 'The Odyssey'), route);
      expect(status).toBe(403);
      expect(error).toMatchObject({ code: 'media_unreleased' });
      expect(error?.message).toContain('2026-07-15');
    }
  });

  it('plays a film from its release day on (the rule is the day, not the hour)', async () => {
    // Michael: 2026-04-22.
    expect((await scrape(movie('936075', 'Michael'))).status).toBe(403);
    now = new Date('2026-04-22T00:00:01Z');
    try {
      const { status, text } = await scrape(movie('936075', 'Michael'));
      expect(status).toBe(200);
      expect(text).toContain('event: completed');
    } finally {
      now = NOW;
    }
  });

  it('refuses a film with no release date at all', async () => {
    const { status, error } = await scrape(movie(String(NO_DATE_MOVIE)));
    expect(status).toBe(403);
    expect(error?.code).toBe('media_unreleased');
  });

  it('refuses an episode that has not aired, or has no air date; an aired one of the same show plays', async () => {
    // The Simpsons season 38 starts 2026-09-27; season 1 aired in 1989.
    expect((await scrape(episode('456', 38, 1))).error?.code).toBe('media_unreleased');
    expect((await scrape(episode(String(NO_DATE_SHOW), 1, 1))).error?.code).toBe('media_unreleased');
    expect((await scrape(episode(String(NO_DATE_SHOW), 1, 2), 'scrape/source')).status).toBe(403);
    expect((await scrape(episode('456', 1, 1))).status).toBe(200);
  });

  it('keeps working for released titles, as the app family’s clients ask for them', async () => {
    // The query exactly as the family's clients build it (no Marquee extensions).
    const query =
      'type=show&title=Breaking%20Bad&releaseYear=2008&tmdbId=1396&seasonNumber=1&seasonTmdbId=3572&episodeNumber=2&episodeTmdbId=62086';
    const response = await fetch(`${base}/scrape?${query}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('event: completed');
    expect((await scrape(movie('603', 'The Matrix'))).status).toBe(200);
  });

  it('refuses a title the metadata does not have with 404 media_not_found, on both scrape routes', async () => {
    for (const route of ROUTES) {
      const unknownMovie = await scrape(movie('424242', 'Not Anywhere'), route);
      expect(unknownMovie.status, route).toBe(404);
      expect(unknownMovie.error, route).toMatchObject({ code: 'media_not_found' });
      expect(unknownMovie.error?.message, route).toContain('not in the metadata');
      // A show the metadata does not have, and a season a known show does not have.
      for (const media of [episode('424242', 1, 1), episode('1396', 99, 1)]) {
        const { status, error } = await scrape(media, route);
        expect(status, route).toBe(404);
        expect(error?.code, route).toBe('media_not_found');
      }
    }
  });

  it('refuses an episode number its season does not list with 404 media_not_found, on both routes', async () => {
    // Breaking Bad season 1 has 7 episodes.
    for (const route of ROUTES) {
      const { status, error } = await scrape(episode('1396', 1, 99), route);
      expect(status, route).toBe(404);
      expect(error).toMatchObject({
        code: 'media_not_found',
        message: 'This episode is not in the metadata',
      });
    }
    expect((await scrape(episode('1396', 1, 7))).status).toBe(200);
  });

  it('refuses with 503 and a Retry-After when TMDB is down and nothing is cached (an undated episode)', async () => {
    await forgetCachedMetadata();
    await whileTmdbIsDown(async () => {
      for (const route of ROUTES) {
        // With TMDB up this one is refused as unreleased: TMDB down must not open it.
        const { status, error, retryAfter } = await scrape(episode(String(NO_DATE_SHOW), 1, 2), route);
        expect(status, route).toBe(503);
        expect(error?.code, route).toBe('metadata_unavailable');
        expect(error?.message, route).toContain('cannot be checked right now');
        expect(retryAfter, route).toBe('30');
        // A movie, too (this one fails even with TMDB up).
        const down = await scrape(movie(String(FAILING_MOVIE)), route);
        expect(down.status, route).toBe(503);
        expect(down.retryAfter, route).toBe('30');
      }
    });
    expect((await scrape(episode(String(NO_DATE_SHOW), 1, 2))).error?.code).toBe('media_unreleased');
  });

  it('refuses a released episode while TMDB is down and nothing is cached: the release cannot be told', async () => {
    await forgetCachedMetadata();
    // TMDB rate limiting us: its Retry-After is passed on.
    const limited = new AppError(503, 'metadata_rate_limited', 'Failed to load metadata', {
      retryAfterSeconds: 7,
    });
    await whileTmdbIsDown(async () => {
      for (const route of ROUTES) {
        const { status, error, retryAfter } = await scrape(episode('1396', 2, 3), route);
        expect(status, route).toBe(503);
        expect(error?.code, route).toBe('metadata_unavailable');
        expect(retryAfter, route).toBe('7');
      }
    }, limited);
  });

  it('keeps scraping a released episode cached earlier while TMDB is down, even once the cache expired', async () => {
    await forgetCachedMetadata();
    expect((await scrape(episode('1396', 2, 1))).status).toBe(200);
    // The answer expired (kept for decision 082's stale stand-in).
    await database.db
      .updateTable('metadata_cache')
      .set({ expires_at: NOW.getTime() - 1000 })
      .execute();
    await whileTmdbIsDown(async () => {
      for (const route of ROUTES) {
        const cached = await scrape(episode('1396', 2, 1), route);
        expect(cached.status, route).toBe(200);
        expect(cached.text, route).toContain('event: completed');
        // Another episode of that season is in the same cached answer; a season never asked for is not.
        expect((await scrape(episode('1396', 2, 5), route)).status, route).toBe(200);
        expect((await scrape(episode('1396', 3, 1), route)).status, route).toBe(503);
      }
    });
  });
});
