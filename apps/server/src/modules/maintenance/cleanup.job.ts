import type { FastifyBaseLogger } from 'fastify';
import type { ChallengesRepository } from '../auth/auth.repository.ts';
import type { BookmarksRepository } from '../bookmarks/bookmarks.repository.ts';
import type { CaptchaSolutionsRepository } from '../captcha/captcha.repository.ts';
import type { DeviceLinksRepository } from '../device-links/device-links.repository.ts';
import type { HistoryRepository } from '../history/history.repository.ts';
import type { ProgressRepository } from '../progress/progress.repository.ts';
import type { RatingsRepository } from '../ratings/ratings.repository.ts';
import type { SessionsRepository } from '../users/sessions.repository.ts';
import { scheduleRecurring, type JobRuns } from './job-runs.ts';

/** Removals are remembered this long; an offline change older than that can no longer be refused. */
export const TOMBSTONE_TTL_MS = 180 * 24 * 60 * 60_000;

export interface CleanupTargets {
  challenges: ChallengesRepository;
  sessions: SessionsRepository;
  captchaSolutions: CaptchaSolutionsRepository;
  deviceLinks: DeviceLinksRepository;
  bookmarks: BookmarksRepository;
  progress: ProgressRepository;
  history: HistoryRepository;
  ratings: RatingsRepository;
}

/** One pass: expired challenges, sessions, sign-in codes and used captcha solutions; old tombstones. Idempotent. */
export async function runCleanup(t: CleanupTargets, now: number): Promise<Record<string, number>> {
  return {
    challenges: await t.challenges.deleteExpired(now),
    sessions: await t.sessions.deleteExpired(now),
    captchaSolutions: await t.captchaSolutions.deleteExpired(now),
    deviceLinks: await t.deviceLinks.deleteExpired(now),
    bookmarkTombstones: await t.bookmarks.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
    progressTombstones: await t.progress.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
    historyTombstones: await t.history.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
    ratingTombstones: await t.ratings.deleteTombstonesBefore(now - TOMBSTONE_TTL_MS),
  };
}

/**
 * Runs the cleanup every `intervalMs` (hourly in production), once across processes: see
 * `scheduleRecurring`. Returns the stop function.
 */
export function scheduleCleanup(
  t: CleanupTargets,
  options: { intervalMs: number; now: () => number; log: FastifyBaseLogger; jobs: JobRuns },
): () => Promise<void> {
  return scheduleRecurring('cleanup', (now) => runCleanup(t, now), {
    ...options,
    onDone: (removed) => {
      if (Object.values(removed).some((n) => n > 0)) options.log.info({ removed }, 'cleanup');
    },
  });
}
