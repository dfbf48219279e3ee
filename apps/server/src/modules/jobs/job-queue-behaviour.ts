import { afterEach, expect, it } from 'vitest';
import type { JobContext, JobQueue } from './job-queue.ts';

/*
 * What every JobQueue does, run by the tests of each implementation (in-process-queue.test.ts,
 * bullmq-queue.test.ts) against the real thing.
 */

/** A promise to settle from outside (a job that waits for the test). */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

export const kindStatus = async (jobs: JobQueue, kind: string) =>
  (await jobs.status()).kinds.find((k) => k.kind === kind)!;

/** Until `jobs` settles, how many ran at once at most. */
export function concurrencyMeter() {
  let now = 0;
  let max = 0;
  return {
    enter: () => (max = Math.max(max, ++now)),
    leave: () => void (now -= 1),
    get max() {
      return max;
    },
  };
}

/** Opens a queue of the implementation under test; it is closed after each case. */
type NewQueue = () => Promise<JobQueue>;

export function jobQueueBehaviour(make: () => Promise<JobQueue>): void {
  const open: JobQueue[] = [];
  const queue = async () => {
    const jobs = await make();
    open.push(jobs);
    return jobs;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((q) => q.close()));
  });

  runningCases(queue);
  failureCases(queue);
  jobIdCases(queue);
  closingCases(queue);
}

/** Jobs run with their data, at most `concurrency` of a kind at once. */
function runningCases(queue: NewQueue): void {
  it('runs each job of a registered kind with its data, queued before the start too', async () => {
    const jobs = await queue();
    const seen: string[] = [];
    jobs.register<{ name: string }>('greet', async (data) => void seen.push(data.name));
    await jobs.enqueue('greet', { name: 'early' });
    const before = await kindStatus(jobs, 'greet');
    expect(before).toMatchObject({
      kind: 'greet',
      queued: 1,
      running: 0,
      done: 0,
      failed: 0,
      concurrency: 1,
    });
    await jobs.start();
    await jobs.enqueue('greet', { name: 'late' });
    await expect.poll(() => seen.length).toBe(2);
    expect(seen).toEqual(['early', 'late']);
    await expect.poll(async () => (await kindStatus(jobs, 'greet')).done).toBe(2);
    expect(await kindStatus(jobs, 'greet')).toMatchObject({ queued: 0, running: 0, failed: 0 });
    await expect(jobs.enqueue('nobody', {})).rejects.toThrow(/Unknown job kind/);
  });

  it('runs at most `concurrency` jobs of a kind at once', async () => {
    const jobs = await queue();
    const meter = concurrencyMeter();
    const release = gate();
    let started = 0;
    jobs.register(
      'slow',
      async () => {
        meter.enter();
        started += 1;
        await release.promise;
        meter.leave();
      },
      { concurrency: 2 },
    );
    await jobs.start();
    for (let i = 0; i < 5; i++) await jobs.enqueue('slow', { i });
    await expect.poll(() => started).toBe(2);
    await expect.poll(async () => (await kindStatus(jobs, 'slow')).running).toBe(2);
    expect(await kindStatus(jobs, 'slow')).toMatchObject({ queued: 3, concurrency: 2 });
    release.open();
    await expect.poll(async () => (await kindStatus(jobs, 'slow')).done).toBe(5);
    expect(meter.max).toBe(2);
  });
}

