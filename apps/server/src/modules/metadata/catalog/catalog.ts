import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { MatchTier, matchTier, prepareSearch } from '../search-rules.ts';
import { TitleSearchIndex } from './search-index.ts';
import { AppError } from '../../../errors.ts';
import { CATALOG_DIR } from '../../../paths.ts';
import type { UiLanguage } from '@marquee/contract';
import type {
  TmdbApi,
  TmdbContentRatings,
  TmdbFindResult,
  TmdbGenreList,
  TmdbKind,
  TmdbListName,
  TmdbMovieDetails,
  TmdbMovieItem,
  TmdbMoviePage,
  TmdbMultiPage,
  TmdbReleaseDates,
  TmdbSeasonDetails,
  TmdbTvDetails,
  TmdbTvItem,
  TmdbTvPage,
} from '../tmdb/tmdb.types.ts';

export interface CatalogMovie {
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

export interface CatalogEpisode {
  episode_number: number;
  name: string;
  air_date: string;
  runtime: number;
}

export interface CatalogSeason {
  season_number: number;
  name: string;
  air_date: string;
  episodes: CatalogEpisode[];
}

export interface CatalogShow {
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
  seasons: CatalogSeason[];
}

export const MOVIE_GENRES: TmdbGenreList['genres'] = [
  { id: 28, name: 'Action' },
  { id: 12, name: 'Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 80, name: 'Crime' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 10751, name: 'Family' },
  { id: 14, name: 'Fantasy' },
  { id: 36, name: 'History' },
  { id: 27, name: 'Horror' },
  { id: 10402, name: 'Music' },
  { id: 9648, name: 'Mystery' },
  { id: 10749, name: 'Romance' },
  { id: 878, name: 'Science Fiction' },
  { id: 10770, name: 'TV Movie' },
  { id: 53, name: 'Thriller' },
  { id: 10752, name: 'War' },
  { id: 37, name: 'Western' },
];

export const TV_GENRES: TmdbGenreList['genres'] = [
  { id: 10759, name: 'Action & Adventure' },
  { id: 16, name: 'Animation' },
  { id: 35, name: 'Comedy' },
  { id: 80, name: 'Crime' },
  { id: 99, name: 'Documentary' },
  { id: 18, name: 'Drama' },
  { id: 10751, name: 'Family' },
  { id: 10762, name: 'Kids' },
  { id: 9648, name: 'Mystery' },
  { id: 10763, name: 'News' },
  { id: 10764, name: 'Reality' },
  { id: 10765, name: 'Sci-Fi & Fantasy' },
  { id: 10766, name: 'Soap' },
  { id: 10767, name: 'Talk' },
  { id: 10768, name: 'War & Politics' },
  { id: 37, name: 'Western' },
];

/**
 * Season and episode ids of the embedded catalog are derived, not TMDB's own (which the catalog does
 * not ship): stable, unique, and never confused with a show id because they are far larger.
 */
export const catalogSeasonId = (showId: number, seasonNumber: number) =>
  1_000_000_000 + showId * 1000 + seasonNumber;
export const catalogEpisodeId = (showId: number, seasonNumber: number, episodeNumber: number) =>
  catalogSeasonId(showId, seasonNumber) * 1000 + episodeNumber;

export const catalogPosterPath = (kind: TmdbKind, id: number) => `/catalog/${kind}-${id}.svg`;
/** The same artwork as the poster, wide and without the title (the image service draws both). */
export const catalogBackdropPath = (kind: TmdbKind, id: number) => `/catalog/${kind}-${id}-backdrop.svg`;

const PAGE_SIZE = 20;
const NOW_PLAYING_DAYS = 45;
const DAY_MS = 86_400_000;

function paginate<T>(items: T[], page: number) {
  const totalPages = Math.max(1, Math.ceil(items.length / PAGE_SIZE));
  return {
    page,
    results: items.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE),
    total_pages: totalPages,
    total_results: items.length,
  };
}

const notFound = () => new AppError(404, 'media_not_found', "Couldn't find that media");

/** Names by kind and TMDB id, then by UI language: `{ movie: { "278": { fr: "Les Évadés" } } }`. */
export type CatalogNames = Record<TmdbKind, Record<string, Partial<Record<UiLanguage, string>>>>;

export interface CatalogData {
  movies: CatalogMovie[];
  shows: CatalogShow[];
  /** Genre names in the UI languages (English ones are MOVIE_GENRES / TV_GENRES). */
  genres?: CatalogNames;
  /** Release titles of well-known titles in the languages they are known in. */
  titles?: CatalogNames;
  /** Age ratings by kind, TMDB id and country: `{ movie: { "603": { US: "R" } } }` (decision 106). */
  certifications?: CatalogCertifications;
}

export type CatalogCertifications = Record<TmdbKind, Record<string, Record<string, string>>>;

export function loadCatalogData(): CatalogData {
  const read = (name: string) => JSON.parse(readFileSync(path.join(CATALOG_DIR, name), 'utf8')) as unknown;
  // The translations are optional: a catalog without them reads in English.
  const names = (name: string) =>
    existsSync(path.join(CATALOG_DIR, name)) ? (read(name) as CatalogNames) : undefined;
  const genres = names('genres.json');
  const titles = names('titles.json');
  const certifications = existsSync(path.join(CATALOG_DIR, 'certifications.json'))
    ? (read('certifications.json') as CatalogCertifications)
    : undefined;
  return {
    movies: read('movies.json') as CatalogMovie[],
    shows: read('shows.json') as CatalogShow[],
    ...(genres ? { genres } : {}),
    ...(titles ? { titles } : {}),
    ...(certifications ? { certifications } : {}),
  };
}

/**
 * The embedded catalog as a TMDB-compatible source: same endpoints, same answer shapes, computed from
 * the shipped JSON. "In Cinemas" and release rules follow the injected clock, so the lists stay right
 * as time passes.
 */
export class Catalog implements TmdbApi {
  readonly kind = 'catalog' as const;
  private readonly movies: Map<number, CatalogMovie>;
  private readonly shows: Map<number, CatalogShow>;
  /** The search index; its title numbers are positions in `rankedTv` / `rankedId` (most popular first). */
  private readonly searchIndex: TitleSearchIndex;
  private readonly rankedTv: Uint8Array;
  private readonly rankedId: Int32Array;
  private readonly genreNames: CatalogNames;
  private readonly titles: CatalogNames;
  private readonly certifications: CatalogCertifications;

