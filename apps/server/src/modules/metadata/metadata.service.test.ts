import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SEARCH_CACHE_SWEEP_MS, SEARCH_CACHE_TTL_MS } from './search-rules.ts';
import { FAKE_TMDB_V3_KEY, catalogData, withSearchExtras } from '../../../test/fake-tmdb.ts';
import { TMDB_MOVIE, TMDB_SHOW, TMDB_SPECIALS } from '../../../test/tmdb-title-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../../../test/test-database.ts';
import { AppError } from '../../errors.ts';
import { Catalog, catalogEpisodeId, catalogSeasonId, type CatalogShow } from './catalog/catalog.ts';
import { MetadataCacheRepository } from './metadata-cache.repository.ts';
import { MetadataService } from './metadata.service.ts';
import { TmdbClient } from './tmdb/tmdb.client.ts';
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
    expect(season.episodes.map((e) => [e.runtime, e.still])).toEqual([
      [50, null],
      [50, null],
      [50, null],
    ]);

    // Where the show is, by the clock (2025-03-01): S2E1 aired, S2E2 is next; no votes, no rating.
    expect(details).toMatchObject({
      status: 'returning',
      runtime: 50,
      rating: null,
      lastEpisode: { season: 2, episode: 1, title: 'Aired', airDate: '2025-02-20' },
      nextEpisode: { season: 2, episode: 2, title: 'Not yet', airDate: '2025-03-08' },
    });
    clock = Date.parse('2025-03-09T12:00:00Z');
    const later = await service(new Catalog({ movies: [], shows: [show] }, () => new Date(clock))).details(
      'tv',
      '424242',
    );
    // Everything dated has aired: whether the show ended, dates cannot tell.
    expect(later).toMatchObject({ status: null, nextEpisode: null, lastEpisode: { episode: 2 } });
    clock = Date.parse('2023-12-31T12:00:00Z');
    const before = await service(new Catalog({ movies: [], shows: [show] }, () => new Date(clock))).details(
      'tv',
      '424242',
    );
    expect(before).toMatchObject({ status: 'upcoming', lastEpisode: null, nextEpisode: { season: 1 } });
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

/** TMDB over HTTP answering `routes` (path below /3 → body), 404 with TMDB's error body for anything else. */
function tmdbAnswering(routes: Record<string, unknown>) {
  const requests: URL[] = [];
  const fetchStub = (async (input: string | URL | Request) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    requests.push(url);
    const body = routes[url.pathname.replace(/^\/3/, '')];
    return body === undefined
      ? Response.json(
          {
            success: false,
            status_code: 34,
            status_message: 'The resource you requested could not be found.',
          },
          { status: 404 },
        )
      : Response.json(body);
  }) as typeof fetch;
  const api = new TmdbClient({
    apiKey: FAKE_TMDB_V3_KEY,
    baseUrl: 'http://tmdb.test/3',
    fallbackUrl: 'http://mirror.test/3',
    timeoutMs: 2_000,
    fallbackTimeoutMs: 2_000,
    fetch: fetchStub,
  });
  return { api, requests };
}

