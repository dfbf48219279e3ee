import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type SeasonDetails } from '@marquee/contract';
import { apiGet } from '../../../lib/api.ts';

/** Same key as the title page's season query: one cache for both. */
export const seasonEpisodesQuery = (showId: string, number: number) =>
  queryOptions({
    queryKey: ['season', showId, number],
    queryFn: ({ signal }) =>
      apiGet<SeasonDetails>(apiPaths.season, { params: { id: showId, number }, signal }),
  });
