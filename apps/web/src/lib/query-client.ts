import { QueryClient } from '@tanstack/react-query';
import { ApiError, type ApiErrorCode } from './api/index.ts';

/** Failures the server already retried (both TMDB hosts, within its budget): asking again only adds waiting. */
const RETRIED_BY_SERVER = new Set<ApiErrorCode>([
  'metadata_unavailable',
  'metadata_rate_limited',
  'metadata_bad_answer',
  'metadata_auth_failed',
  'legacy_metadata_unavailable',
]);

/**
 * Whether a failed query is asked again (decision 082): never a 4xx (it will not change), a failure the
 * server already retried, or a call that spent its own budget (`final`: metadata calls retry a lost
 * connection once inside the call); other network and 5xx failures get two more tries.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError) {
    if (error.final) return false;
    if (error.status >= 400 && error.status < 500) return false;
    if (RETRIED_BY_SERVER.has(error.code)) return false;
  }
  return failureCount < 2;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 5 * 60_000,
        refetchOnWindowFocus: false,
        retry: shouldRetry,
      },
    },
  });
}
