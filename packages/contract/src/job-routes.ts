import type { Route } from './endpoint.ts';

/** Paths of the background jobs' admin view (decision 086). Schema-free, like `customerPaths`. */
export const jobPaths = {
  /** GET: admins only — the background job queue: counts per kind and the last failures. */
  adminJobs: '/api/admin/jobs',
} as const;

/** Routes of `jobEndpoints`. */
export const jobRoutes = {
  status: { method: 'GET', path: jobPaths.adminJobs },
} as const satisfies Record<string, Route>;
