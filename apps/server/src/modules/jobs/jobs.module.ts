import type { FastifyInstance } from 'fastify';
import type { SessionAuthenticator } from '../../plugins/auth.ts';
import { BullMqJobQueue } from './bullmq-queue.ts';
import { InProcessJobQueue } from './in-process-queue.ts';
import type { JobQueue } from './job-queue.ts';
import { registerJobRoutes } from './jobs.routes.ts';

export interface JobsContext {
  config: { REDIS_URL?: string | undefined; REDIS_PREFIX: string };
  authenticator: SessionAuthenticator;
  customers: { isAdmin(userId: string): Promise<boolean> };
}

/**
 * The background job queue (decision 086): BullMQ on Redis when REDIS_URL is set, else this process's
 * own. Modules register their job kinds while the app is built; the queue starts running them when the
 * server is ready and stops (running jobs go back to the queue) when it closes. Adds `GET /api/admin/jobs`.
 */
export async function registerJobs(server: FastifyInstance, ctx: JobsContext): Promise<JobQueue> {
  const log = server.log.child({ module: 'jobs' });
  const onError = (where: string, error: unknown) => log.warn({ err: error, job: where }, 'job failed');
  const jobs: JobQueue = ctx.config.REDIS_URL
    ? await BullMqJobQueue.connect({
        url: ctx.config.REDIS_URL,
        prefix: `${ctx.config.REDIS_PREFIX}jobs`,
        onError,
      })
    : new InProcessJobQueue({ onError });
  server.addHook('onReady', async () => jobs.start());
  server.addHook('onClose', async () => jobs.close());
  await registerJobRoutes(server, {
    jobs,
    authenticator: ctx.authenticator,
    customers: ctx.customers,
  });
  return jobs;
}
