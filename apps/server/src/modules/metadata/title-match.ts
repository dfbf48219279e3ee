/**
 * Matching titles from other services' exports (Letterboxd, IMDb, Netflix, Trakt, p-stream backups) to
 * TMDB before an import (decision 098): the rules that choose among a search's results and find episodes
 * (pure), and the batch that asks the metadata service for each title.
 */

import pLimit from 'p-limit';
import type {
  EpisodeMatch,
  MatchEpisodeQuery,
  MatchItem,
  MatchResult,
  MatchStatus,
  MediaSummary,
  SeasonDetails,
  TmdbType,
  UiLanguage,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import type { MetadataService } from './metadata.service.ts';
import { MatchTier, foldForSearch, nameTier, prepareSearch, type SearchText } from './search-rules.ts';

/** Titles of one request not started this long after it came are answered `failed` (each then has its TMDB budget). */
export const MATCH_DEADLINE_MS = 20_000;
/** Titles of one request matched at a time. */
export const MATCH_CONCURRENCY = 4;
export const MATCH_MAX_CANDIDATES = 5;

// ---- Choosing among a search's results ----

/** What a file says of a title. `tmdbId` here is one given without a type: preferred, not trusted alone. */
export interface WantedTitle {
  title: string;
  year?: number | undefined;
  type?: TmdbType | undefined;
  tmdbId?: string | undefined;
}

export type TitleStatus = Exclude<MatchStatus, 'failed'>;

export interface TitleChoice {
  status: TitleStatus;
  match: MediaSummary | null;
  candidates: MediaSummary[];
}

interface Candidate {
  summary: MediaSummary;
  /** Its place in the search's answer. */
  rank: number;
  exact: boolean;
  /** Years between it and the title wanted (0 when the file gives none). */
  yearOff: number;
}

/** What an unknown year counts as, in years off: after every known one. */
const UNKNOWN_YEAR_OFF = 10_000;

const UNMATCHED: TitleChoice = { status: 'unmatched', match: null, candidates: [] };

/**
 * How `title` matches the title wanted, by the search rules (search-rules.ts), down to `MatchTier.words`;
 * exact either way round, so "The Office" and "Office" are the same title.
 */
function titleTier(wanted: SearchText, title: string): MatchTier | undefined {
  const name = prepareSearch(title);
  const tier = nameTier(wanted, name, MatchTier.words);
  if (tier === MatchTier.exact || nameTier(name, wanted, MatchTier.words) === MatchTier.exact)
    return MatchTier.exact;
  return tier;
}

/** Whether two titles are the same by the search rules' exact tier (case, accents, punctuation, articles aside). */
export function isSameTitle(a: string, b: string): boolean {
  return titleTier(prepareSearch(a), b) === MatchTier.exact;
}

function yearOff(wanted: number | undefined, year: number | null): number {
  if (wanted === undefined) return 0;
  return year === null ? UNKNOWN_YEAR_OFF : Math.abs(year - wanted);
}

/**
 * The results that could be the title (of its type, matching at `MatchTier.words` or better), best guess
 * first: exact titles first, then the closest year, then the search's order.
 */
function candidatesFor(wanted: WantedTitle, results: readonly MediaSummary[]): Candidate[] {
  const query = prepareSearch(wanted.title);
  const found: Candidate[] = [];
  results.forEach((summary, rank) => {
    if (wanted.type && summary.type !== wanted.type) return;
    const tier = titleTier(query, summary.title);
    if (tier === undefined) return;
    found.push({
      summary,
      rank,
      exact: tier === MatchTier.exact,
      yearOff: yearOff(wanted.year, summary.year),
    });
  });
  return found.sort((a, b) => Number(b.exact) - Number(a.exact) || a.yearOff - b.yearOff || a.rank - b.rank);
}

const onlyOne = <T>(items: readonly T[]): T | undefined => (items.length === 1 ? items[0] : undefined);

/**
 * The candidate that is surely the title: the one with the id given (the title fitting); else the one
 * exact title of that year; else (no exact title of that year) the one exact title a year off — festival
 * and release years differ; else, without a year, the one exact title.
 */
function sureCandidate(wanted: WantedTitle, candidates: readonly Candidate[]): Candidate | undefined {
  const byId = wanted.tmdbId ? onlyOne(candidates.filter((c) => c.summary.id === wanted.tmdbId)) : undefined;
  if (byId) return byId;
  const exact = candidates.filter((c) => c.exact);
  if (wanted.year === undefined) return onlyOne(exact);
  const sameYear = exact.filter((c) => c.yearOff === 0);
  return sameYear.length > 0 ? onlyOne(sameYear) : onlyOne(exact.filter((c) => c.yearOff === 1));
}

/**
 * Which of a search's results is the title wanted: `matched` when one surely is (sureCandidate), else
 * `unsure` with the best guess when some could be, else `unmatched`. Candidates: up to 5, the match or
 * guess first.
 */
export function chooseMatch(wanted: WantedTitle, results: readonly MediaSummary[]): TitleChoice {
  const candidates = candidatesFor(wanted, results);
  if (candidates.length === 0) return UNMATCHED;
  const sure = sureCandidate(wanted, candidates);
  const ordered = sure ? [sure, ...candidates.filter((c) => c !== sure)] : candidates;
  const summaries = ordered.slice(0, MATCH_MAX_CANDIDATES).map((c) => c.summary);
  return { status: sure ? 'matched' : 'unsure', match: summaries[0] ?? null, candidates: summaries };
}

const STATUS_RANK: Record<TitleStatus, number> = { matched: 0, unsure: 1, unmatched: 2 };

/** The better of two choices (the first when they are as good). */
export function betterChoice(first: TitleChoice, second: TitleChoice): TitleChoice {
  return STATUS_RANK[second.status] < STATUS_RANK[first.status] ? second : first;
}

// ---- Finding episodes ----

/** Season numbers in the order a title or id is looked for across them: the seasons, then the specials (0). */
export function seasonSearchOrder(numbers: readonly number[]): number[] {
  return [...numbers].sort((a, b) => (a === 0 ? 1 : 0) - (b === 0 ? 1 : 0) || a - b);
}

function episodeMatch(season: SeasonDetails, episode: SeasonDetails['episodes'][number]): EpisodeMatch {
  return {
    seasonId: season.id,
    seasonNumber: season.number,
    seasonTitle: season.title,
    id: episode.id,
    number: episode.number,
    title: episode.title,
  };
}

function firstEpisode(
  seasons: readonly SeasonDetails[],
  test: (episode: SeasonDetails['episodes'][number]) => boolean,
): EpisodeMatch | null {
  for (const season of seasons) {
    const episode = season.episodes.find(test);
    if (episode) return episodeMatch(season, episode);
  }
  return null;
}

export const episodeByNumber = (season: SeasonDetails, number: number): EpisodeMatch | null =>
  firstEpisode([season], (e) => e.number === number);

/** The first episode (in the seasons' order) whose title folds to the same text; null for a title of no letters. */
export function episodeByTitle(seasons: readonly SeasonDetails[], title: string): EpisodeMatch | null {
  const folded = foldForSearch(title);
  return folded ? firstEpisode(seasons, (e) => foldForSearch(e.title) === folded) : null;
}

export const episodeById = (seasons: readonly SeasonDetails[], id: string): EpisodeMatch | null =>
  firstEpisode(seasons, (e) => e.id === id);

// ---- The batch ----

export type MatchMetadata = Pick<
  MetadataService,
  'search' | 'findByImdb' | 'details' | 'season' | 'withinBudget'
>;

/** The metadata service could not be asked (TMDB down, slow, refusing our key, or out of budget). */
const isUnavailable = (error: unknown) => error instanceof AppError && error.status >= 500;

/** The answer, or null for TMDB's "not found" and "bad request" verdicts (the next rule is tried). */
async function orNothing<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

const summaryOf = ({ id, type, title, year, releaseDate, poster }: MediaSummary): MediaSummary => ({
  id,
  type,
  title,
  year,
  releaseDate,
  poster,
});
const matched = (summary: MediaSummary): TitleChoice => ({
  status: 'matched',
  match: summaryOf(summary),
  candidates: [summaryOf(summary)],
});

/** The answer, or null when the metadata service has none or could not be asked. */
async function orNull<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
}