describe('title pages from TMDB', () => {
  it('maps a movie from one call: rating, certification, billed cast, key crew, trailers, offers, more like it', async () => {
    const { api, requests } = tmdbAnswering({ '/movie/27205': TMDB_MOVIE });
    const movie = await service(api).details('movie', '27205');

    expect(requests).toHaveLength(1);
    expect(requests[0]?.pathname).toBe('/3/movie/27205');
    expect(requests[0]?.searchParams.get('append_to_response')?.split(',').sort()).toEqual(
      ['credits', 'external_ids', 'recommendations', 'release_dates', 'videos', 'watch/providers'].sort(),
    );
    expect(requests[0]?.searchParams.get('include_video_language')).toBe('en,null');

    expect(movie).toMatchObject({
      id: '27205',
      title: 'Inception',
      year: 2010,
      tagline: 'Your mind is the scene of the crime.',
      rating: { average: 8.369, count: 37012 },
      contentRating: 'PG-13',
      status: 'released',
      runtime: 148,
      imdbId: 'tt1375666',
      backdrop: '/api/images/w1280/s3TBrRGB1iav7gFOCNx3H31MoES.jpg',
      seasons: [],
      nextEpisode: null,
      lastEpisode: null,
    });

    // Twelve, in billing order (TMDB's list is not), photos through our proxy; an empty character is no role.
    expect(movie.cast).toHaveLength(12);
    expect(movie.cast.slice(0, 4)).toEqual([
      {
        id: '6193',
        name: 'Leonardo DiCaprio',
        role: 'Cobb',
        photo: '/api/images/w185/wo2hJpn04vbtmh0B9utCFdsQhxM.jpg',
      },
      {
        id: '24045',
        name: 'Joseph Gordon-Levitt',
        role: 'Arthur',
        photo: '/api/images/w185/4U9G4YwTlIEbAymBaseltS38eH4.jpg',
      },
      { id: '27578', name: 'Elliot Page', role: 'Ariadne', photo: null },
      { id: '90000', name: 'Supporting Actor 4', role: null, photo: '/api/images/w185/sa0.jpg' },
    ]);
    expect(movie.cast.map((c) => c.name)).not.toContain('Uncredited Extra');

    // One entry per person, jobs joined; producers and the cinematographer are not on the page.
    expect(movie.crew).toEqual([
      {
        id: '525',
        name: 'Christopher Nolan',
        role: 'Director, Screenplay',
        jobs: ['director', 'writer'],
        photo: '/api/images/w185/xuAIuYSmsUzKlUMBFGVZaWsY3DZ.jpg',
      },
      {
        id: '947',
        name: 'Hans Zimmer',
        role: 'Original Music Composer',
        jobs: ['composer'],
        photo: '/api/images/w185/tpQnDeHY15szIXvpnhlprufz4d.jpg',
      },
    ]);

    // Official first, trailers before teasers, newest first; no featurettes, no other sites; three at most.
    expect(movie.trailers).toEqual([
      { name: 'Official Trailer (Vimeo)', site: 'Vimeo', url: 'https://vimeo.com/12345678' },
      { name: 'Official Trailer', site: 'YouTube', url: 'https://www.youtube.com/watch?v=YoHD9XEInc0' },
      { name: 'Teaser', site: 'YouTube', url: 'https://www.youtube.com/watch?v=TeaserKey01' },
    ]);

    // A provider in several lists once, as its best kind: subscription, free, ads, rent, buy.
    expect(movie.watchProviders).toEqual({
      region: 'US',
      link: 'https://www.themoviedb.org/movie/27205-inception/watch?locale=US',
      providers: [
        { id: 1899, name: 'Max', logo: '/api/images/w92/6Ys6koDxgLX3sUwCFbJs5ISt8aa.jpg', kind: 'flatrate' },
        { id: 300, name: 'Pluto TV', logo: null, kind: 'ads' },
        { id: 2, name: 'Apple TV', logo: '/api/images/w92/9ghgSC0MA082EL6HLCW3GalykFD.jpg', kind: 'rent' },
        {
          id: 3,
          name: 'Google Play Movies',
          logo: '/api/images/w92/8z7rC8uIDaTM91X0ZfkRf04ydj2.jpg',
          kind: 'rent',
        },
      ],
    });

    expect(movie.recommendations).toHaveLength(12);
    expect(movie.recommendations.map((r) => r.id)).not.toContain('9000010');
    expect(movie.recommendations[0]).toEqual({
      id: '157336',
      type: 'movie',
      title: 'Interstellar',
      year: 2014,
      releaseDate: '2014-11-05',
      poster: '/api/images/w342/p157336.jpg',
    });
    expect(movie.recommendations[1]).toMatchObject({ id: '155', poster: null });
  });

  it("answers the certification and offers of the viewer's region, null where TMDB has none there", async () => {
    const { api, requests } = tmdbAnswering({ '/movie/27205': TMDB_MOVIE });
    const metadata = service(api);
    // Germany: the theatrical release has no certification, the Blu-ray has one.
    expect(await metadata.details('movie', '27205', 'en', 'DE')).toMatchObject({
      contentRating: '12',
      watchProviders: null,
    });
    // France: a release without certification. No fallback to another country's.
    expect(await metadata.details('movie', '27205', 'en', 'FR')).toMatchObject({
      contentRating: null,
      watchProviders: null,
    });
    expect(await metadata.details('movie', '27205', 'en', 'GB')).toMatchObject({
      contentRating: null,
      watchProviders: {
        region: 'GB',
        providers: [
          {
            id: 8,
            name: 'Netflix',
            logo: '/api/images/w92/pbpMk2JmcoNnQwx5JGpXngfoWtp.jpg',
            kind: 'flatrate',
          },
        ],
      },
    });
    // The same title in every region: the region is not sent to TMDB.
    expect(requests.every((r) => !r.searchParams.has('region') && !r.searchParams.has('watch_region'))).toBe(
      true,
    );
  });

  it('maps a show: whole-run cast, creators and composers, typical episode length, where it is', async () => {
    const { api, requests } = tmdbAnswering({ '/tv/95396': TMDB_SHOW });
    const show = await service(api).details('tv', '95396');
    // The details, then (the last aired episode is a finale) its season, which this TMDB does not have.
    expect(requests.map((r) => r.pathname)).toEqual(['/3/tv/95396', '/3/tv/95396/season/2']);
    expect(requests[0]?.searchParams.get('append_to_response')?.split(',').sort()).toEqual(
      [
        'aggregate_credits',
        'content_ratings',
        'external_ids',
        'recommendations',
        'videos',
        'watch/providers',
      ].sort(),
    );
    expect(show).toMatchObject({
      id: '95396',
      type: 'tv',
      title: 'Severance',
      tagline: null,
      rating: { average: 8.4, count: 2915 },
      contentRating: 'TV-MA',
      status: 'returning',
      // episode_run_time is empty and the season cannot be read: the last aired episode's length.
      runtime: 76,
      imdbId: 'tt11280740',
      lastEpisode: { season: 2, episode: 10, title: 'Cold Harbor', airDate: '2025-03-21' },
      nextEpisode: null,
    });
    expect(show.seasons.map((s) => [s.number, s.title, s.airDate])).toEqual([
      [0, 'Specials', null],
      [1, 'Season 1', '2022-02-17'],
      [2, 'Season 2', '2025-01-17'],
    ]);
    // The character played in most episodes.
    expect(show.cast.map((c) => [c.name, c.role])).toEqual([
      ['Adam Scott', 'Mark Scout'],
      ['Patricia Arquette', 'Harmony Cobel'],
      ['Britt Lower', null],
    ]);
    // Creators first; per-episode directors and writers are not the show's.
    expect(show.crew).toEqual([
      { id: '1868740', name: 'Dan Erickson', role: 'Creator', jobs: ['creator'], photo: null },
      {
        id: '1244469',
        name: 'Theodore Shapiro',
        role: 'Original Music Composer',
        jobs: ['composer'],
        photo: '/api/images/w185/ts.jpg',
      },
    ]);
    expect(show.trailers.map((t) => t.url)).toEqual([
      'https://www.youtube.com/watch?v=Season2Trlr',
      'https://www.youtube.com/watch?v=Season1Trlr',
      'https://www.youtube.com/watch?v=TeaserSev01',
    ]);
    expect(show.watchProviders?.providers).toEqual([
      {
        id: 350,
        name: 'Apple TV+',
        logo: '/api/images/w92/2E03IAZsX4ZaUqM7tXlctEPMGWS.jpg',
        kind: 'flatrate',
      },
    ]);
    expect(show.recommendations.map((r) => [r.id, r.type, r.poster])).toEqual([
      ['136315', 'tv', '/api/images/w342/tv136315.jpg'],
      ['1399', 'tv', null],
    ]);
  });

  it("puts trailers in the viewer's language first and asks TMDB for them and English ones", async () => {
    const { api, requests } = tmdbAnswering({ '/tv/95396': TMDB_SHOW });
    const metadata = service(api);
    const show = await metadata.details('tv', '95396', 'fr');
    expect(requests[0]?.searchParams.get('include_video_language')).toBe('fr,en,null');
    expect(show.trailers.map((t) => t.name)).toEqual([
      'Bande-annonce officielle',
      'Season 2 Official Trailer',
      'Official Trailer',
    ]);
    // A region with a page at TMDB but no offers has none; a region TMDB has no rating for has none.
    expect(await metadata.details('tv', '95396', 'en', 'NZ')).toMatchObject({
      watchProviders: null,
      contentRating: null,
    });
    expect((await metadata.details('tv', '95396', 'en', 'BR')).contentRating).toBeNull();
    expect((await metadata.details('tv', '95396', 'en', 'DE')).contentRating).toBe('16');
  });

  it('tells a show’s typical episode length and status from what TMDB gives', async () => {
    const episode = (runtime: number | null) => ({ ...TMDB_SHOW.last_episode_to_air, runtime });
    const variants = {
      1: { episode_run_time: [57, 60] },
      2: { episode_run_time: null, status: 'Ended' },
      3: {
        last_episode_to_air: episode(null),
        next_episode_to_air: {
          ...episode(50),
          episode_number: 1,
          season_number: 3,
          air_date: null,
          name: 'TBA',
        },
        status: 'In Production',
      },
      4: { last_episode_to_air: null, next_episode_to_air: null, status: 'Canceled' },
      5: { last_episode_to_air: episode(0), status: 'Planned' },
      6: { status: 'Pilot' },
      7: { status: 'Something New' },
    };
    const { api } = tmdbAnswering(
      Object.fromEntries(
        Object.entries(variants).map(([id, v]) => [`/tv/${id}`, { ...TMDB_SHOW, id: Number(id), ...v }]),
      ),
    );
    const metadata = service(api);
    const got = async (id: number) => {
      const d = await metadata.details('tv', String(id));
      return [d.runtime, d.status];
    };
    expect(await got(1)).toEqual([57, 'returning']);
    expect(await got(2)).toEqual([76, 'ended']);
    expect(await got(3)).toEqual([50, 'in_production']);
    expect((await metadata.details('tv', '3')).nextEpisode).toEqual({
      season: 3,
      episode: 1,
      title: 'TBA',
      airDate: null,
    });
    expect(await got(4)).toEqual([null, 'canceled']);
    expect(await got(5)).toEqual([null, 'planned']);
    expect(await got(6)).toEqual([76, 'in_production']);
    expect(await got(7)).toEqual([76, null]);
  });

  it("tells a show's episode length from its season when the last aired episode is a long finale", async () => {
    // Game of Thrones' finale runs 80 minutes; its episodes about an hour.
    const finale = { ...TMDB_SHOW.last_episode_to_air, runtime: 80, episode_type: 'finale' };
    const { api } = tmdbAnswering({
      '/tv/9': {
        ...TMDB_SHOW,
        id: 9,
        episode_run_time: [],
        last_episode_to_air: finale,
        next_episode_to_air: null,
      },
      [`/tv/9/season/${finale.season_number}`]: {
        id: 99,
        season_number: finale.season_number,
        name: 'Season 8',
        episodes: [54, 58, 82, 78, 80, 80].map((runtime, i) => ({
          id: 900 + i,
          episode_number: i + 1,
          name: `E${i + 1}`,
          runtime,
        })),
      },
    });
    expect((await service(api).details('tv', '9')).runtime).toBe(79);
    // A standard last episode is taken as it is (no season read).
    const { api: plain, requests } = tmdbAnswering({
      '/tv/10': {
        ...TMDB_SHOW,
        id: 10,
        episode_run_time: [],
        last_episode_to_air: { ...finale, runtime: 61, episode_type: 'standard' },
      },
    });
    expect((await service(plain).details('tv', '10')).runtime).toBe(61);
    expect(requests.some((r) => r.pathname.includes('/season/'))).toBe(false);
  });

  it('shows a title whose appended parts are missing, null or of an unexpected shape, without them', async () => {
    const {
      credits: _c,
      videos: _v,
      release_dates: _r,
      'watch/providers': _w,
      recommendations: _rec,
      ...bare
    } = TMDB_MOVIE;
    const { api } = tmdbAnswering({
      '/movie/1': {
        ...bare,
        id: 1,
        runtime: 0,
        vote_count: 0,
        vote_average: 0,
        tagline: null,
        status: 'Post Production',
      },
      '/movie/2': {
        ...TMDB_MOVIE,
        id: 2,
        credits: { cast: 'none', crew: null },
        videos: null,
        release_dates: { results: {} },
        'watch/providers': { results: [] },
        recommendations: { results: [{ id: 'x' }] },
        status: null,
        release_date: '',
      },
    });
    const metadata = service(api);
    const empty = {
      cast: [],
      crew: [],
      trailers: [],
      watchProviders: null,
      contentRating: null,
      recommendations: [],
    };
    expect(await metadata.details('movie', '1')).toMatchObject({
      ...empty,
      title: 'Inception',
      runtime: null,
      rating: null,
      tagline: null,
      status: 'upcoming',
    });
    expect(await metadata.details('movie', '2')).toMatchObject({
      ...empty,
      status: null,
      rating: { count: 37012 },
    });
  });

  it('maps a season’s episodes with their length and still, Specials (season 0) included', async () => {
    const { api } = tmdbAnswering({ '/tv/95396/season/0': TMDB_SPECIALS });
    const season = await service(api).season('95396', 0);
    expect(season).toEqual({
      id: '376000',
      number: 0,
      title: 'Specials',
      episodes: [
        {
          id: '3000001',
          number: 1,
          title: 'The You You Are',
          airDate: '2022-04-05',
          overview: 'A short from the Lumon handbook.',
          runtime: 4,
          still: '/api/images/w300/special1.jpg',
        },
        {
          id: '3000002',
          number: 2,
          title: 'Inside the Office',
          airDate: null,
          overview: null,
          runtime: null,
          still: null,
        },
      ],
    });
  });

  it('answers a season or title TMDB does not have as media_not_found (404), asking neither host again', async () => {
    const { api, requests } = tmdbAnswering({ '/tv/95396': TMDB_SHOW });
    const metadata = service(api);
    await expect(metadata.season('95396', 7)).rejects.toMatchObject({ status: 404, code: 'media_not_found' });
    await expect(metadata.details('movie', '27205')).rejects.toMatchObject({
      status: 404,
      code: 'media_not_found',
    });
    expect(requests.map((r) => `${r.host}${r.pathname}`)).toEqual([
      'tmdb.test/3/tv/95396/season/7',
      'tmdb.test/3/movie/27205',
    ]);
  });
});

