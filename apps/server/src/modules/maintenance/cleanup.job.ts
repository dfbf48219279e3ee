import type { FastifyBaseLogger } from 'fastify';
import type { ChallengesRepository } from '../auth/auth.repository.ts';
import type { BookmarksRepository } from '../bookmarks/bookmarks.repository.ts';
import type { CaptchaSolutionsRepository } from '../captcha/captcha.repository.ts';
import type { ProgressRepository } from '../progress/progress.repository.ts';
import type { SessionsRepository } from '../users/sessions.repository.ts';
import type { JobRuns } from './job-runs.ts';

/** Removals are remembered this long; an offline change older than that can no longer be refused. */
export const TOMBSTONE_TTL_MS = 180 * 24 * 60 * 60_000;

export interface CleanupTargets {
  challenges: ChallengesRepository;
  sessions: SessionsRepository;
  captchaSolutions: CaptchaSolutionsRepository;
  bookmarks: BookmarksRepository;
  progress: ProgressRepository;
}

/** One pass: expired challenges, sessions and used captcha solutions; old tombstones. Idempotent. */
export async function runCleanup(t: CleanupTargets, now: number): Promise<Record<string, number>> {
  return {
    challenges: await t.challenges.deleteExpired(now),
    sessions: await t.sessions.deleteExpired(now),
    captchaSolutions: await t.captchaSolutions.deleteExpired(now),
    bookmarkTombstones: await t.bookmarks.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
    progressTombstones: await t.progress.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
  };
}

/**
 * Runs the cleanup every `intervalMs` on an unref'd timer (it never keeps the process alive) with a
 * random first delay. Each tick first claims the run in the database (`jobs`): of several processes,
 * one runs it per interval. Returns the stop function.
 */
export function scheduleCleanup(
  t: CleanupTargets,
  options: { intervalMs: number; now: () => number; log: FastifyBaseLogger; jobs: JobRuns },
): () => Promise<void> {
  let running: Promise<void> | undefined;
  const pass = async () => {
    const now = options.now();
    // A little less than the interval: this process's next tick finds the job due again.
    if (!(await options.jobs.claim('cleanup', now, options.intervalMs * 0.9))) return {};
    return runCleanup(t, now);
  };
  const tick = () => {
    running ??= pass()
      .then((removed) => {
        if (Object.values(removed).some((n) => n > 0)) options.log.info({ removed }, 'cleanup');
      })
      .catch((error: unknown) => options.log.warn({ err: error }, 'cleanup failed; will retry'))
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