/**
 * The seasons one request looks into, each fetched at most once (null when it cannot be: its episodes are
 * not found, the title stays matched), and each show's season numbers (from its details).
 */
class SeasonsOfRequest {
  private readonly seasons = new Map<string, Promise<SeasonDetails | null>>();
  private readonly numbers = new Map<string, Promise<number[]>>();

  constructor(
    private readonly metadata: MatchMetadata,
    readonly language: UiLanguage,
  ) {}

  season(showId: string, number: number, language = this.language): Promise<SeasonDetails | null> {
    const key = `${showId}:${number}:${language}`;
    let season = this.seasons.get(key);
    if (!season) {
      season = orNull(this.metadata.season(showId, number, language));
      this.seasons.set(key, season);
    }
    return season;
  }

  /** The named season, or every season of the show (seasonSearchOrder) when none is named. */
  async seasonsOf(showId: string, number: number | undefined, language = this.language) {
    if (number !== undefined) return [await this.season(showId, number, language)].filter((s) => s !== null);
    let numbers = this.numbers.get(showId);
    if (!numbers) {
      numbers = orNull(this.metadata.details('tv', showId, this.language)).then((show) =>
        seasonSearchOrder(show?.seasons.map((s) => s.number) ?? []),
      );
      this.numbers.set(showId, numbers);
    }
    const seasons = await Promise.all((await numbers).map((n) => this.season(showId, n, language)));
    return seasons.filter((s) => s !== null);
  }
}

