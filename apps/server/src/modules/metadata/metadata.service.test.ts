import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_CACHE_SWEEP_MS, SEARCH_CACHE_TTL_MS } from './search-rules.ts';
import { catalogData, withSearchExtras } from '../../../test/fake-tmdb.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { AppError } from '../../errors.ts';
import { Catalog, catalogEpisodeId, catalogSeasonId, type CatalogShow } from './catalog/catalog.ts';
import { MetadataCacheRepository } from './metadata-cache.repository.ts';
import { MetadataService } from './metadata.service.ts';
import type { TmdbApi } from './tmdb/tmdb.types.ts';

const HOUR = 3_600_000;
const T0 = Date.parse('2025-03-01T12:00:00Z');

type Method = Exclude<keyof TmdbApi, 'kind'>;

/** A source that counts its calls, so tests can tell a cache hit from a fetch. */
function counting(source: TmdbApi, kind: TmdbApi['kind'] = source.kind) {
  const calls: Partial<Record<Method, number>> = {};
  const api = new Proxy(source, {
    get(target, property, receiver) {
      if (property === 'kind') return kind;
      const value = Reflect.get(target, property, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls[property as Method] = (calls[property as Method] ?? 0) + 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { api, calls };
}

let clock = T0;
const services: MetadataService[] = [];
function service(api: TmdbApi, cache?: MetadataCacheRepository) {
  const created = new MetadataService({ api, ...(cache ? { cache } : {}), now: () => clock });
  services.push(created);
  return created;
}
const catalog = () => new Catalog(catalogData(), () => new Date(clock));

beforeEach(() => {
  clock = T0;
});
afterEach(() => {
  for (const s of services.splice(0)) s.close();
  vi.useRealTimers();
});

describe('search', () => {
  it('drops people and adult titles and puts titles without a poster last, otherwise in source order', async () => {
    const source = withSearchExtras(catalog());
    const raw = (await source.searchMulti('matrix')).results;
    expect(raw.some((r) => r.media_type === 'person')).toBe(true);
    expect(raw.some((r) => r.adult === true)).toBe(true);

    const results = await service(source).search('matrix');
    const ids = results.map((r) => r.id);
    expect(ids).not.toContain('6384');
    expect(ids).not.toContain('9000001');
    expect(results.every((r) => r.type === 'movie' || r.type === 'tv')).toBe(true);
    expect(results.at(-1)).toMatchObject({ id: '9000002', poster: null });
    const withPosters = raw
      .filter((r) => r.media_type !== 'person' && r.adult !== true && r.poster_path)
      .map((r) => String(r.id));
    expect(ids.slice(0, -1)).toEqual(withPosters);
    expect(results[0]).toMatchObject({ id: '603', type: 'movie', title: 'The Matrix', year: 1999 });
    expect(results[0]?.poster).toBe('/api/images/w342/catalog/movie-603.svg');
  });

  it('answers a repeated query from memory, whatever its case and spacing', async () => {
    const { api, calls } = counting(catalog());
    const metadata = service(api);
    const first = await metadata.search('Alien');
    expect(await metadata.search('  alien ')).toEqual(first);
    expect(await metadata.search('ALIEN')).toEqual(first);
    expect(calls.searchMulti).toBe(1);
    await metadata.search('aliens');
    expect(calls.searchMulti).toBe(2);
  });

  it('keeps a search answer for one hour', async () => {
    const { api, calls } = counting(catalog());
    const metadata = service(api);
    await metadata.search('inception');
    clock = T0 + SEARCH_CACHE_TTL_MS - 1;
    await metadata.search('inception');
    expect(calls.searchMulti).toBe(1);
    clock = T0 + SEARCH_CACHE_TTL_MS + 1;
    await metadata.search('inception');
    expect(calls.searchMulti).toBe(2);
  });

  it('sweeps expired answers every two minutes and keeps fresh ones', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const metadata = service(catalog());
    await metadata.search('old query');
    clock = T0 + 30 * 60_000;
    await metadata.search('fresh query');
    expect(metadata.searchCacheSize).toBe(2);

    clock = T0 + SEARCH_CACHE_TTL_MS + 1;
    vi.advanceTimersByTime(SEARCH_CACHE_SWEEP_MS - 1);
    expect(metadata.searchCacheSize).toBe(2);
    vi.advanceTimersByTime(1);
    expect(metadata.searchCacheSize).toBe(1);

    clock = T0 + 30 * 60_000 + SEARCH_CACHE_TTL_MS + 1;
    expect(metadata.sweepSearchCache()).toBe(1);
    expect(metadata.searchCacheSize).toBe(0);
  });

  it('stops sweeping when closed', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const metadata = service(catalog());
    expect(vi.getTimerCount()).toBe(1);
    metadata.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('does not cache a failed search', async () => {
    const source = catalog();
    let failures = 1;
    const flaky: TmdbApi = Object.assign(Object.create(source) as TmdbApi, {
      searchMulti: async (q: string) => {
        if (failures-- > 0) throw new AppError(503, 'metadata_unavailable', 'Failed to load metadata');
        return source.searchMulti(q);
      },
    });
    const metadata = service(flaky);
    await expect(metadata.search('matrix')).rejects.toMatchObject({ code: 'metadata_unavailable' });
    expect((await metadata.search('matrix')).length).toBeGreaterThan(0);
  });
});

describe('catalog search', () => {
  const ids = async (query: string) =>
    (await service(catalog()).search(query)).map((r) => `${r.type}:${r.id}`);

  it('finds Spider-Man however it is typed', async () => {
    for (const query of ['spiderman', 'Spider-Man', 'spider man', 'SPIDER-MAN']) {
      const found = await ids(query);
      expect(found[0], query).toBe('movie:557');
    }
  });

  it('finds a title by its full name first, then titles that start with it', async () => {
    const found = await ids('the dark knight');
    expect(found[0]).toBe('movie:155');
    expect(found).toContain('movie:49026');
    expect(await ids('dark knight')).toContain('movie:155');
    expect((await ids('The Matrix'))[0]).toBe('movie:603');
  });

  it('ignores accents in both directions', async () => {
    const movies = catalogData().movies.filter(
      (m) => m.title !== m.title.normalize('NFKD').replace(/\p{M}/gu, ''),
    );
    expect(movies.length).toBeGreaterThan(0);
    for (const movie of movies.slice(0, 5)) {
      const plain = movie.title.normalize('NFKD').replace(/\p{M}/gu, '');
      expect(await ids(plain), plain).toContain(`movie:${movie.id}`);
      expect(await ids(movie.title), movie.title).toContain(`movie:${movie.id}`);
    }
    if (catalogData().movies.some((m) => m.id === 194)) {
      expect((await ids('amelie'))[0]).toBe('movie:194');
      expect((await ids('Amélie'))[0]).toBe('movie:194');
    }
  });

  it('finds a title by its original name in another script', async () => {
    const foreign = catalogData().movies.filter((m) =>
      /[\u0370-\u1fff\u3040-\u9fff\uac00-\ud7af]/u.test(m.original_title),
    );
    expect(foreign.length).toBeGreaterThan(0);
    for (const movie of foreign.slice(0, 5)) {
      expect(await ids(movie.original_title), movie.original_title).toContain(`movie:${movie.id}`);
    }
  });

  it('finds shows too, and words in any position', async () => {
    expect((await ids('game of thrones'))[0]).toBe('tv:1399');
    expect(await ids('breaking bad')).toContain('tv:1396');
    expect(await ids('thrones')).toContain('tv:1399');
  });

  it('returns nothing for a query that matches nothing', async () => {
    expect(await ids('zzqxv no such title')).toEqual([]);
    expect(await ids('!!!')).toEqual([]);
  });
});

describe("the viewer's language (embedded catalog)", () => {
  const { titles, genres } = catalogData();
  const french = titles?.movie['278']?.fr as string;

  it("names well-known titles by their release title in the viewer's language, others in English", async () => {
    const metadata = service(catalog());
    expect((await metadata.details('movie', '278', 'fr')).title).toBe(french);
    expect((await metadata.details('movie', '278')).title).toBe('The Shawshank Redemption');
    const popular = await metadata.list('movie', 'popular', 'fr');
    for (const card of popular) {
      expect(card.title).toBe(
        titles?.movie[card.id]?.fr ?? catalogData().movies.find((m) => String(m.id) === card.id)?.title,
      );
    }
  });

  it('finds a title by its translated name, first for a viewer of that language', async () => {
    const metadata = service(catalog());
    const hits = await metadata.search(french.toUpperCase(), 'fr');
    expect(hits[0]).toMatchObject({ id: '278', title: french });
    // Another viewer typing the French title finds it too, under the title they read.
    expect((await metadata.search(french, 'en'))[0]).toMatchObject({
      id: '278',
      title: 'The Shawshank Redemption',
    });
  });

  it("names genres in the viewer's language", async () => {
    const metadata = service(catalog());
    const list = await metadata.genres('tv', 'ja');
    expect(list.find((g) => g.id === 18)?.name).toBe(genres?.tv['18']?.ja);
    expect((await metadata.details('movie', '278', 'ja')).genres.map((g) => g.name)).toContain(
      genres?.movie['18']?.ja,
    );
  });
});

describe('details and seasons', () => {
  it('maps a movie', async () => {
    const movie = await service(catalog()).details('movie', '603');
    expect(movie).toMatchObject({
      id: '603',
      type: 'movie',
      title: 'The Matrix',
      year: 1999,
      poster: '/api/images/w342/catalog/movie-603.svg',
      imdbId: 'tt0133093',
      seasons: [],
    });
    expect(movie.releaseDate).toMatch(/^1999-\d\d-\d\d$/);
    expect(movie.genres).toContainEqual({ id: 878, name: 'Science Fiction' });
    expect(movie.runtime).toBeGreaterThan(100);
    expect(movie.overview).toEqual(expect.any(String));
  });

  it('maps a show with its seasons, whose ids are the ones its season pages use', async () => {
    const metadata = service(catalog());
    const show = await metadata.details('tv', '1399');
    expect(show).toMatchObject({ id: '1399', type: 'tv', title: 'Game of Thrones', year: 2011 });
    expect(show.seasons.length).toBeGreaterThanOrEqual(8);
    expect(show.seasons.map((s) => s.number)).toEqual(
      [...show.seasons.map((s) => s.number)].sort((a, b) => a - b),
    );
    const first = show.seasons.find((s) => s.number === 1);
    expect(first).toMatchObject({ id: String(catalogSeasonId(1399, 1)), episodeCount: 10 });

    const season = await metadata.season('1399', 1);
    expect(season.id).toBe(first?.id);
    expect(season.episodes).toHaveLength(10);
    expect(season.episodes.map((e) => e.number)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(season.episodes[0]).toMatchObject({
      id: String(catalogEpisodeId(1399, 1, 1)),
      airDate: '2011-04-17',
    });
  });

  it('keeps unaired episodes with their future air dates, sorts episodes and seasons by number', async () => {
    const show: CatalogShow = {
      id: 424242,
      name: 'Future Show',
      original_name: 'Future Show',
      original_language: 'en',
      first_air_date: '2024-01-05',
      genre_ids: [18],
      overview: '',
      imdb_id: null,
      popularity: 1,
      vote_average: 0,
      vote_count: 0,
      adult: false,
      origin_country: ['GB'],
      seasons: [
        {
          season_number: 2,
          name: 'Season 2',
          air_date: '2025-02-20',
          episodes: [
            { episode_number: 2, name: 'Not yet', air_date: '2025-03-08', runtime: 50 },
            { episode_number: 1, name: 'Aired', air_date: '2025-02-20', runtime: 50 },
            { episode_number: 3, name: 'No date yet', air_date: '', runtime: 50 },
          ],
        },
        { season_number: 0, name: 'Specials', air_date: '', episodes: [] },
        {
          season_number: 1,
          name: 'Season 1',
          air_date: '2024-01-05',
          episodes: [{ episode_number: 1, name: 'Pilot', air_date: '2024-01-05', runtime: 50 }],
        },
      ],
    };
    const metadata = service(new Catalog({ movies: [], shows: [show] }, () => new Date(clock)));
    const details = await metadata.details('tv', '424242');
    expect(details.seasons.map((s) => [s.number, s.title, s.episodeCount, s.airDate])).toEqual([
      [0, 'Specials', 0, null],
      [1, 'Season 1', 1, '2024-01-05'],
      [2, 'Season 2', 3, '2025-02-20'],
    ]);
    expect(details.overview).toBeNull();
    expect(details.imdbId).toBeNull();
    const season = await metadata.season('424242', 2);
    expect(season.episodes.map((e) => [e.number, e.title, e.airDate])).toEqual([
      [1, 'Aired', '2025-02-20'],
      [2, 'Not yet', '2025-03-08'],
      [3, 'No date yet', null],
    ]);
  });

  it('answers media_not_found for unknown titles and seasons', async () => {
    const metadata = service(catalog());
    await expect(metadata.details('movie', '999999999')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
    await expect(metadata.details('tv', '603000000')).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(metadata.season('1399', 99)).rejects.toMatchObject({ code: 'media_not_found' });
  });

  it('resolves IMDb ids to movies and shows', async () => {
    const metadata = service(catalog());
    expect(await metadata.findByImdb('tt0133093')).toMatchObject({ id: '603', type: 'movie' });
    expect(await metadata.findByImdb('tt0944947')).toMatchObject({ id: '1399', type: 'tv' });
    await expect(metadata.findByImdb('tt0000000001')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
  });
});

describe('lists, genres and discover', () => {
  it('fills "in cinemas" with titles released by the injected date, newest first when none is recent', async () => {
    const movies = [...catalogData().movies].sort((a, b) => a.release_date.localeCompare(b.release_date));
    const latest = movies.at(-1)!;
    const day = (date: string, offset: number) => Date.parse(`${date}T12:00:00Z`) + offset * 86_400_000;

    clock = day(latest.release_date, 1);
    const after = await service(catalog()).list('movie', 'now_playing');
    expect(after.map((m) => m.id)).toContain(String(latest.id));
    expect(after.length).toBeLessThanOrEqual(20);

    clock = day(latest.release_date, -1);
    const before = await service(catalog()).list('movie', 'now_playing');
    expect(before.map((m) => m.id)).not.toContain(String(latest.id));
    for (const movie of before) expect(movie.releaseDate! <= latest.release_date).toBe(true);

    clock = Date.parse('2001-06-01T00:00:00Z');
    const in2001 = await service(catalog()).list('movie', 'now_playing');
    expect(in2001.length).toBeGreaterThan(0);
    for (const movie of in2001) expect(movie.releaseDate! <= '2001-06-01').toBe(true);
  });

  it('serves top rated and popular lists of movies and shows, but no "in cinemas" for shows', async () => {
    const metadata = service(catalog());
    for (const [type, list] of [
      ['movie', 'top_rated'],
      ['movie', 'popular'],
      ['tv', 'top_rated'],
      ['tv', 'popular'],
    ] as const) {
      const results = await metadata.list(type, list);
      expect(results.length, `${type} ${list}`).toBe(20);
      expect(results.every((r) => r.type === type)).toBe(true);
    }
    await expect(metadata.list('tv', 'now_playing')).rejects.toMatchObject({ status: 404 });
  });

  it('lists TMDB genres in TMDB order', async () => {
    const metadata = service(catalog());
    const movie = await metadata.genres('movie');
    expect(movie).toHaveLength(19);
    expect(movie.slice(0, 3)).toEqual([
      { id: 28, name: 'Action' },
      { id: 12, name: 'Adventure' },
      { id: 16, name: 'Animation' },
    ]);
    const tv = await metadata.genres('tv');
    expect(tv).toHaveLength(16);
    expect(tv[0]).toEqual({ id: 10759, name: 'Action & Adventure' });
  });

  it('discovers titles of a genre page by page', async () => {
    const metadata = service(catalog());
    const page1 = await metadata.discover('movie', 28, 1);
    const page2 = await metadata.discover('movie', 28, 2);
    expect(page1).toHaveLength(20);
    expect(page2.length).toBeGreaterThan(0);
    expect(page2.map((m) => m.id).some((id) => page1.some((m) => m.id === id))).toBe(false);
    const action = new Set(
      catalogData()
        .movies.filter((m) => m.genre_ids.includes(28))
        .map((m) => String(m.id)),
    );
    expect([...page1, ...page2].every((m) => action.has(m.id))).toBe(true);
    expect((await metadata.discover('tv', 18, 1)).every((s) => s.type === 'tv')).toBe(true);
    expect(await metadata.discover('movie', 28, 500)).toEqual([]);
  });
});

describe('shared cache of TMDB answers', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.destroy();
  });

  it('stores details in metadata_cache for 24 hours and serves them from there', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    const first = await metadata.details('movie', '603');
    expect(await metadata.details('movie', '603')).toEqual(first);
    expect(calls.movie).toBe(1);

    const row = await database.db
      .selectFrom('metadata_cache')
      .selectAll()
      .where('key', '=', 'details:movie:603:en')
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(T0 + 24 * HOUR);
    expect(JSON.parse(row.value)).toEqual(first);

    clock = T0 + 24 * HOUR - 1;
    await metadata.details('movie', '603');
    expect(calls.movie).toBe(1);
    clock = T0 + 24 * HOUR;
    await metadata.details('movie', '603');
    expect(calls.movie).toBe(2);
  });

  it('shares answers between server processes on one database', async () => {
    const a = counting(catalog(), 'tmdb');
    const b = counting(catalog(), 'tmdb');
    const first = service(a.api, new MetadataCacheRepository(database.db));
    const second = service(b.api, new MetadataCacheRepository(database.db));
    const season = await first.season('1399', 1);
    const genres = await first.genres('tv');
    expect(await second.season('1399', 1)).toEqual(season);
    expect(await second.genres('tv')).toEqual(genres);
    expect(b.calls.season ?? 0).toBe(0);
    expect(b.calls.genres ?? 0).toBe(0);
  });

  it('keeps lists one hour', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    await metadata.list('movie', 'popular');
    clock = T0 + HOUR - 1;
    await metadata.list('movie', 'popular');
    expect(calls.movieList).toBe(1);
    clock = T0 + HOUR;
    await metadata.list('movie', 'popular');
    expect(calls.movieList).toBe(2);
  });

  it('does not cache failures', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    await expect(metadata.details('movie', '999999999')).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(metadata.details('movie', '999999999')).rejects.toMatchObject({ code: 'media_not_found' });
    expect(calls.movie).toBe(2);
    const rows = await database.db.selectFrom('metadata_cache').select('key').execute();
    expect(rows).toEqual([]);
  });

  it('remembers that an IMDb id is unknown, as a not-found answer', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    await expect(metadata.findByImdb('tt0000000001')).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(metadata.findByImdb('tt0000000001')).rejects.toMatchObject({ code: 'media_not_found' });
    expect(calls.find).toBe(1);
  });
});