  constructor(
    data: CatalogData,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.movies = new Map(data.movies.map((m) => [m.id, m]));
    this.shows = new Map(data.shows.map((s) => [s.id, s]));
    this.genreNames = data.genres ?? { movie: {}, tv: {} };
    this.titles = data.titles ?? { movie: {}, tv: {} };
    this.certifications = data.certifications ?? { movie: {}, tv: {} };
    // A title is found by its English, original and translated titles (a French viewer types "Les Évadés").
    const otherTitles = (kind: TmdbKind, id: number) => Object.values(this.titles[kind][String(id)] ?? {});
    const entries = [
      ...data.movies.map((m) => ({
        kind: 'movie' as const,
        id: m.id,
        popularity: m.popularity,
        names: [m.title, m.original_title, ...otherTitles('movie', m.id)],
      })),
      ...data.shows.map((s) => ({
        kind: 'tv' as const,
        id: s.id,
        popularity: s.popularity,
        names: [s.name, s.original_name, ...otherTitles('tv', s.id)],
      })),
    ].sort((a, b) => b.popularity - a.popularity);
    this.rankedTv = Uint8Array.from(entries, (e) => Number(e.kind === 'tv'));
    this.rankedId = Int32Array.from(entries, (e) => e.id);
    this.searchIndex = new TitleSearchIndex(entries.map((e) => e.names));
  }

  get size() {
    return { movies: this.movies.size, shows: this.shows.size };
  }

  /** One page (20) of titles for `query`, ranked by the search rules (decision 081). */
  async searchMulti(query: string, language: UiLanguage = 'en'): Promise<TmdbMultiPage> {
    const results = this.searchIndex.search(query, PAGE_SIZE).map(({ entry }) => {
      const { kind, id } = this.rankedTitle(entry);
      return kind === 'movie'
        ? { ...this.movieItem(this.movies.get(id) as CatalogMovie, language), media_type: 'movie' as const }
        : { ...this.tvItem(this.shows.get(id) as CatalogShow, language), media_type: 'tv' as const };
    });
    return paginate(results, 1);
  }

  private rankedTitle(entry: number): { kind: TmdbKind; id: number } {
    return { kind: this.rankedTv[entry] ? 'tv' : 'movie', id: this.rankedId[entry] as number };
  }