/**
 * One episode of a show: by number in the named season; else by title (in the named season, or across all;
 * in the viewer's language, then in English); else by TMDB id (likewise). Null when none is found.
 */
async function findEpisode(
  seasons: SeasonsOfRequest,
  showId: string,
  query: MatchEpisodeQuery,
): Promise<EpisodeMatch | null> {
  if (query.season !== undefined && query.number !== undefined) {
    const season = await seasons.season(showId, query.season);
    const found = season && episodeByNumber(season, query.number);
    if (found) return found;
  }
  if (query.title && foldForSearch(query.title)) {
    const found =
      episodeByTitle(await seasons.seasonsOf(showId, query.season), query.title) ??
      (seasons.language === 'en'
        ? null
        : episodeByTitle(await seasons.seasonsOf(showId, query.season, 'en'), query.title));
    if (found) return found;
  }
  if (query.tmdbId) return episodeById(await seasons.seasonsOf(showId, query.season), query.tmdbId);
  return null;
}

/** The title by its ids, then by a search in English (and in the viewer's language when English has no exact title). */
async function chooseTitle(
  metadata: MatchMetadata,
  item: MatchItem,
  language: UiLanguage,
): Promise<TitleChoice> {
  if (item.tmdbId && item.type) {
    const found = await orNothing(metadata.details(item.type, item.tmdbId, language));
    if (found) return matched(found);
  }
  if (item.imdbId) {
    const found = await orNothing(metadata.findByImdb(item.imdbId, language));
    if (found) return matched(found);
  }
  const wanted: WantedTitle = { title: item.title, year: item.year, type: item.type, tmdbId: item.tmdbId };
  const english = chooseMatch(wanted, (await orNothing(metadata.search(item.title, 'en'))) ?? []);
  if (language === 'en' || (english.match && isSameTitle(item.title, english.match.title))) return english;
  const local = chooseMatch(wanted, (await orNothing(metadata.search(item.title, language))) ?? []);
  return betterChoice(english, local);
}

const noEpisodes = (item: MatchItem) => (item.episodes ?? []).map(() => null);

const failed = (item: MatchItem): MatchResult => ({
  key: item.key,
  status: 'failed',
  match: null,
  candidates: [],
  episodes: noEpisodes(item),
});

async function matchItem(
  metadata: MatchMetadata,
  item: MatchItem,
  seasons: SeasonsOfRequest,
): Promise<MatchResult> {
  try {
    const choice = await chooseTitle(metadata, item, seasons.language);
    const show = choice.match?.type === 'tv' ? choice.match.id : undefined;
    const episodes = show
      ? await Promise.all((item.episodes ?? []).map((query) => findEpisode(seasons, show, query)))
      : noEpisodes(item);
    return { key: item.key, ...choice, episodes };
  } catch (error) {
    if (isUnavailable(error)) return failed(item);
    throw error;
  }
}

export interface MatchOptions {
  /** Monotonic clock in ms (default performance.now). */
  now?: () => number;
  deadlineMs?: number;
}

/**
 * Matches a batch of titles, in order: up to MATCH_CONCURRENCY at a time, each under a TMDB budget of its
 * own (decision 082). A title TMDB cannot be asked about, or not started by the deadline, is `failed`.
 */
export async function matchTitles(
  metadata: MatchMetadata,
  items: readonly MatchItem[],
  language: UiLanguage,
  options: MatchOptions = {},
): Promise<MatchResult[]> {
  const now = options.now ?? (() => performance.now());
  const deadline = now() + (options.deadlineMs ?? MATCH_DEADLINE_MS);
  const seasons = new SeasonsOfRequest(metadata, language);
  const limit = pLimit(MATCH_CONCURRENCY);
  return Promise.all(
    items.map((item) =>
      limit(() =>
        now() >= deadline ? failed(item) : metadata.withinBudget(() => matchItem(metadata, item, seasons)),
      ),
    ),
  );
}
