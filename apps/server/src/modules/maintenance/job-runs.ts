import { hostname } from 'node:os';
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
