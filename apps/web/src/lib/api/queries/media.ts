import { queryOptions } from '@tanstack/react-query';
import type { TmdbType } from '@marquee/contract';
import { contentLanguage } from '../../i18n.ts';
import { viewerRegion } from '../../region.ts';
import { api } from '../client.ts';

/**
 * Titles of this instance's metadata (details, seasons, old JustWatch keys), in the UI's language.
 * Key prefix `['media']`.
 */
export const mediaQueries = {
  all: ['media'] as const,
  /** With the viewer's region: the content rating and where to watch are the viewer's country's. */
  details: (type: TmdbType, id: string, language = contentLanguage(), region = viewerRegion()) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'details', type, id, language, region] as const,
      queryFn: ({ signal }) =>
        api.metadata.details({ params: { type, id }, query: { language, region }, signal }),
    }),
  /** One cache for the title page's episode list and the player's episode picker. */
  season: (showId: string, number: number, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'season', showId, number, language] as const,
      queryFn: ({ signal }) =>
        api.metadata.season({ params: { id: showId, number }, query: { language }, signal }),
    }),
  justWatch: (jwType: string, id: string, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...mediaQueries.all, 'legacy-justwatch', jwType, id, language] as const,
      queryFn: ({ signal }) =>
        api.metadata.legacyJustWatch({ params: { type: jwType, id }, query: { language }, signal }),
      staleTime: Infinity,
    }),
};
