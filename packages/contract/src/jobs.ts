import { defineEndpoint } from './endpoint.ts';
import { jobRoutes } from './job-routes.ts';
import { z } from './z.ts';

// ---- admin: background jobs (decision 086) ----

/** Where the queue lives: BullMQ on Redis (REDIS_URL, shared by every process) or this process alone. */
export const JobBackend = z.enum(['redis', 'process']);
export type JobBackend = z.infer<typeof JobBackend>;

export const JobKindStatus = z.object({
  /** The job kind (`thumbnails`). */
  kind: z.string(),
  /** Jobs of this kind that may run at once (on Redis: across every process). */
  concurrency: z.number().int(),
  /** Waiting to run, or waiting for a retry. */
  queued: z.number().int(),
  running: z.number().int(),
  /** Finished since the count began (on Redis: ever; in process: since it started). */
  done: z.number().int(),
  /** Failed for good (every attempt used), counted like `done`. */
  failed: z.number().int(),
});
export type JobKindStatus = z.infer<typeof JobKindStatus>;

export const JobFailure = z.object({
  kind: z.string(),
  id: z.string(),
  /** The last attempt's error message. */
  error: z.string(),
  attempts: z.number().int(),
  /** When it failed for good (ISO 8601). */
  at: z.string(),
});
export type JobFailure = z.infer<typeof JobFailure>;

export const JobsStatusResponse = z.object({
  backend: JobBackend,
  kinds: z.array(JobKindStatus),
  /** The most recent failures (at most 20), newest first. */
  failures: z.array(JobFailure),
});
export type JobsStatusResponse = z.infer<typeof JobsStatusResponse>;

export const jobEndpoints = {
  status: defineEndpoint({
    ...jobRoutes.status,
    summary: 'Admins: background jobs — queued, running, done and failed per kind, and the last failures',
    auth: 'admin',
    tags: ['admin'],
    response: JobsStatusResponse,
  }),
} as const;
