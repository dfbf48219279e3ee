import { queryOptions } from '@tanstack/react-query';
import { apiPaths, type MediaList } from '@marquee/contract';
import { apiGet } from '../../lib/api.ts';

export const searchQuery = (query: string) =>
  queryOptions({
    queryKey: ['search', query.trim().toLowerCase()],
    queryFn: ({ signal }) => apiGet<MediaList>(apiPaths.search, { query: { query: query.trim() }, signal }),
    staleTime: 60 * 60_000,
  });