  /**
   * What a query with typos most likely meant, from the catalog's titles: the name of the best title it
   * finds only by its typo tolerance ("godfathr" → "The Godfather"); undefined when it finds a title
   * without typos, or none.
   */
  correct(query: string): string | undefined {
    const [best] = this.searchIndex.search(query, 1);
    if (!best || best.tier < MatchTier.typo) return undefined;
    const { kind, id } = this.rankedTitle(best.entry);
    const q = prepareSearch(query);
    const item = kind === 'movie' ? this.movies.get(id) : undefined;
    const show = kind === 'tv' ? this.shows.get(id) : undefined;
    const names = item
      ? [item.title, item.original_title, ...Object.values(this.titles.movie[String(id)] ?? {})]
      : show
        ? [show.name, show.original_name, ...Object.values(this.titles.tv[String(id)] ?? {})]
        : [];
    return names.find((name) => matchTier(q, [prepareSearch(name)]) === best.tier);
  }

  async movie(id: number, language: UiLanguage = 'en'): Promise<TmdbMovieDetails> {
    const movie = this.movies.get(id);
    if (!movie) throw notFound();
    const genres = this.genreList('movie', language);
    return {
      ...this.movieItem(movie, language),
      imdb_id: movie.imdb_id,
      runtime: movie.runtime,
      genres: movie.genre_ids.map((g) => genres.find((x) => x.id === g)).filter((g) => g !== undefined),
      vote_average: movie.vote_average,
      vote_count: movie.vote_count,
      external_ids: { imdb_id: movie.imdb_id },
      release_dates: this.releaseDatesOf(id),
      // No status, credits, videos or offers: the catalog does not have them (the service tells released
      // from upcoming by the release date).
      recommendations: {
        results: recommended([...this.movies.values()], movie).map((m) => this.movieItem(m, language)),
      },
    };
  }

  async tv(id: number, language: UiLanguage = 'en'): Promise<TmdbTvDetails> {
    const show = this.shows.get(id);
    if (!show) throw notFound();
    const genres = this.genreList('tv', language);
    return {
      ...this.tvItem(show, language),
      genres: show.genre_ids.map((g) => genres.find((x) => x.id === g)).filter((g) => g !== undefined),
      episode_run_time: typicalRuntime(show),
      seasons: show.seasons.map((s) => ({
        id: catalogSeasonId(show.id, s.season_number),
        season_number: s.season_number,
        name: s.name,
        episode_count: s.episodes.length,
        air_date: s.air_date,
      })),
      vote_average: show.vote_average,
      vote_count: show.vote_count,
      ...this.episodesToAir(show),
      external_ids: { imdb_id: show.imdb_id },
      content_ratings: this.contentRatingsOf(id),
      recommendations: {
        results: recommended([...this.shows.values()], show).map((s) => this.tvItem(s, language)),
      },
    };
  }

  async releaseDates(id: number): Promise<TmdbReleaseDates> {
    if (!this.movies.has(id)) throw notFound();
    return this.releaseDatesOf(id);
  }

  async contentRatings(id: number): Promise<TmdbContentRatings> {
    if (!this.shows.has(id)) throw notFound();
    return this.contentRatingsOf(id);
  }

  /** A film's ratings as TMDB gives them: one theatrical release (type 3) per rated country. */
  private releaseDatesOf(id: number): TmdbReleaseDates {
    const rated = Object.entries(this.certifications.movie[String(id)] ?? {});
    return {
      results: rated.map(([country, certification]) => ({
        iso_3166_1: country,
        release_dates: [{ certification, type: 3, release_date: null }],
      })),
    };
  }

  private contentRatingsOf(id: number): TmdbContentRatings {
    const rated = Object.entries(this.certifications.tv[String(id)] ?? {});
    return { results: rated.map(([country, rating]) => ({ iso_3166_1: country, rating })) };
  }

  /** The last episode that aired by the clock's today and the next one dated after it (specials aside). */
  private episodesToAir(
    show: CatalogShow,
  ): Pick<TmdbTvDetails, 'last_episode_to_air' | 'next_episode_to_air'> {
    const today = this.today();
    const dated = show.seasons
      .filter((s) => s.season_number > 0)
      .flatMap((s) => s.episodes.filter((e) => e.air_date).map((e) => ({ season: s.season_number, e })))
      .sort(
        (a, b) =>
          a.e.air_date.localeCompare(b.e.air_date) ||
          a.season - b.season ||
          a.e.episode_number - b.e.episode_number,
      );
    const toAir = (hit: { season: number; e: CatalogEpisode } | undefined) =>
      hit
        ? {
            id: catalogEpisodeId(show.id, hit.season, hit.e.episode_number),
            episode_number: hit.e.episode_number,
            season_number: hit.season,
            name: hit.e.name,
            air_date: hit.e.air_date,
            runtime: hit.e.runtime,
            still_path: null,
          }
        : null;
    return {
      last_episode_to_air: toAir(dated.filter((d) => d.e.air_date <= today).at(-1)),
      next_episode_to_air: toAir(dated.find((d) => d.e.air_date > today)),
    };
  }