describe('title pages from the embedded catalog', () => {
  it('fills what the catalog knows for a movie (rating, certification, status, runtime, titles like it) and nothing else', async () => {
    const data = catalogData();
    const matrix = data.movies.find((m) => m.id === 603)!;
    const movie = await service(catalog()).details('movie', '603');
    expect(movie).toMatchObject({
      rating: { average: matrix.vote_average, count: matrix.vote_count },
      status: 'released',
      runtime: matrix.runtime,
      tagline: null,
      contentRating: 'R',
      cast: [],
      crew: [],
      trailers: [],
      watchProviders: null,
      nextEpisode: null,
      lastEpisode: null,
    });
    // More like it: other films sharing its genres, those sharing the most first.
    const byId = new Map(data.movies.map((m) => [String(m.id), m]));
    const shared = movie.recommendations.map(
      (r) => byId.get(r.id)!.genre_ids.filter((g) => matrix.genre_ids.includes(g)).length,
    );
    expect(movie.recommendations).toHaveLength(12);
    expect(movie.recommendations.every((r) => r.type === 'movie' && r.id !== '603')).toBe(true);
    expect(shared.every((n) => n > 0)).toBe(true);
    expect(shared).toEqual([...shared].sort((a, b) => b - a));
    const top = movie.recommendations.filter((_, i) => shared[i] === shared[0]).map((r) => byId.get(r.id)!);
    expect(top.map((m) => m.popularity)).toEqual([...top.map((m) => m.popularity)].sort((a, b) => b - a));
    expect(movie.recommendations[0]?.poster).toMatch(/^\/api\/images\/w342\/catalog\/movie-\d+\.svg$/);
  });

  it('calls a film dated after the clock upcoming, and a runtime of 0 unknown', async () => {
    const base = catalogData().movies.find((m) => m.id === 603)!;
    const film = {
      ...base,
      id: 777,
      title: 'Next Summer',
      release_date: '2025-07-01',
      runtime: 0,
      vote_count: 0,
    };
    const source = () => new Catalog({ movies: [film, base], shows: [] }, () => new Date(clock));
    expect(await service(source()).details('movie', '777')).toMatchObject({
      status: 'upcoming',
      runtime: null,
      rating: null,
      recommendations: [{ id: '603' }],
    });
    clock = Date.parse('2025-07-01T09:00:00Z');
    expect((await service(source()).details('movie', '777')).status).toBe('released');
  });

  it("gives a show's typical episode length as the median of its episodes', and shows like it", async () => {
    const show = await service(catalog()).details('tv', '1396');
    const data = catalogData().shows.find((s) => s.id === 1396)!;
    const runtimes = data.seasons
      .filter((s) => s.season_number > 0)
      .flatMap((s) => s.episodes.map((e) => e.runtime))
      .sort((a, b) => a - b);
    expect(show.runtime).toBe(runtimes[Math.floor(runtimes.length / 2)]);
    expect(show.rating).toEqual({ average: data.vote_average, count: data.vote_count });
    expect(show.lastEpisode).toMatchObject({ season: 5, episode: 16 });
    expect(show.recommendations.length).toBeGreaterThan(0);
    expect(show.recommendations.every((r) => r.type === 'tv' && r.id !== '1396')).toBe(true);
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

  it('has details at hand only once cached (never asking TMDB for them), expired ones included', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    expect(await metadata.detailsAtHand('movie', '603')).toBeNull();
    expect(calls.movie).toBeUndefined();
    const details = await metadata.details('movie', '603');
    expect(await metadata.detailsAtHand('movie', '603')).toEqual(details);
    clock = T0 + 48 * HOUR;
    expect(await metadata.detailsAtHand('movie', '603')).toEqual(details);
    expect(await metadata.detailsAtHand('movie', '603', 'fr')).toBeNull();
    expect(calls.movie).toBe(1);
    // The embedded catalog has every title of its own at hand.
    expect((await service(catalog()).detailsAtHand('movie', '603'))?.title).toBe('The Matrix');
    expect(await service(catalog()).detailsAtHand('movie', '999999991')).toBeNull();
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
      .where('key', '=', 'details:movie:603:en:US')
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

  /** The catalog as TMDB, until `fail` makes every call fail with that error. */
  function breakable() {
    const state: { fail: AppError | undefined } = { fail: undefined };
    const failing = new Proxy(catalog() as TmdbApi, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) =>
          state.fail
            ? Promise.reject(state.fail)
            : (value as (...a: unknown[]) => unknown).apply(target, args);
      },
    });
    return { ...counting(failing, 'tmdb'), state };
  }

  it.each([
    new AppError(503, 'metadata_unavailable', 'Failed to load metadata'),
    new AppError(503, 'metadata_rate_limited', 'Failed to load metadata', { retryAfterSeconds: 30 }),
    new AppError(502, 'metadata_bad_answer', 'Failed to load metadata'),
  ])('serves an expired answer instead of the error when TMDB fails ($code)', async (failure) => {
    const source = breakable();
    const metadata = service(source.api, new MetadataCacheRepository(database.db));
    const details = await metadata.details('movie', '603');
    const season = await metadata.season('1399', 1);
    const list = await metadata.list('movie', 'popular');

    clock = T0 + 30 * HOUR;
    source.state.fail = failure;
    expect(await metadata.details('movie', '603')).toEqual(details);
    expect(await metadata.season('1399', 1)).toEqual(season);
    expect(await metadata.list('movie', 'popular')).toEqual(list);
    // TMDB was asked (the answers had expired); the stale rows are left as they were.
    expect(source.calls.movie).toBe(2);
    const row = await database.db
      .selectFrom('metadata_cache')
      .select('expires_at')
      .where('key', 'like', 'details:movie:603:%')
      .executeTakeFirstOrThrow();
    expect(row.expires_at).toBe(T0 + 24 * HOUR);

    // Once TMDB answers again, the fresh answer replaces the stale one.
    source.state.fail = undefined;
    await metadata.details('movie', '603');
    const renewed = await database.db
      .selectFrom('metadata_cache')
      .select('expires_at')
      .where('key', 'like', 'details:movie:603:%')
      .executeTakeFirstOrThrow();
    expect(renewed.expires_at).toBe(T0 + 30 * HOUR + 24 * HOUR);
  });

  it('passes the error on when there is nothing stale to serve, or it is too old', async () => {
    const source = breakable();
    const metadata = service(source.api, new MetadataCacheRepository(database.db, 48 * HOUR));
    await metadata.details('movie', '603');
    source.state.fail = new AppError(503, 'metadata_unavailable', 'Failed to load metadata');
    await expect(metadata.details('movie', '155')).rejects.toMatchObject({ code: 'metadata_unavailable' });
    clock = T0 + 24 * HOUR + 48 * HOUR;
    await expect(metadata.details('movie', '603')).rejects.toMatchObject({ code: 'metadata_unavailable' });
  });

  it("passes TMDB's verdicts on instead of a stale answer (a title it no longer has)", async () => {
    const source = breakable();
    const metadata = service(source.api, new MetadataCacheRepository(database.db));
    await metadata.details('movie', '603');
    clock = T0 + 25 * HOUR;
    source.state.fail = new AppError(404, 'media_not_found', "Couldn't find that media");
    await expect(metadata.details('movie', '603')).rejects.toMatchObject({ code: 'media_not_found' });
  });

  it('remembers that an IMDb id is unknown, as a not-found answer', async () => {
    const { api, calls } = counting(catalog(), 'tmdb');
    const metadata = service(api, new MetadataCacheRepository(database.db));
    await expect(metadata.findByImdb('tt0000000001')).rejects.toMatchObject({ code: 'media_not_found' });
    await expect(metadata.findByImdb('tt0000000001')).rejects.toMatchObject({ code: 'media_not_found' });
    expect(calls.find).toBe(1);
  });
});
