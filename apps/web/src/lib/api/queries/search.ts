import { queryOptions } from '@tanstack/react-query';
import { contentLanguage } from '../../i18n.ts';
import { api } from '../client.ts';

/**
 * Search results in the UI's language, keyed by the query as typed (trimmed, lower case). Key prefix
 * `['search']`.
 */
export const searchQueries = {
  all: ['search'] as const,
  results: (query: string, language = contentLanguage()) =>
    queryOptions({
      queryKey: [...searchQueries.all, query.trim().toLowerCase(), language] as const,
      queryFn: ({ signal }) => api.metadata.search({ query: { query: query.trim(), language }, signal }),
      staleTime: 60 * 60_000,
    }),
};
