import { randomUUID } from 'node:crypto';
import {
  FAILURES_KEPT,
  backoffDelay,
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

interface Kind {
  handler: JobHandler<unknown>;
  options: Required<JobKindOptions>;
  /** FIFO of jobs ready to run. */
  waiting: Job[];
  /** Jobs waiting for a retry. */
  delayed: number;
  running: number;
  done: number;
  failed: number;
}

interface Job {
  kind: string;
  id: string;
  data: unknown;
  /** Attempts made so far. */
  attempts: number;
}

/** Ids of jobs that failed for good, kept (for the cooldown) up to this many. */
const FAILED_IDS_KEPT = 10_000;

/**
 * The queue of a single process (no REDIS_URL): bounded concurrency per kind, retries with exponential
 * backoff, no duplicates by id. What is queued is lost when the process stops — the callers queue their
 * jobs again when they find the work still undone (thumbnails are asked for on the next play).
 */
export class InProcessJobQueue implements JobQueue {
  readonly backend = 'process' as const;
  private readonly kinds = new Map<string, Kind>();
  /** Every queued, delayed or running job by id. */
  private readonly live = new Map<string, Job>();
  /** When each recently failed id failed for good (oldest first). */
  private readonly failedAt = new Map<string, number>();
  private readonly failures: JobFailure[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Map<Job, { controller: AbortController; done: Promise<void> }>();
  private started = false;
  private closed = false;

  constructor(
    private readonly o: { now?: () => number; onError?: (job: string, error: unknown) => void } = {},
  ) {}

  private now(): number {
    return this.o.now?.() ?? Date.now();
  }

  register<T>(kind: string, handler: JobHandler<T>, options?: JobKindOptions): void {
    checkKind(kind);
    if (this.kinds.has(kind)) throw new Error(`Job kind ${kind} is registered twice`);
    this.kinds.set(kind, {
      handler: handler as JobHandler<unknown>,
      options: kindOptions(options),
      waiting: [],
      delayed: 0,
      running: 0,
      done: 0,
      failed: 0,
    });
  }

  async start(): Promise<void> {
    if (this.closed) throw new Error('The job queue is closed');
    this.started = true;
    for (const kind of this.kinds.keys()) this.pump(kind);
  }

  async enqueue<T>(kind: string, data: T, options: EnqueueOptions = {}): Promise<void> {
    const k = this.kinds.get(kind);
    if (!k) throw new Error(`Unknown job kind: ${kind}`);
    if (this.closed) return;
    const id = options.id ?? randomUUID();
    checkJobId(id);
    const key = `${kind}:${id}`;
    if (this.live.has(key)) return;
    const failedAt = this.failedAt.get(key);
    if (failedAt !== undefined && this.now() - failedAt < k.options.failedCooldownMs) return;
    this.failedAt.delete(key);
    const job: Job = { kind, id, data, attempts: 0 };
    this.live.set(key, job);
    k.waiting.push(job);
    this.pump(kind);
  }

  async status(): Promise<JobsStatusResponse> {
    return {
      backend: this.backend,
      kinds: [...this.kinds].map(([kind, k]) => ({
        kind,
        concurrency: k.options.concurrency,
        queued: k.waiting.length + k.delayed,
        running: k.running,
        done: k.done,
        failed: k.failed,
      })),
      failures: [...this.failures],
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const { controller } of this.running.values()) controller.abort(new Error('The job queue closed'));
    await Promise.all([...this.running.values()].map((r) => r.done));
  }

  private pump(kind: string): void {
    const k = this.kinds.get(kind)!;
    while (this.started && !this.closed && k.running < k.options.concurrency && k.waiting.length) {
      this.run(k, k.waiting.shift()!);
    }
  }

  private run(k: Kind, job: Job): void {
    const controller = new AbortController();
    k.running += 1;
    job.attempts += 1;
    const done = (async () => {
      try {
        await k.handler(job.data, { id: job.id, attempt: job.attempts, signal: controller.signal });
        this.finish(k, job, null);
      } catch (error) {
        this.finish(k, job, error);
      }
    })().finally(() => {
      k.running -= 1;
      this.running.delete(job);
      this.pump(job.kind);
    });
    this.running.set(job, { controller, done });
  }

  private finish(k: Kind, job: Job, error: unknown): void {
    const key = `${job.kind}:${job.id}`;
    if (this.closed) {
      // Stopped by close: neither done nor failed (a process queue does not outlive the process).
      this.live.delete(key);
      return;
    }
    if (error === null) {
      k.done += 1;
      this.live.delete(key);
      return;
    }
    this.o.onError?.(key, error);
    if (job.attempts < k.options.attempts) {
      k.delayed += 1;
      const timer = setTimeout(
        () => {
          this.timers.delete(timer);
          k.delayed -= 1;
          k.waiting.push(job);
          this.pump(job.kind);
        },
        backoffDelay(k.options.backoffMs, job.attempts),
      );
      this.timers.add(timer);
      return;
    }
    k.failed += 1;
    this.live.delete(key);
    const at = this.now();
    this.failedAt.set(key, at);
    if (this.failedAt.size > FAILED_IDS_KEPT) this.failedAt.delete(this.failedAt.keys().next().value!);
    this.failures.unshift({
      kind: job.kind,
      id: job.id,
      error: errorMessage(error),
      attempts: job.attempts,
      at: new Date(at).toISOString(),
    });
    this.failures.length = Math.min(this.failures.length, FAILURES_KEPT);
  }
}
