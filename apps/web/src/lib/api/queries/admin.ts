import { queryOptions } from '@tanstack/react-query';
import { api } from '../client.ts';

/** How often the admin page reads the library's status while a scan runs. */
export const LIBRARY_POLL_MS = 2_000;

/** Admin screens. Key prefix `['admin']`. */
export const adminQueries = {
  all: ['admin'] as const,
  promos: () =>
    queryOptions({
      queryKey: [...adminQueries.all, 'promos'] as const,
      queryFn: ({ signal }) => api.membership.promos({ signal }).then((r) => r.codes),
    }),
  /** The media library scanner (decision 085): read again every 2 s while a scan runs. */
  library: () =>
    queryOptions({
      queryKey: [...adminQueries.all, 'library'] as const,
      queryFn: ({ signal }) => api.membership.libraryStatus({ signal }),
      refetchInterval: (query) => (query.state.data?.scanning ? LIBRARY_POLL_MS : false),
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
  /** The background job queue; the admin page reads it again every few seconds while it is open. */
  jobs: () =>
    queryOptions({
      queryKey: [...adminQueries.all, 'jobs'] as const,
      queryFn: ({ signal }) => api.jobs.status({ signal }),
      refetchInterval: 5_000,
    }),
};