  async season(
    showId: number,
    seasonNumber: number,
    _language: UiLanguage = 'en',
  ): Promise<TmdbSeasonDetails> {
    const season = this.shows.get(showId)?.seasons.find((s) => s.season_number === seasonNumber);
    if (!season) throw notFound();
    return {
      id: catalogSeasonId(showId, seasonNumber),
      season_number: seasonNumber,
      name: season.name,
      air_date: season.air_date,
      episodes: season.episodes.map((e) => ({
        id: catalogEpisodeId(showId, seasonNumber, e.episode_number),
        episode_number: e.episode_number,
        season_number: seasonNumber,
        name: e.name,
        air_date: e.air_date,
        runtime: e.runtime,
        still_path: null,
      })),
    };
  }

  async find(imdbId: string, language: UiLanguage = 'en'): Promise<TmdbFindResult> {
    return {
      movie_results: [...this.movies.values()]
        .filter((m) => m.imdb_id === imdbId)
        .map((m) => this.movieItem(m, language)),
      tv_results: [...this.shows.values()]
        .filter((s) => s.imdb_id === imdbId)
        .map((s) => this.tvItem(s, language)),
    };
  }

  async movieList(list: TmdbListName, language: UiLanguage = 'en'): Promise<TmdbMoviePage> {
    const today = this.today();
    const released = [...this.movies.values()].filter((m) => m.release_date <= today);
    let items: CatalogMovie[];
    if (list === 'now_playing') {
      const from = new Date(this.now().getTime() - NOW_PLAYING_DAYS * DAY_MS).toISOString().slice(0, 10);
      const inCinemas = released.filter((m) => m.release_date >= from).sort(byPopularity);
      // Outside of a busy season there may be few; the most recent releases fill the row.
      const recent = released
        .filter((m) => m.release_date < from)
        .sort((a, b) => b.release_date.localeCompare(a.release_date));
      items = [...inCinemas, ...recent].slice(0, PAGE_SIZE);
    } else if (list === 'top_rated') {
      items = released.filter((m) => m.vote_count >= 200).sort(byRating);
    } else {
      items = [...this.movies.values()].sort(byPopularity);
    }
    return paginate(
      items.map((m) => this.movieItem(m, language)),
      1,
    );
  }

  async tvList(list: Exclude<TmdbListName, 'now_playing'>, language: UiLanguage = 'en'): Promise<TmdbTvPage> {
    const today = this.today();
    const shows = [...this.shows.values()].filter((s) => s.first_air_date <= today);
    const items =
      list === 'top_rated'
        ? shows.filter((s) => s.vote_count >= 100).sort(byRating)
        : shows.sort(byPopularity);
    return paginate(
      items.map((s) => this.tvItem(s, language)),
      1,
    );
  }

  async genres(kind: TmdbKind, language: UiLanguage = 'en'): Promise<TmdbGenreList> {
    return { genres: this.genreList(kind, language) };
  }

  async discoverMovies(genreId: number, page: number, language: UiLanguage = 'en'): Promise<TmdbMoviePage> {
    const items = [...this.movies.values()].filter((m) => m.genre_ids.includes(genreId)).sort(byPopularity);
    return paginate(
      items.map((m) => this.movieItem(m, language)),
      page,
    );
  }

  async discoverTv(genreId: number, page: number, language: UiLanguage = 'en'): Promise<TmdbTvPage> {
    const items = [...this.shows.values()].filter((s) => s.genre_ids.includes(genreId)).sort(byPopularity);
    return paginate(
      items.map((s) => this.tvItem(s, language)),
      page,
    );
  }

  /** The genres of a kind with their names in `language` (English where the catalog has none). */
  private genreList(kind: TmdbKind, language: UiLanguage = 'en'): TmdbGenreList['genres'] {
    return (kind === 'movie' ? MOVIE_GENRES : TV_GENRES).map((g) => ({
      id: g.id,
      name: this.genreNames[kind][String(g.id)]?.[language] ?? g.name,
    }));
  }

  /** A title's release title in `language`, when the catalog knows it. */
  private localTitle(kind: TmdbKind, id: number, language: UiLanguage = 'en'): string | undefined {
    return this.titles[kind][String(id)]?.[language];
  }

  private today() {
    return this.now().toISOString().slice(0, 10);
  }

