import { randomUUID } from 'node:crypto';
import type { Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  FAILURES_KEPT,
  checkJobId,
  checkKind,
  errorMessage,
  kindOptions,
  type EnqueueOptions,
  type JobFailure,
  type JobHandler,
  type JobKindOptions,
  type JobQueue,
  type JobsStatusResponse,
} from './job-queue.ts';

type BullMq = typeof import('bullmq');

interface Kind {
  handler: JobHandler<unknown>;
  options: Required<JobKindOptions>;
  queue: Queue;
  worker?: Worker;
}

export interface BullMqQueueOptions {
  /** REDIS_URL. */
  url: string;
  /** Key prefix of every key of the queue (`<REDIS_PREFIX>jobs`); tests use one of their own. */
  prefix: string;
  /** A failed attempt or a connection problem (logged; the job itself is retried by BullMQ). */
  onError?: (where: string, error: unknown) => void;
  now?: () => number;
}

/** Finished jobs: done ones go at once (the metrics count them), failed ones stay a week (the admin list). */
const FAILED_KEPT = { age: 7 * 24 * 3600, count: 1000 };
/** Job states in which a job with the same id is not queued again. */
const PENDING_STATES = new Set(['waiting', 'active', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Background jobs on Redis with BullMQ (REDIS_URL set): every process that registers a kind runs its jobs,
 * each job once (BullMQ's lock), with at most `concurrency` of a kind running across all processes
 * (global concurrency) and in each. Jobs are kept in Redis, so they outlive restarts; a job whose
 * process died is taken up again when its lock expires (BullMQ's stalled-job check). Its own Redis
 * connection (BullMQ's blocking reads need one without the request timeouts of the shared client).
 */
export class BullMqJobQueue implements JobQueue {
  readonly backend = 'redis' as const;
  private readonly kinds = new Map<string, Kind>();
  private readonly running = new Set<AbortController>();
  private closing = false;
  /** Opened with the first kind: an app without background work holds no connection. */
  private client: Redis | undefined;

  private constructor(
    private readonly bull: BullMq,
    private readonly RedisClient: typeof Redis,
    private readonly o: BullMqQueueOptions,
  ) {}

  /** Loads BullMQ and ioredis (only when Redis is configured). */
  static async connect(o: BullMqQueueOptions): Promise<BullMqJobQueue> {
    const [bull, { Redis }] = await Promise.all([import('bullmq'), import('ioredis')]);
    return new BullMqJobQueue(bull, Redis, o);
  }

  private connection(): Redis {
    if (!this.client) {
      // BullMQ's own settings: commands wait for a reconnection instead of failing (jobs are not requests).
      this.client = new this.RedisClient(this.o.url, { maxRetriesPerRequest: null });
      this.client.on('error', (error) => this.o.onError?.('redis', error));
    }
    return this.client;
  }

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  register<T>(kind: string, handler: JobHandler<T>, options?: JobKindOptions): void {
    checkKind(kind);
    if (this.kinds.has(kind)) throw new Error(`Job kind ${kind} is registered twice`);
    const o = kindOptions(options);
    const queue = new this.bull.Queue(kind, {
      connection: this.connection(),
      prefix: this.o.prefix,
      defaultJobOptions: {
        attempts: o.attempts,
        backoff: { type: 'exponential', delay: o.backoffMs },
        removeOnComplete: true,
        removeOnFail: FAILED_KEPT,
      },
    });
    queue.on('error', (error) => this.o.onError?.(`queue ${kind}`, error));
    this.kinds.set(kind, { handler: handler as JobHandler<unknown>, options: o, queue });
  }

  async start(): Promise<void> {
    if (this.closing) throw new Error('The job queue is closed');
    for (const [kind, k] of this.kinds) {
      if (k.worker) continue;
      await k.queue.setGlobalConcurrency(k.options.concurrency);
      const worker = new this.bull.Worker(kind, (job, token) => this.process(k, job, token), {
        connection: this.connection(),
        prefix: this.o.prefix,
        concurrency: k.options.concurrency,
        metrics: { maxDataPoints: this.bull.MetricsTime.ONE_HOUR },
      });
      worker.on('error', (error) => this.o.onError?.(`worker ${kind}`, error));
      worker.on('failed', (job, error) => this.o.onError?.(`${kind}:${job?.id ?? '?'}`, error));
      k.worker = worker;
    }
    await Promise.all([...this.kinds.values()].map((k) => k.worker?.waitUntilReady()));
  }

  private async process(k: Kind, job: Job, token: string | undefined): Promise<void> {
    const controller = new AbortController();
    this.running.add(controller);
    try {
      await k.handler(job.data, { id: job.id!, attempt: job.attemptsMade + 1, signal: controller.signal });
    } catch (error) {
      // Stopped by close: back to waiting without using an attempt, for the next process to run.
      if (this.closing && token) {
        await job.moveToWait(token);
        throw new this.bull.WaitingError();
      }
      throw error;
    } finally {
      this.running.delete(controller);
    }
  }

  async enqueue<T>(kind: string, data: T, options: EnqueueOptions = {}): Promise<void> {
    const k = this.kinds.get(kind);
    if (!k) throw new Error(`Unknown job kind: ${kind}`);
    if (this.closing) return;
    const id = options.id ?? randomUUID();
    checkJobId(id);
    const known = options.id ? await k.queue.getJob(id) : undefined;
    if (known) {
      const state = await known.getState();
      if (PENDING_STATES.has(state)) return;
      const finishedOn = known.finishedOn ?? 0;
      if (state === 'failed' && this.now() - finishedOn < k.options.failedCooldownMs) return;
      // Done (kept only for a moment) or failed long enough ago: make room for the new one.
      await known.remove().catch(() => undefined);
    }
    await k.queue.add(kind, data, { jobId: id });
  }

  async status(): Promise<JobsStatusResponse> {
    const kinds = await Promise.all(
      [...this.kinds].map(async ([kind, k]) => {
        const [counts, done, failed, failures] = await Promise.all([
          k.queue.getJobCounts('waiting', 'prioritized', 'delayed', 'active'),
          k.queue.getMetrics('completed', 0, 0),
          k.queue.getMetrics('failed', 0, 0),
          k.queue.getFailed(0, FAILURES_KEPT - 1),
        ]);
        const count = (state: string) => counts[state] ?? 0;
        return {
          status: {
            kind,
            concurrency: k.options.concurrency,
            queued: count('waiting') + count('prioritized') + count('delayed'),
            running: count('active'),
            done: done.meta.count,
            failed: failed.meta.count,
          },
          failures: failures.map((job): JobFailure & { time: number } => ({
            kind,
            id: job.id ?? '?',
            error: errorMessage(job.failedReason),
            attempts: job.attemptsMade,
            at: new Date(job.finishedOn ?? job.timestamp).toISOString(),
            time: job.finishedOn ?? job.timestamp,
          })),
        };
      }),
    );
    return {
      backend: this.backend,
      kinds: kinds.map((k) => k.status),
      failures: kinds
        .flatMap((k) => k.failures)
        .sort((a, b) => b.time - a.time)
        .slice(0, FAILURES_KEPT)
        .map(({ time: _, ...failure }) => failure),
    };
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    for (const controller of this.running) controller.abort(new Error('The job queue closed'));
    const kinds = [...this.kinds.values()];
    await Promise.all(kinds.map((k) => k.worker?.close()));
    await Promise.all(kinds.map((k) => k.queue.close()));
    const client = this.client;
    if (client) await client.quit().catch(() => client.disconnect());
  }
}
