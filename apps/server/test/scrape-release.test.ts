import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, scrapeQuery, type ScrapeMediaParams } from '@marquee/contract';
import { buildApp, type App } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { AppError } from '../src/errors.ts';
import { Catalog, loadCatalogData, type CatalogData } from '../src/modules/metadata/catalog/catalog.ts';
import { createTestDatabase, testDialect, type TestDatabase } from './test-database.ts';

/*
 * The scrape API refuses what is not out yet (issue 14): it looks the release date up in the metadata
 * (here the embedded catalog, with the app's clock pinned) and answers 403 media_unreleased before
 * scraping. Released titles, and titles the metadata does not know, scrape as before.
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

/** A metadata source that is down for one title: the scrape goes ahead (the providers decide). */
class FlakyCatalog extends Catalog {
  override async movie(id: number, language?: Parameters<Catalog['movie']>[1]) {
    if (id === FAILING_MOVIE) throw new AppError(503, 'metadata_unavailable', 'TMDB is down');
    return super.movie(id, language);
  }
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
  beforeAll(async () => {
    database = await createTestDatabase(tmp);
    const clock = () => now;
    app = await buildApp(
      loadConfig({
        LOG_LEVEL: 'silent',
        DATA_DIR: path.join(tmp, 'data'),
        WEB_DIST_DIR: path.join(tmp, 'x'),
      }),
      { database, logger: false, now: clock, metadataApi: new FlakyCatalog(catalogData(), clock) },
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
    return { status: response.status, error: json ? ApiErrorBody.parse(JSON.parse(text)) : null, text };
  }

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

  it('leaves titles the metadata does not know, or cannot answer for now, to the providers', async () => {
    const unknown = await scrape(movie('424242', 'Not Anywhere'));
    expect(unknown.status).toBe(200);
    const down = await scrape(movie(String(FAILING_MOVIE)));
    expect(down.status).toBe(200);
    // An episode number the season does not have: not known either.
    expect((await scrape(episode('1396', 1, 99))).status).toBe(200);
  });
});
