import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  MATCH_MAX_ITEMS,
  type MatchItem,
  type MatchResponse,
  type MatchResult,
  type UiLanguage,
} from '@marquee/contract';
import { catalogEpisodeId, catalogSeasonId } from '../src/modules/metadata/catalog/catalog.ts';
import { FAKE_TMDB_READ_TOKEN, type FakeTmdb, startFakeTmdbPair } from './fake-tmdb.ts';
import { movieMeta, register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * POST /api/match (decision 098) through the real app: TMDB (the local fake, answering from the embedded
 * catalog in TMDB's shapes) or the embedded catalog itself, on SQLite or PostgreSQL (+ Redis when set).
 */

const BREAKING_BAD = 1396;
const episodeOf = (season: number, number: number, title: string) => ({
  seasonId: String(catalogSeasonId(BREAKING_BAD, season)),
  seasonNumber: season,
  seasonTitle: `Season ${season}`,
  id: String(catalogEpisodeId(BREAKING_BAD, season, number)),
  number,
  title,
});

const item = (key: string, title: string, extra: Partial<MatchItem> = {}): MatchItem => ({
  key,
  title,
  ...extra,
});

/** Netflix-style rows of one show: numbers where the file has them, else titles (with or without a season). */
const breakingBad = item('bb', 'Breaking Bad', {
  year: 2008,
  type: 'tv',
  episodes: [
    { season: 1, number: 1 },
    { season: 1, title: "Cat's in the Bag..." },
    { title: 'gray matter' },
    { season: 2, title: 'GRILLED' },
    { season: 1, number: 99 },
    { season: 42, number: 1 },
  ],
});
const breakingBadEpisodes = [
  episodeOf(1, 1, 'Pilot'),
  episodeOf(1, 2, "Cat's in the Bag..."),
  episodeOf(1, 5, 'Gray Matter'),
  episodeOf(2, 2, 'Grilled'),
  null,
  null,
];

async function match(
  t: SyncTestApp,
  items: unknown[],
  options: { language?: UiLanguage; headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  return t.server.inject({
    method: 'POST',
    url: `/api/match${options.language ? `?language=${options.language}` : ''}`,
    payload: { items },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

async function results(t: SyncTestApp, items: unknown[], language?: UiLanguage): Promise<MatchResult[]> {
  const res = await match(t, items, language ? { language } : {});
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as MatchResponse).results;
}

const byKey = (list: MatchResult[]) => Object.fromEntries(list.map((r) => [r.key, r]));

describe(`title matching through the API with TMDB (${testDialect})`, () => {
  let primary: FakeTmdb;
  let fallback: FakeTmdb;
  let closeFakes: () => Promise<void>;
  const apps: SyncTestApp[] = [];

  const start = async (rateLimits?: { title_match: { points: number; durationMs: number } }) => {
    const t = await startSyncApp({
      env: {
        TMDB_API_KEY: FAKE_TMDB_READ_TOKEN,
        TMDB_BASE_URL: primary.url,
        TMDB_FALLBACK_URL: fallback.url,
        TMDB_IMAGE_URL: primary.imageUrl,
        TMDB_TIMEOUT_MS: '1000',
        TMDB_FALLBACK_TIMEOUT_MS: '1000',
        TMDB_BUDGET_MS: '3000',
      },
      ...(rateLimits ? { deps: { accounts: { rateLimits } } } : {}),
    });
    apps.push(t);
    return t;
  };

  beforeAll(async () => {
    ({ primary, fallback, close: closeFakes } = await startFakeTmdbPair());
  });
  afterEach(async () => {
    primary.reset();
    fallback.reset();
    for (const t of apps.splice(0)) await t.close();
  });
  afterAll(async () => closeFakes());

  it('matches by IMDb id, TMDB id and type, title and year (a year off too); is unsure or finds nothing', async () => {
    const t = await start();
    const list = await results(t, [
      item('imdb', 'Matrix, The', { imdbId: 'tt0133093' }),
      item('tmdb', 'Fargo', { type: 'tv', tmdbId: '60622' }),
      item('year', 'The Lion King', { year: 2019 }),
      item('festival', 'Dune', { year: 2020, type: 'movie' }),
      item('remake', 'the lion king'),
      item('fargo', 'Fargo'),
      item('untyped', 'Fargo', { tmdbId: '60622' }),
      item('none', 'Qwxzy Plorbnak'),
    ]);
    expect(list.map((r) => r.key)).toEqual([
      'imdb',
      'tmdb',
      'year',
      'festival',
      'remake',
      'fargo',
      'untyped',
      'none',
    ]);
    const r = byKey(list);
    expect(r.imdb).toMatchObject({
      status: 'matched',
      match: { id: '603', type: 'movie', title: 'The Matrix' },
    });
    expect(r.tmdb).toMatchObject({ status: 'matched', match: { id: '60622', type: 'tv', year: 2014 } });
    expect(r.year).toMatchObject({ status: 'matched', match: { id: '420818', year: 2019 } });
    expect(r.festival).toMatchObject({ status: 'matched', match: { id: '438631', year: 2021 } });
    expect(r.remake!.status).toBe('unsure');
    // Both exact titles first, then those matching by words (Mufasa: The Lion King).
    expect(
      r
        .remake!.candidates.slice(0, 2)
        .map((c) => c.id)
        .sort(),
    ).toEqual(['420818', '8587']);
    expect(r.remake!.candidates.map((c) => c.id)).toContain('762509');
    expect(r.remake!.match).toEqual(r.remake!.candidates[0]);
    expect(r.fargo!.status).toBe('unsure');
    expect(r.fargo!.candidates.map((c) => `${c.type}:${c.id}`).sort()).toEqual(['movie:275', 'tv:60622']);
    // A TMDB id without a type is not trusted alone (movie and show ids overlap): the title's results
    // are searched, and the one with that id is the match.
    expect(r.untyped).toMatchObject({ status: 'matched', match: { id: '60622', type: 'tv' } });
    expect(r.none).toEqual({ key: 'none', status: 'unmatched', match: null, candidates: [], episodes: [] });
    for (const result of list) {
      expect(result.candidates.length).toBeLessThanOrEqual(5);
      expect(result.episodes).toEqual([]);
    }
    expect(primary.requestsTo('/find/').map((q) => q.path)).toEqual(['/find/tt0133093']);
    expect(primary.requestsTo('/movie/').map((q) => q.path)).toEqual([]);
  });

  it('finds the episodes asked for by number and by title (Netflix style), none for a movie', async () => {
    const t = await start();
    const [show, movie] = await results(t, [
      breakingBad,
      item('movie', 'Inception', { year: 2010, episodes: [{ season: 1, number: 1 }] }),
    ]);
    expect(show).toMatchObject({
      key: 'bb',
      status: 'matched',
      match: { id: String(BREAKING_BAD), type: 'tv' },
    });
    expect(show!.episodes).toEqual(breakingBadEpisodes);
    expect(movie).toMatchObject({ status: 'matched', match: { id: '27205' }, episodes: [null] });
    // Each season once: 1 and 2 for the numbers and titles, every season for the title without one.
    const seasons = primary.requestsTo(`/tv/${BREAKING_BAD}/season/`).map((q) => q.path);
    expect(new Set(seasons).size).toBe(seasons.length);
  });

  it('searches in the viewer’s language when English finds no such title', async () => {
    const t = await start();
    const [unforgiven] = await results(t, [item('fr', 'Impitoyable', { year: 1992 })], 'fr');
    expect(unforgiven).toMatchObject({ status: 'matched', match: { id: '33', title: 'Impitoyable' } });
    expect(primary.requestsTo('/search/multi').map((q) => q.query.language)).toEqual(['en-US', 'fr']);
  });

  it('answers 200 with the titles TMDB could not be asked about as failed', async () => {
    const t = await start();
    primary.inject({ status: 503 }, { path: '/search/multi' });
    fallback.inject({ status: 503 }, { path: '/search/multi' });
    const partly = await results(t, [
      item('imdb', 'The Matrix', { imdbId: 'tt0133093' }),
      item('title', 'Inception', { year: 2010, episodes: [{ season: 1, number: 1 }] }),
    ]);
    expect(partly.map((r) => [r.key, r.status])).toEqual([
      ['imdb', 'matched'],
      ['title', 'failed'],
    ]);
    expect(partly[1]).toEqual({
      key: 'title',
      status: 'failed',
      match: null,
      candidates: [],
      episodes: [null],
    });

    primary.inject({ status: 503 });
    fallback.inject({ status: 503 });
    const down = await results(t, [
      item('a', 'Alien', { year: 1979 }),
      breakingBad,
      item('c', 'X', { imdbId: 'tt1375666' }),
    ]);
    expect(down.map((r) => r.status)).toEqual(['failed', 'failed', 'failed']);
    expect(down[1]!.episodes).toEqual(breakingBadEpisodes.map(() => null));
  });

  it('refuses more than 25 titles, none, and bad ones, with the contract’s 400', async () => {
    const t = await start();
    expect(MATCH_MAX_ITEMS).toBe(25);
    const many = Array.from({ length: MATCH_MAX_ITEMS + 1 }, (_, i) => item(String(i), 'Dune'));
    for (const items of [
      many,
      [],
      [item('a', '   ')],
      [item('a', 'Dune', { year: 1869 })],
      [{ ...item('a', 'Dune'), tmdbId: '12x' }],
      [{ ...item('a', 'Dune'), imdbId: '0133093' }],
      [item('a', 'Dune', { episodes: Array.from({ length: 401 }, () => ({ season: 1, number: 1 })) })],
    ]) {
      const res = await match(t, items);
      expect(res.statusCode, JSON.stringify(items).slice(0, 100)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_failed' });
    }
    expect(primary.requests).toHaveLength(0);
    const full = await results(t, many.slice(0, MATCH_MAX_ITEMS));
    expect(full.map((r) => r.key)).toEqual(many.slice(0, MATCH_MAX_ITEMS).map((i) => i.key));
  });

  it('limits requests per client address: 429 with Retry-After, other addresses unaffected', async () => {
    const t = await start({ title_match: { points: 2, durationMs: 60_000 } });
    const one = [item('a', 'Inception', { year: 2010 })];
    for (let i = 0; i < 2; i++) expect((await match(t, one)).statusCode).toBe(200);
    const refused = await match(t, one);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await match(t, one, { remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
  });

  it('needs no token and answers the same whoever asks (no user data)', async () => {
    const t = await start();
    const user = await register(t.server);
    await t.server.inject({
      method: 'POST',
      url: `/users/${user.user.id}/bookmarks/603`,
      headers: user.headers,
      payload: { meta: movieMeta() },
    });
    const items = [item('imdb', 'The Matrix', { imdbId: 'tt0133093' }), breakingBad];
    const anonymous = await match(t, items);
    const signedIn = await match(t, items, { headers: user.headers });
    const garbage = await match(t, items, { headers: { authorization: 'Bearer not-a-token' } });
    for (const res of [anonymous, signedIn, garbage]) {
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['set-cookie']).toBeUndefined();
      expect(res.body).not.toContain(user.user.id);
    }
    expect(signedIn.json()).toEqual(anonymous.json());
    expect(garbage.json()).toEqual(anonymous.json());
  });
});

describe(`title matching through the API with the embedded catalog (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp();
  });
  afterAll(async () => t.close());

  it('matches the same way without TMDB: ids, titles, episodes; an unknown IMDb id falls through to the title', async () => {
    expect(t.app.metadata.source).toBe('catalog');
    const list = await results(t, [
      item('imdb', 'The Matrix', { imdbId: 'tt0133093' }),
      item('unknown-imdb', 'Inception', { imdbId: 'tt9999999', year: 2010 }),
      item('tmdb', 'Dune', { type: 'movie', tmdbId: '438631' }),
      item('missing-tmdb', 'Dune', { type: 'movie', tmdbId: '9999999999', year: 2021 }),
      item('remake', 'The Lion King'),
      breakingBad,
      item('none', 'Qwxzy Plorbnak'),
    ]);
    expect(list.map((r) => [r.key, r.status, r.match?.id ?? null])).toEqual([
      ['imdb', 'matched', '603'],
      ['unknown-imdb', 'matched', '27205'],
      ['tmdb', 'matched', '438631'],
      ['missing-tmdb', 'matched', '438631'],
      ['remake', 'unsure', expect.any(String)],
      ['bb', 'matched', String(BREAKING_BAD)],
      ['none', 'unmatched', null],
    ]);
    expect(byKey(list).bb!.episodes).toEqual(breakingBadEpisodes);
  });
});
