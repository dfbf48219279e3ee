import type { FastifyBaseLogger } from 'fastify';
import type { JobQueue } from '../jobs/job-queue.ts';
import { scheduleRecurring, type JobRuns } from '../maintenance/job-runs.ts';
import type { MetadataCacheRepository } from './metadata-cache.repository.ts';

/** The background job (decision 082) that deletes cached TMDB answers too old to be served even stale. */
export const METADATA_CACHE_SWEEP_JOB = 'metadata-cache-sweep';
export const METADATA_CACHE_SWEEP_INTERVAL_MS = 60 * 60_000;

export interface MetadataCacheSweepOptions {
  cache: MetadataCacheRepository;
  jobs: JobQueue;
  runs: JobRuns;
  now: () => number;
  log: FastifyBaseLogger;
  /** Default hourly. */
  intervalMs?: number | undefined;
}

/**
 * Registers the sweep job on the background queue (decision 086: retried there, listed on the admin
 * page) and queues it once per interval across processes (`job_runs`, decision 079). Without it, the
 * shared `metadata_cache` keeps every answer TMDB ever gave. Returns the stop function.
 */
export function scheduleMetadataCacheSweep(o: MetadataCacheSweepOptions): () => Promise<void> {
  o.jobs.register(
    METADATA_CACHE_SWEEP_JOB,
    async () => {
      const removed = await o.cache.deleteExpired(o.now());
      if (removed > 0) o.log.info({ removed }, 'metadata cache sweep');
    },
    // A sweep that failed for good is queued again at the next interval, not an hour after it failed.
    { attempts: 3, backoffMs: 60_000, failedCooldownMs: 0 },
  );
  return scheduleRecurring(
    METADATA_CACHE_SWEEP_JOB,
    // One id: a sweep still queued or running (a database outage) is not queued a second time.
    () => o.jobs.enqueue(METADATA_CACHE_SWEEP_JOB, {}, { id: 'sweep' }),
    { intervalMs: o.intervalMs ?? METADATA_CACHE_SWEEP_INTERVAL_MS, now: o.now, log: o.log, jobs: o.runs },
  );
}