/** Retries, then failures for good, listed. */
function failureCases(queue: NewQueue): void {
  it('retries a failed job with growing pauses, then it is done', async () => {
    const jobs = await queue();
    const attempts: { attempt: number; at: number }[] = [];
    jobs.register(
      'flaky',
      async (_data, context: JobContext) => {
        attempts.push({ attempt: context.attempt, at: performance.now() });
        if (context.attempt < 3) throw new Error(`attempt ${context.attempt} failed`);
      },
      { attempts: 3, backoffMs: 60 },
    );
    await jobs.start();
    await jobs.enqueue('flaky', {}, { id: 'flaky-1' });
    await expect.poll(async () => (await kindStatus(jobs, 'flaky')).done).toBe(1);
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Exponential: ≥ 60 ms, then ≥ 120 ms (a little early is a timer's rounding).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(55);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(115);
    const status = await jobs.status();
    expect(status.kinds.find((k) => k.kind === 'flaky')).toMatchObject({ failed: 0, queued: 0 });
    expect(status.failures).toEqual([]);
  });

  it('fails a job for good when its attempts are used, lists it, and does not queue it again soon', async () => {
    const jobs = await queue();
    let runs = 0;
    jobs.register(
      'broken',
      async () => {
        runs += 1;
        throw new Error('ffmpeg could not read the file');
      },
      { attempts: 2, backoffMs: 10 },
    );
    jobs.register('retried', async () => void (runs += 100), { failedCooldownMs: 0 });
    await jobs.start();
    await jobs.enqueue('broken', { file: 'a' }, { id: 'file-a' });
    await expect.poll(async () => (await kindStatus(jobs, 'broken')).failed).toBe(1);
    expect(runs).toBe(2);
    const status = await jobs.status();
    expect(status.failures).toEqual([
      {
        kind: 'broken',
        id: 'file-a',
        error: 'ffmpeg could not read the file',
        attempts: 2,
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(Date.now() - Date.parse(status.failures[0]!.at)).toBeLessThan(60_000);
    // Within the cooldown the same id is not queued again.
    await jobs.enqueue('broken', { file: 'a' }, { id: 'file-a' });
    expect(await kindStatus(jobs, 'broken')).toMatchObject({ queued: 0, running: 0, failed: 1 });
    expect(runs).toBe(2);
  });
}

/** One job per id at a time, and a failed id again after its cooldown. */
function jobIdCases(queue: NewQueue): void {
  it('after the cooldown a failed id runs again', async () => {
    const jobs = await queue();
    let runs = 0;
    jobs.register(
      'again',
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('first time unlucky');
      },
      { attempts: 1, failedCooldownMs: 0 },
    );
    await jobs.start();
    await jobs.enqueue('again', {}, { id: 'x-1' });
    await expect.poll(async () => (await kindStatus(jobs, 'again')).failed).toBe(1);
    await jobs.enqueue('again', {}, { id: 'x-1' });
    await expect.poll(async () => (await kindStatus(jobs, 'again')).done).toBe(1);
    expect(runs).toBe(2);
  });

  it('does not queue a job whose id is queued or running, but does once it is done', async () => {
    const jobs = await queue();
    const release = gate();
    let runs = 0;
    jobs.register('once', async () => {
      runs += 1;
      await release.promise;
    });
    await jobs.enqueue('once', {}, { id: 'same' });
    await jobs.enqueue('once', {}, { id: 'same' });
    expect((await kindStatus(jobs, 'once')).queued).toBe(1);
    await jobs.start();
    await expect.poll(() => runs).toBe(1);
    await jobs.enqueue('once', {}, { id: 'same' });
    await jobs.enqueue('once', {}, { id: 'other' });
    expect(await kindStatus(jobs, 'once')).toMatchObject({ queued: 1, running: 1 });
    release.open();
    await expect.poll(async () => (await kindStatus(jobs, 'once')).done).toBe(2);
    expect(runs).toBe(2);
    await jobs.enqueue('once', {}, { id: 'same' });
    await expect.poll(async () => (await kindStatus(jobs, 'once')).done).toBe(3);
    expect(() => jobs.register('once', async () => undefined)).toThrow(/twice/);
    await expect(jobs.enqueue('once', {}, { id: '12' })).rejects.toThrow(/Not a job id/);
  });
}

/** Closing the queue stops what runs. */
function closingCases(queue: NewQueue): void {
  it('aborts the running jobs when it closes', async () => {
    const jobs = await queue();
    let signal: AbortSignal | undefined;
    jobs.register('long', async (_data, context) => {
      signal = context.signal;
      await new Promise<void>((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true }),
      );
    });
    await jobs.start();
    await jobs.enqueue('long', {});
    await expect.poll(() => signal).toBeDefined();
    await jobs.close();
    expect(signal!.aborted).toBe(true);
  });
}
