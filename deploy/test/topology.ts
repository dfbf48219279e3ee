import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Cleanup, createPgDatabase, deleteRedisKeys, type Proc } from './support.ts';

/** What a topology of the Playwright suite starts from. */
export interface TopologyBase {
  cleanup: Cleanup;
  /** A temp folder of its own, removed on stop. */
  work: string;
  /** A fresh PostgreSQL database (dropped on stop) and a Redis prefix (its keys deleted on stop). */
  env: { DATABASE_URL: string; REDIS_URL: string; REDIS_PREFIX: string };
  /** Stops everything and exits with `code`. */
  stop(code: number): Promise<void>;
  /** Takes the topology down (exit 1) when one of these processes dies: the suite fails instead of hanging. */
  stopWhenAnyExits(procs: Proc[]): void;
}

/**
 * Runs a topology for the Playwright suite (deploy/test/*-topology.ts) until SIGTERM/SIGINT: a temp
 * folder, a fresh PostgreSQL database (TEST_DATABASE_URL or the local one) and a Redis prefix
 * (TEST_REDIS_URL or the local one), then `start`. On a signal, or when `start` fails, everything added to
 * the cleanup is undone.
 */
export async function runTopology(name: string, start: (base: TopologyBase) => Promise<void>): Promise<void> {
  const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
  const cleanup = new Cleanup();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await cleanup.run().catch((error: unknown) => console.error(String(error)));
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));
  try {
    const work = mkdtempSync(path.join(tmpdir(), `marquee-e2e-${name}-`));
    cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
    const database = await createPgDatabase(adminUrl, `mq_e2e_${name}`);
    cleanup.add('drop the database', () => database.drop());
    const prefix = `e2e-${name}-${randomBytes(5).toString('hex')}:`;
    cleanup.add('delete the Redis keys', () => deleteRedisKeys(redisUrl, prefix));
    const stopWhenAnyExits = (procs: Proc[]) => {
      for (const proc of procs)
        proc.child.once('exit', (code, signal) => {
          if (stopping) return;
          console.error(`${proc.name} exited (${code ?? signal}):\n${proc.output().slice(-4000)}`);
          void stop(1);
        });
    };
    await start({
      cleanup,
      work,
      env: { DATABASE_URL: database.url, REDIS_URL: redisUrl, REDIS_PREFIX: prefix },
      stop,
      stopWhenAnyExits,
    });
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}
