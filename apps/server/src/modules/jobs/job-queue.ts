import type { JobBackend, JobFailure, JobKindStatus, JobsStatusResponse } from '@marquee/contract';

/*
 * Background jobs (docs/decisions/086-background-jobs.md): work that outlives a request — seek thumbnails
 * of a library video today. One interface, two queues: BullMQ on Redis when REDIS_URL is set (each job
 * runs once across the processes, survives restarts), and an in-process queue in the one-process default.
 */

export type { JobBackend, JobFailure, JobKindStatus, JobsStatusResponse };

/** How one kind of job runs. */
export interface JobKindOptions {
  /**
   * Jobs of this kind running at once (default 1). In process: in this process. On Redis: in each
   * process, and in all of them together (BullMQ's global concurrency).
   */
  concurrency?: number;
  /** Runs of one job before it fails for good, the first included (default 3). */
  attempts?: number;
  /** The pause before the first retry, doubled for each next one (default 30 s). */
  backoffMs?: number;
  /**
   * A job that failed for good is not queued again under the same id for this long (default 1 hour):
   * a file ffmpeg cannot read is not retried on every play.
   */
  failedCooldownMs?: number;
}

export interface JobContext {
  id: string;
  /** 1 for the first run, 2 for the first retry … */
  attempt: number;
  /** Aborted when the queue closes (the server stops): stop the work; the job runs again later. */
  signal: AbortSignal;
}

/** Does one job; a rejection is a failed attempt (retried with backoff until the attempts are used). */
export type JobHandler<T> = (data: T, context: JobContext) => Promise<void>;

export interface EnqueueOptions {
  /**
   * The job's id: a job with this id that is queued, running or waiting for a retry is not added again
   * (nor one that failed for good within `failedCooldownMs`). Default: a new random id.
   */
  id?: string;
}

export interface JobQueue {
  readonly backend: JobBackend;
  /** Declares a kind and its handler; every kind is registered before `start`. */
  register<T>(kind: string, handler: JobHandler<T>, options?: JobKindOptions): void;
  /** Starts running the registered kinds' jobs (those queued before, by this or another process, too). */
  start(): Promise<void>;
  /** Queues one job of a registered kind (see EnqueueOptions for duplicates). */
  enqueue<T>(kind: string, data: T, options?: EnqueueOptions): Promise<void>;
  /** Counts per kind and the last failures, for the admin page. */
  status(): Promise<JobsStatusResponse>;
  /** Stops taking jobs, aborts the running ones (they run again on the next start) and lets go. */
  close(): Promise<void>;
}

export const JOB_DEFAULTS = {
  concurrency: 1,
  attempts: 3,
  backoffMs: 30_000,
  failedCooldownMs: 60 * 60_000,
} as const satisfies Required<JobKindOptions>;

/** How many failures the status keeps. */
export const FAILURES_KEPT = 20;

/** Kind names are Redis key parts and queue names: short, plain. */
export const JOB_KIND_PATTERN = /^[a-z][a-z0-9-]{0,39}$/;
/** Ids are caller-made (`thumbnails:<file>-<size>-<mtime>`): plain text, no separators BullMQ reserves. */
const JOB_ID_PATTERN = /^[A-Za-z0-9_.:-]{1,200}$/;

export function kindOptions(options: JobKindOptions = {}): Required<JobKindOptions> {
  const o = { ...JOB_DEFAULTS, ...options };
  if (!Number.isInteger(o.concurrency) || o.concurrency < 1) throw new Error('concurrency must be ≥ 1');
  if (!Number.isInteger(o.attempts) || o.attempts < 1) throw new Error('attempts must be ≥ 1');
  return o;
}

export function checkKind(kind: string): void {
  if (!JOB_KIND_PATTERN.test(kind)) throw new Error(`Not a job kind name: ${kind}`);
}

export function checkJobId(id: string): void {
  // BullMQ refuses integer-like custom ids (they clash with its own counter).
  if (!JOB_ID_PATTERN.test(id) || /^\d+$/.test(id)) throw new Error(`Not a job id: ${id}`);
}

/** The pause before retry `attempt + 1` after attempt `attempt` failed (exponential, as BullMQ's). */
export const backoffDelay = (backoffMs: number, attempt: number) => backoffMs * 2 ** (attempt - 1);

export const errorMessage = (error: unknown): string =>
  (error instanceof Error ? error.message : String(error)).slice(0, 500) || 'failed';
