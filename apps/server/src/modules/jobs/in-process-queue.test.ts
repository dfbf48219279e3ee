import { describe, expect, it } from 'vitest';
import { InProcessJobQueue } from './in-process-queue.ts';
import { jobQueueBehaviour, kindStatus } from './job-queue-behaviour.ts';

describe('the in-process job queue', () => {
  jobQueueBehaviour(async () => new InProcessJobQueue());

  it('forgets what was queued when it closes (a process queue does not outlive its process)', async () => {
    const jobs = new InProcessJobQueue();
    let runs = 0;
    jobs.register('later', async () => void (runs += 1));
    await jobs.enqueue('later', {});
    expect((await kindStatus(jobs, 'later')).queued).toBe(1);
    await jobs.close();
    await jobs.enqueue('later', {});
    await expect(jobs.start()).rejects.toThrow(/closed/);
    expect(runs).toBe(0);
  });

  it('keeps the last 20 failures, newest first', async () => {
    const jobs = new InProcessJobQueue();
    jobs.register(
      'bad',
      async (data: { n: number }) => {
        throw new Error(`bad ${data.n}`);
      },
      { attempts: 1, concurrency: 4 },
    );
    await jobs.start();
    for (let n = 0; n < 25; n++) await jobs.enqueue('bad', { n }, { id: `bad-${n}` });
    await expect.poll(async () => (await kindStatus(jobs, 'bad')).failed).toBe(25);
    const { failures } = await jobs.status();
    expect(failures).toHaveLength(20);
    expect(new Set(failures.map((f) => f.id)).size).toBe(20);
    await jobs.close();
  });
});