  private movieItem(m: CatalogMovie, language: UiLanguage = 'en'): TmdbMovieItem {
    return {
      id: m.id,
      adult: m.adult,
      title: this.localTitle('movie', m.id, language) ?? m.title,
      poster_path: catalogPosterPath('movie', m.id),
      backdrop_path: catalogBackdropPath('movie', m.id),
      release_date: m.release_date,
      genre_ids: m.genre_ids,
      popularity: m.popularity,
      overview: m.overview,
    };
  }

  private tvItem(s: CatalogShow, language: UiLanguage = 'en'): TmdbTvItem {
    return {
      id: s.id,
      adult: s.adult,
      name: this.localTitle('tv', s.id, language) ?? s.name,
      poster_path: catalogPosterPath('tv', s.id),
      backdrop_path: catalogBackdropPath('tv', s.id),
      first_air_date: s.first_air_date,
      genre_ids: s.genre_ids,
      popularity: s.popularity,
      overview: s.overview,
    };
  }
}

const byPopularity = (a: { popularity: number }, b: { popularity: number }) => b.popularity - a.popularity;

/**
 * "More like this" from what the catalog knows: titles of the same kind sharing the most genres with
 * `title`, the more popular first (a page of TMDB's size).
 */
function recommended<T extends { id: number; genre_ids: number[]; popularity: number; adult: boolean }>(
  pool: readonly T[],
  title: T,
): T[] {
  const genres = new Set(title.genre_ids);
  return pool
    .filter((other) => other.id !== title.id && !other.adult)
    .map((other) => ({ other, shared: other.genre_ids.filter((g) => genres.has(g)).length }))
    .filter(({ shared }) => shared > 0)
    .sort((a, b) => b.shared - a.shared || b.other.popularity - a.other.popularity)
    .slice(0, PAGE_SIZE)
    .map(({ other }) => other);
}

/** A show's typical episode length: the median of its episodes' known runtimes (specials aside). */
function typicalRuntime(show: CatalogShow): number[] {
  const runtimes = show.seasons
    .filter((s) => s.season_number > 0)
    .flatMap((s) => s.episodes.map((e) => e.runtime))
    .filter((m) => m > 0)
    .sort((a, b) => a - b);
  if (runtimes.length === 0) return [];
  const mid = Math.floor(runtimes.length / 2);
  const median =
    runtimes.length % 2
      ? (runtimes[mid] as number)
      : ((runtimes[mid - 1] as number) + (runtimes[mid] as number)) / 2;
  return [Math.round(median)];
}
const byRating = (
  a: { vote_average: number; vote_count: number },
  b: { vote_average: number; vote_count: number },
) => b.vote_average - a.vote_average || b.vote_count - a.vote_count;

/**
 * The embedded catalog, read from disk on its first use rather than at start: a server that is not asked
 * for titles (a sync-only instance, one idling between visits) does not hold the parsed JSON and its index
 * (a few MiB of an idle process's ~80).
 */
export class LazyCatalog implements TmdbApi {
  readonly kind = 'catalog' as const;
  private loaded: Catalog | undefined;

  constructor(private readonly load: () => Catalog) {}

  private get catalog(): Catalog {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** How many titles it holds (reads it, as the admin self-test wants to know it loads). */
  get size() {
    return this.catalog.size;
  }

  searchMulti(query: string, language?: UiLanguage) {
    return this.catalog.searchMulti(query, language);
  }
  correct(query: string) {
    return this.catalog.correct(query);
  }
  movie(id: number, language?: UiLanguage) {
    return this.catalog.movie(id, language);
  }
  tv(id: number, language?: UiLanguage) {
    return this.catalog.tv(id, language);
  }
  season(showId: number, seasonNumber: number, language?: UiLanguage) {
    return this.catalog.season(showId, seasonNumber, language);
  }
  find(imdbId: string, language?: UiLanguage) {
    return this.catalog.find(imdbId, language);
  }
  movieList(list: TmdbListName, language?: UiLanguage) {
    return this.catalog.movieList(list, language);
  }
  tvList(list: Exclude<TmdbListName, 'now_playing'>, language?: UiLanguage) {
    return this.catalog.tvList(list, language);
  }
  genres(kind: TmdbKind, language?: UiLanguage) {
    return this.catalog.genres(kind, language);
  }
  discoverMovies(genreId: number, page: number, language?: UiLanguage) {
    return this.catalog.discoverMovies(genreId, page, language);
  }
  discoverTv(genreId: number, page: number, language?: UiLanguage) {
    return this.catalog.discoverTv(genreId, page, language);
  }
  releaseDates(id: number) {
    return this.catalog.releaseDates(id);
  }
  contentRatings(id: number) {
    return this.catalog.contentRatings(id);
  }
}
