import { queryOptions } from '@tanstack/react-query';
import { api } from '../client.ts';

/** Admin screens. Key prefix `['admin']`. */
export const adminQueries = {
  all: ['admin'] as const,
  promos: () =>
    queryOptions({
      queryKey: [...adminQueries.all, 'promos'] as const,
      queryFn: ({ signal }) => api.membership.promos({ signal }).then((r) => r.codes),
    }),
  /** Each check may take up to 20 s on the server. */
  selfTest: () =>
    queryOptions({
      queryKey: [...adminQueries.all, 'self-test'] as const,
      queryFn: ({ signal }) => api.membership.selfTest({ signal, timeoutMs: 180_000 }),
      retry: false,
      staleTime: Infinity,
      refetchOnWindowFocus: false,
    }),
};
