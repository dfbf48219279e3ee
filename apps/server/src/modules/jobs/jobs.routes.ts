import type { FastifyInstance } from 'fastify';
import { jobEndpoints } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf, requireSession, type SessionAuthenticator } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import type { JobQueue } from './job-queue.ts';

/** `GET /api/admin/jobs`: the queue's counts per kind and its last failures, for admins (the admin page). */
export async function registerJobRoutes(
  app: FastifyInstance,
  deps: {
    jobs: JobQueue;
    authenticator: SessionAuthenticator;
    customers: { isAdmin(userId: string): Promise<boolean> };
  },
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, deps.authenticator);
    scope.addHook('preHandler', async (request) => {
      if (!(await deps.customers.isAdmin(authOf(request).userId)))
        throw new AppError(403, 'forbidden', 'Only admins can do this');
    });
    contractRoute(scope, jobEndpoints.status, async () => deps.jobs.status());
  });
}
