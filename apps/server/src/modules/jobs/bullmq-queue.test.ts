import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { testRedisUrl } from '../../../test/test-database.ts';
import { BullMqJobQueue } from './bullmq-queue.ts';
import type { JobQueue } from './job-queue.ts';
import { concurrencyMeter, gate, jobQueueBehaviour, kindStatus } from './job-queue-behaviour.ts';

/** Redis is always there on CI and developer machines: TEST_REDIS_URL or the local one. */
const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';
const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
const prefixes: string[] = [];

/** A prefix of this test's own; its keys are deleted after it. */
function newPrefix(): string {
  const prefix = `test-jobs-${randomBytes(5).toString('hex')}`;
  prefixes.push(prefix);
  return prefix;
}

async function deleteKeys(prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length) await admin.del(...keys);
  } while (cursor !== '0');
}

const connect = (prefix: string) =>
  BullMqJobQueue.connect({ url: redisUrl, prefix, onError: () => undefined });

afterEach(async () => {
  for (const prefix of prefixes.splice(0)) await deleteKeys(prefix);
});
afterAll(async () => {
  await admin.quit();
});

describe('the BullMQ job queue (Redis)', () => {
  jobQueueBehaviour(async () => connect(newPrefix()));

  describe('across processes', () => {
    const open: JobQueue[] = [];
    afterEach(async () => {
      await Promise.all(open.splice(0).map((q) => q.close()));
    });
    const process = async (prefix: string) => {
      const jobs = await connect(prefix);
      open.push(jobs);
      return jobs;
    };

    it('runs each job once, and at most `concurrency` at once across the processes', async () => {
      const prefix = newPrefix();
      const [one, two] = [await process(prefix), await process(prefix)];
      const runs: string[] = [];
      const meter = concurrencyMeter();
      const release = gate();
      for (const [name, jobs] of [
        ['one', one],
        ['two', two],
      ] as const) {
        jobs.register<{ n: number }>(
          'thumbs',
          async (data) => {
            meter.enter();
            runs.push(`${name}:${data.n}`);
            await release.promise;
            meter.leave();
          },
          { concurrency: 2 },
        );
      }
      await Promise.all([one.start(), two.start()]);
      // Both processes queue the same twelve jobs (by id): each runs once.
      for (let n = 0; n < 12; n++) {
        await one.enqueue('thumbs', { n }, { id: `job-${n}` });
        await two.enqueue('thumbs', { n }, { id: `job-${n}` });
      }
      await expect.poll(() => runs.length).toBe(2);
      expect(await kindStatus(one, 'thumbs')).toMatchObject({ running: 2, queued: 10 });
      release.open();
      await expect.poll(async () => (await kindStatus(two, 'thumbs')).done).toBe(12);
      expect(meter.max).toBe(2);
      const numbers = runs.map((r) => Number(r.split(':')[1])).sort((a, b) => a - b);
      expect(numbers).toEqual([...Array(12).keys()]);
    });

    it('keeps queued jobs across a restart, and a job stopped by a closing process runs again in full', async () => {
      const prefix = newPrefix();
      const first = await process(prefix);
      let started = 0;
      first.register('work', async (_data, context) => {
        started += 1;
        await new Promise<void>((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
        );
      });
      await first.start();
      await first.enqueue('work', { file: 'a' }, { id: 'a' });
      await first.enqueue('work', { file: 'b' }, { id: 'b' });
      await expect.poll(() => started).toBe(1);
      await first.close();

      const second = await process(prefix);
      const done: { file: string; attempt: number }[] = [];
      second.register<{ file: string }>('work', async (data, context) => {
        done.push({ file: data.file, attempt: context.attempt });
      });
      expect(await kindStatus(second, 'work')).toMatchObject({ queued: 2, running: 0, failed: 0 });
      await second.start();
      await expect.poll(() => done.length).toBe(2);
      // The interrupted job did not use up an attempt.
      expect(done.sort((a, b) => a.file.localeCompare(b.file))).toEqual([
        { file: 'a', attempt: 1 },
        { file: 'b', attempt: 1 },
      ]);
      expect(await kindStatus(second, 'work')).toMatchObject({ done: 2, failed: 0 });
    });
  });
});
