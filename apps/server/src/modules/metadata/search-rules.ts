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
