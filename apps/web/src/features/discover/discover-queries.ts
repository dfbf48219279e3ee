import type { QueryClient } from '@tanstack/react-query';
import type { UiLanguage } from '@marquee/contract';
import { discoverQueries } from '../../lib/api/queries/discover.ts';

export const listQuery = discoverQueries.list;
export const genresQuery = discoverQueries.genres;
export const discoverQuery = discoverQueries.genre;

/** The movie lists of Discover's first two rows: on the first screen of every device. */
export const OPENING_LISTS = ['now_playing', 'top_rated'] as const;

/**
 * Asks for Discover's first two rows before the page has rendered (the app does so at start-up when
 * Discover is the page opened): the same queries its rows make, so they find the answers in. Never rejects.
 */
export function prefetchOpeningRows(queryClient: QueryClient, language: UiLanguage): void {
  for (const list of OPENING_LISTS) void queryClient.prefetchQuery(listQuery('movie', list, language));
}
