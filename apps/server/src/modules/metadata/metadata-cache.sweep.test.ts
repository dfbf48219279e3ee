import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_TMDB_READ_TOKEN } from '../../../test/fake-tmdb.ts';
import { startSyncApp, type SyncTestApp } from '../../../test/sync-harness.ts';
import {
  createTestDatabase,
  testDialect,
  testRedisUrl,
  type TestDatabase,
} from '../../../test/test-database.ts';
import { InProcessJobQueue } from '../jobs/in-process-queue.ts';
import { JobRuns } from '../maintenance/job-runs.ts';
import { MetadataCacheRepository, STALE_KEEP_MS } from './metadata-cache.repository.ts';
import { METADATA_CACHE_SWEEP_JOB, scheduleMetadataCacheSweep } from './metadata-cache.sweep.ts';

const DAY = 24 * 3_600_000;
const INTERVAL_MS = 100;
const silent = { info: () => undefined, warn: () => undefined } as never;

/** A process's claims of the job, counted: how the test knows the processes ticked, without a timer. */
class CountedRuns extends JobRuns {
  claims = 0;
  override claim(name: string, nowMs: number, intervalMs: number): Promise<boolean> {
    this.claims += 1;
    return super.claim(name, nowMs, intervalMs);
  }
}

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function keys(db: TestDatabase): Promise<string[]> {
  const rows = await db.db.selectFrom('metadata_cache').select('key').orderBy('key').execute();
  return rows.map((r) => r.key);
}

describe(`the metadata cache sweep (decision 082, ${testDialect})`, () => {
  it('deletes answers too old to serve even stale, keeps the others, once per interval across processes', async () => {
    const db = await createTestDatabase();
    cleanups.push(() => db.destroy());
    let clock = Date.UTC(2026, 10, 23, 12);
    const cache = new MetadataCacheRepository(db.db);
    await cache.set('gone', 'v', clock - STALE_KEEP_MS - DAY);
    await cache.set('stale', 'v', clock - DAY);
    await cache.set('fresh', 'v', clock + DAY);

    // Two server processes on one database, each with its own queue.
    const runs = ['a', 'b'].map((name) => new CountedRuns(db.db, name));
    const queues = runs.map((processRuns) => {
      const jobs = new InProcessJobQueue();
      const stop = scheduleMetadataCacheSweep({
        cache: new MetadataCacheRepository(db.db),
        jobs,
        runs: processRuns,
        now: () => clock,
        log: silent,
        intervalMs: INTERVAL_MS,
      });
      cleanups.push(async () => {
        await stop();
        await jobs.close();
      });
      return jobs;
    });
    await Promise.all(queues.map((jobs) => jobs.start()));
    const sweeps = async () => {
      let done = 0;
      for (const jobs of queues)
        done += (await jobs.status()).kinds.find((k) => k.kind === METADATA_CACHE_SWEEP_JOB)!.done;
      return done;
    };

    await expect.poll(() => keys(db)).toEqual(['fresh', 'stale']);
    // Both processes tick several more times; the interval (by the clock) has not passed: no second sweep.
    const claimed = runs.map((r) => r.claims);
    await expect.poll(() => runs.every((r, i) => r.claims >= claimed[i]! + 3)).toBe(true);
    expect(await sweeps()).toBe(1);

    await cache.set('gone-later', 'v', clock - STALE_KEEP_MS);
    clock += INTERVAL_MS;
    await expect.poll(sweeps).toBe(2);
    expect(await keys(db)).toEqual(['fresh', 'stale']);
    expect(await cache.lookup('stale', clock)).toEqual({ value: 'v', fresh: false });
  });

  it('runs in a server whose metadata comes from TMDB', async () => {
    const t: SyncTestApp = await startSyncApp({
      // No TMDB call is made: the sweep only touches the database.
      env: { TMDB_API_KEY: FAKE_TMDB_READ_TOKEN, TMDB_BASE_URL: 'http://127.0.0.1:9/3' },
      deps: { metadataCacheSweepMs: INTERVAL_MS },
    });
    cleanups.push(async () => {
      await t.close();
      if (!testRedisUrl) return;
      // BullMQ's keys of this app (REDIS_URL is set when the suite runs with Redis).
      const redis = new Redis(testRedisUrl, { maxRetriesPerRequest: 1 });
      const found = await redis.keys(`${t.config.REDIS_PREFIX}*`);
      if (found.length) await redis.del(...found);
      await redis.quit();
    });
    const cache = new MetadataCacheRepository(t.db.db);
    await cache.set('search:old', 'v', t.clock.ms - STALE_KEEP_MS - 1);
    await cache.set('details:movie:603:en', 'v', t.clock.ms - DAY);
    // Time passes on the server's clock (a sweep that ran before the rows were written claimed its interval).
    await expect
      .poll(() => {
        t.clock.advance(INTERVAL_MS);
        return keys(t.db);
      })
      .toEqual(['details:movie:603:en']);
  });
});
