import { queryOptions } from '@tanstack/react-query';
import type { TmdbType } from '@marquee/contract';
import { api } from '../client.ts';

/** Titles of this instance's metadata: details, seasons, old JustWatch keys. Key prefix `['media']`. */
export const mediaQueries = {
  all: ['media'] as const,
  details: (type: TmdbType, id: string) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'details', type, id] as const,
      queryFn: ({ signal }) => api.metadata.details({ params: { type, id }, signal }),
    }),
  /** One cache for the title page's episode list and the player's episode picker. */
  season: (showId: string, number: number) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'season', showId, number] as const,
      queryFn: ({ signal }) => api.metadata.season({ params: { id: showId, number }, signal }),
    }),
  justWatch: (jwType: string, id: string) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'legacy-justwatch', jwType, id] as const,
      queryFn: ({ signal }) => api.metadata.legacyJustWatch({ params: { type: jwType, id }, signal }),
      staleTime: Infinity,
    }),
};
