/** The server's search rules: what a search answers, in which order, and how long it is cached. */

import { foldLetters } from '@marquee/contract';

export const SEARCH_CACHE_TTL_MS = 60 * 60 * 1000;
export const SEARCH_CACHE_SWEEP_MS = 2 * 60 * 1000;

export interface RawSearchHit {
  media_type?: string;
  adult?: boolean;
}

/** Drops adult results and everything that is not a movie or a show (people, collections). */
export function keepSearchable<T extends RawSearchHit>(hits: readonly T[]): T[] {
  return hits.filter((hit) => hit.adult !== true && (hit.media_type === 'movie' || hit.media_type === 'tv'));
}

/** Stable sort: results with a poster first, otherwise the order the source gave. */
export function postersFirst<T extends { poster: string | null }>(items: readonly T[]): T[] {
  return items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => Number(!a.item.poster) - Number(!b.item.poster) || a.index - b.index)
    .map(({ item }) => item);
}

/**
 * Folds case, accents and punctuation so "spiderman" matches "Spider-Man" and "amelie" "Amélie".
 * Letters of other scripts are kept (a Japanese or Cyrillic title stays searchable by its own name).
 */
export function foldForSearch(text: string): string {
  return foldLetters(text)
    .replace(/&/g, 'and')
    .replace(/[^\p{L}\p{N}]+/gu, '');
}

/** Cache key for a query: trimmed and case-folded so "  Alien " and "alien" share an entry. */
export function searchCacheKey(query: string): string {
  return query.trim().toLowerCase();
}

/*
 * Ranking (decision 081). A title matches a query in one of these tiers, best first; within a tier the more
 * popular title ranks first (with TMDB answers: titles with a poster before those without, then popularity).
 */
export const MatchTier = {
  /** The whole title, or the title without a leading "The"/"A"/"An": "godfather" → The Godfather. */
  exact: 0,
  /** The title starts with the query, which is at least half of it: "spider" → Spider-Man, Spider-Man 2. */
  near: 1,
  /** The title starts with the query: "spider" → Spider-Man: No Way Home. */
  prefix: 2,
  /**
   * A one-word query starts at a word of the title ("thrones"; "spiderman" in The Amazing Spider-Man); each
   * word of a longer query starts a word of the title, in any order.
   */
  words: 3,
  /** TMDB found it by a name its answer does not carry (an alternative title); never from the catalog. */
  source: 4,
  /**
   * Each query word is a word of the title within a few typos, and the query is the whole title within a
   * few typos ("godfathr" → The Godfather, "the godfathr" → The Godfather).
   */
  typo: 5,
  /** Each query word is a word of the title within a few typos ("godfathr" → Godfather of Harlem). */
  typoWords: 6,
} as const;
export type MatchTier = (typeof MatchTier)[keyof typeof MatchTier];

/** Leading words a title is also found without ("godfather" is The Godfather exactly). */
const ARTICLES = new Set(['the', 'a', 'an']);
/** Spaces, dashes, colons and slashes separate the words of a title. */
const WORD_SEPARATORS = /[\s\p{Pd}:/]+/u;
/** Scripts written without spaces: each character starts a word, so "神隠し" finds 千と千尋の神隠し. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}]/u;

/** The folded words of a title or query, in order ("Spider-Man: No Way Home" → spider man no way home). */
export function searchWords(text: string): string[] {
  const words: string[] = [];
  for (const part of foldLetters(text).replace(/&/g, 'and').split(WORD_SEPARATORS)) {
    const word = part.replace(/[^\p{L}\p{N}]+/gu, '');
    if (!word) continue;
    if (!UNSPACED.test(word)) {
      words.push(word);
      continue;
    }
    // A run of such characters splits into one word per character; other letters stay together.
    let run = '';
    for (const ch of word) {
      if (UNSPACED.test(ch)) {
        if (run) words.push(run);
        run = '';
        words.push(ch);
      } else run += ch;
    }
    if (run) words.push(run);
  }
  return words;
}

/** A title or query ready to compare: its words, and all of them joined ("spiderman"). */
export interface SearchText {
  words: readonly string[];
  compact: string;
  /** `compact` without a leading article, when it has one. */
  bare?: string;
}

export function searchText(words: readonly string[]): SearchText {
  const compact = words.join('');
  return words.length > 1 && ARTICLES.has(words[0] as string)
    ? { words, compact, bare: words.slice(1).join('') }
    : { words, compact };
}

export const prepareSearch = (text: string): SearchText => searchText(searchWords(text));

/** Typos tolerated in a query word: none under 4 letters, 1 up to 7, 2 from 8. */
export function maxTypos(length: number): number {
  return length < 4 ? 0 : length < 8 ? 1 : 2;
}

/** The edit distance's table rows, reused from call to call (grown for longer words). */
let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];

/**
 * Edit distance (insertions, deletions, substitutions and swaps of neighbours, each 1) between `a` and `b`,
 * or `max + 1` as soon as it is known to exceed `max`.
 */
