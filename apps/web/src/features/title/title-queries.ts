import { queryOptions } from '@tanstack/react-query';
import {
  apiPaths,
  type MediaDetails,
  type MediaSummary,
  type SeasonDetails,
  type TmdbType,
} from '@marquee/contract';
import { apiGet } from '../../lib/api.ts';

export const detailsQuery = (type: TmdbType, id: string) =>
  queryOptions({
    queryKey: ['details', type, id],
    queryFn: ({ signal }) => apiGet<MediaDetails>(apiPaths.details, { params: { type, id }, signal }),
  });

export const seasonQuery = (showId: string, number: number) =>
  queryOptions({
    queryKey: ['season', showId, number],
    queryFn: ({ signal }) =>
      apiGet<SeasonDetails>(apiPaths.season, { params: { id: showId, number }, signal }),
  });

export const justWatchQuery = (jwType: string, id: string) =>
  queryOptions({
    queryKey: ['legacy-justwatch', jwType, id],
    queryFn: ({ signal }) =>
      apiGet<MediaSummary>(apiPaths.legacyJustWatch, { params: { type: jwType, id }, signal }),
    staleTime: Infinity,
  });
