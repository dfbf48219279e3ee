import { queryOptions } from '@tanstack/react-query';
import { api } from '../client.ts';

/** Search results, keyed by the query as typed (trimmed, lower case). Key prefix `['search']`. */
export const searchQueries = {
  all: ['search'] as const,
  results: (query: string) =>
    queryOptions({
      queryKey: [...searchQueries.all, query.trim().toLowerCase()] as const,
      queryFn: ({ signal }) => api.metadata.search({ query: { query: query.trim() }, signal }),
      staleTime: 60 * 60_000,
    }),
};