export function editDistanceWithin(a: string, b: string, max: number): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const n = b.length;
  if (rows[0].length < n + 1) rows = [new Int32Array(n + 1), new Int32Array(n + 1), new Int32Array(n + 1)];
  // Three rows of the table, reused: the one before the previous (for swaps), the previous, the current.
  let [before, previous, current] = rows;
  for (let j = 0; j <= n; j++) previous[j] = j;
  for (let i = 1; i <= a.length; i++) {
    current[0] = i;
    let rowMin = i;
    const ai = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const bj = b.charCodeAt(j - 1);
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (ai === bj ? 0 : 1));
      if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj)
        d = Math.min(d, before[j - 2]! + 1);
      current[j] = d;
      if (d < rowMin) rowMin = d;
    }
    if (rowMin > max) return max + 1;
    [before, previous, current] = [previous, current, before];
  }
  return Math.min(previous[n]!, max + 1);
}

/** How `name` matches `query`, or undefined when it does not (or not in `worst` or a better tier). */
export function nameTier(
  query: SearchText,
  name: SearchText,
  worst: MatchTier = MatchTier.typoWords,
): MatchTier | undefined {
  const q = query.compact;
  if (!q) return undefined;
  let best: MatchTier | undefined;
  for (const key of name.bare === undefined ? [name.compact] : [name.compact, name.bare]) {
    if (!key.startsWith(q)) continue;
    const tier =
      key.length === q.length
        ? MatchTier.exact
        : 2 * q.length >= key.length
          ? MatchTier.near
          : MatchTier.prefix;
    if (best === undefined || tier < best) best = tier;
  }
  if (best !== undefined) return best;
  if (query.words.length === 1) {
    // One word: it starts at a word of the name, alone or run together with the next ("spiderman"). A
    // short one (up to SHORT_WORD letters: "up", "her") must be the whole word: as a start it matches
    // half the catalogue ("upgrade", "heretic").
    let offset = 0;
    for (const word of name.words) {
      if (q.length <= SHORT_WORD ? word === q : name.compact.startsWith(q, offset)) return MatchTier.words;
      offset += word.length;
    }
  } else if (query.words.every((w) => name.words.some((t) => t.startsWith(w)))) {
    // Several words: each starts a word of the name, in any order ("knight dark").
    return MatchTier.words;
  }
  if (worst < MatchTier.typo) return undefined;
  const typoMatch = (w: string) => {
    const max = maxTypos(w.length);
    return name.words.some((t) => t.startsWith(w) || (max > 0 && editDistanceWithin(w, t, max) <= max));
  };
  if (!query.words.every(typoMatch)) return undefined;
  const max = maxTypos(q.length);
  const whole = [name.compact, name.bare].some(
    (key) => key !== undefined && editDistanceWithin(q, key, max) <= max,
  );
  return whole ? MatchTier.typo : MatchTier.typoWords;
}

/** The best tier among a title's names (its title, original title, translations), down to `worst`. */
export function matchTier(
  query: SearchText,
  names: readonly SearchText[],
  worst: MatchTier = MatchTier.typoWords,
): MatchTier | undefined {
  let best: MatchTier | undefined;
  for (const name of names) {
    const tier = nameTier(query, name, worst);
    if (tier !== undefined && (best === undefined || tier < best)) best = tier;
    if (best === MatchTier.exact) break;
  }
  return best;
}

/** A search/multi hit as TMDB answers it (movie or show; null or missing fields tolerated). */
export interface RankableHit {
  title?: unknown;
  name?: unknown;
  original_title?: unknown;
  original_name?: unknown;
  poster_path?: unknown;
  popularity?: unknown;
}

const texts = (...values: unknown[]) => values.filter((v): v is string => typeof v === 'string' && v !== '');

/**
 * TMDB's hits in our order: by tier (hits matching by none of the rules count as `source`: TMDB found them
 * by a name we are not shown), then those with a poster first, then popularity, then TMDB's order.
 */
export function rankHits<T extends object>(query: string, hits: readonly T[]): { hit: T; tier: MatchTier }[] {
  const q = prepareSearch(query);
  return hits
    .map((hit, index) => {
      const h = hit as RankableHit;
      const names = texts(h.title, h.name, h.original_title, h.original_name).map(prepareSearch);
      return {
        hit,
        index,
        tier: matchTier(q, names) ?? MatchTier.source,
        poster: typeof h.poster_path === 'string' && h.poster_path !== '',
        popularity: typeof h.popularity === 'number' ? h.popularity : 0,
      };
    })
    .sort(
      (a, b) =>
        a.tier - b.tier ||
        Number(b.poster) - Number(a.poster) ||
        b.popularity - a.popularity ||
        a.index - b.index,
    )
    .map(({ hit, tier }) => ({ hit, tier }));
}

/** TMDB answers with fewer hits than this that match by our rules (typos aside) get a corrected query tried too. */
export const FEW_MATCHES = 3;

/** Query words this short match a word of a name only whole (see `nameTier`). */
export const SHORT_WORD = 3;

/**
 * Typo matches are a way to find what was misspelt: they are offered only when fewer than FEW_MATCHES
 * titles match better ("dnue" finds Dune; "dune" does not add June, Dude and Done).
 */
export function typosWanted(betterMatches: number): boolean {
  return betterMatches < FEW_MATCHES;
}
