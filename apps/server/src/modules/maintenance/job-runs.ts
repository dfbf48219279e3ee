import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** This process, as job rows name it. */
export const thisProcess = () => `${hostname()}:${process.pid}`;

/**
 * Once-across-processes background jobs (decision 079): one statement claims a job's run by moving its
 * `next_run_at` forward, only if that time has come. Whichever process does it first runs the job;
 * the others see no row come back and skip. Works the same on SQLite and PostgreSQL, needs no Redis,
 * and a process that dies while running a job only delays its next run by one interval.
 */
export class JobRuns {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly holder: string = thisProcess(),
  ) {}

  /** Whether this process should run `name` now (and it will not run again anywhere for `intervalMs`). */
  async claim(name: string, nowMs: number, intervalMs: number): Promise<boolean> {
    const next = nowMs + intervalMs;
    const row = await this.db
      .insertInto('job_runs')
      .values({ name, next_run_at: next, holder: this.holder })
      .onConflict((oc) =>
        oc
          .column('name')
          .doUpdateSet({ next_run_at: next, holder: this.holder })
          .where('job_runs.next_run_at', '<=', nowMs),
      )
      .returning('name')
      .executeTakeFirst();
    return row !== undefined;
  }
}

export interface RecurringOptions<T> {
  intervalMs: number;
  now: () => number;
  log: FastifyBaseLogger;
  jobs: JobRuns;
  /** What a pass that ran answered (not called when another process had the run). */
  onDone?: (result: T) => void;
}

/**
 * Runs `pass` every `intervalMs` on an unref'd timer (it never keeps the process alive) with a random
 * first delay. Each tick first claims the run in the database (`job_runs`, under `name`): of several
 * processes, one runs it per interval. A pass that fails is logged and tried again at the next tick.
 * Returns the stop function, which also waits for a pass in progress.
 */
export function scheduleRecurring<T>(
  name: string,
  pass: (now: number) => Promise<T>,
  options: RecurringOptions<T>,
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const claimAndRun = async (): Promise<{ result: T } | undefined> => {
    const now = options.now();
    // A little less than the interval: this process's next tick finds the job due again.
    if (!(await options.jobs.claim(name, now, options.intervalMs * 0.9))) return undefined;
    return { result: await pass(now) };
  };
  const tick = () => {
    running ??= claimAndRun()
      .then((ran) => {
        if (ran) options.onDone?.(ran.result);
      })
      .catch((error: unknown) => options.log.warn({ err: error }, `${name} failed; will retry`))
      .finally(() => (running = undefined));
  };
  let interval: NodeJS.Timeout | undefined;
  const first = setTimeout(
    () => {
      tick();
      interval = setInterval(tick, options.intervalMs);
      interval.unref();
    },
    Math.floor(Math.random() * Math.min(options.intervalMs, 60_000)),
  );
  first.unref();
  // Stops the timers and waits for a pass in progress (the database closes right after).
  return async () => {
    clearTimeout(first);
    if (interval) clearInterval(interval);
    await running;
  };
}
