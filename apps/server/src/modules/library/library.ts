import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { RATINGS_MAX } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf } from '../../plugins/auth.ts';
import type { Database } from '../../db/schema.ts';

/**
 * Whose library a sync call reads or writes. Passphrase accounts have one library (profileId '');
 * household profiles get their own profileId (the X-Profile-Id header selects one).
 */
export interface LibraryRef {
  userId: string;
  profileId: string;
}

/** The library of a sync request: the caller's, in the profile X-Profile-Id selected (decision 040). */
export function libraryOf(request: FastifyRequest): LibraryRef {
  const auth = authOf(request);
  return { userId: auth.userId, profileId: auth.profileId ?? '' };
}

/** Change times before the app family existed, or in the future, are clamped (a fast clock must not win forever). */
const SYNC_EPOCH_MS = Date.UTC(2021, 6, 13);
const clampChangeTime = (ms: number, nowMs: number) => Math.min(Math.max(ms, SYNC_EPOCH_MS), nowMs);

/** When a change was made: the client's `updatedAt` (clamped to [sync epoch, now]) or, when it sent none, now. */
export function changeTimeOf(updatedAt: string | undefined, now: number): number {
  if (updatedAt === undefined) return now;
  const ms = Date.parse(updatedAt);
  return Number.isFinite(ms) ? clampChangeTime(ms, now) : now;
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** A position in a whole list (latest change first): after the row with this change time and number. */
export interface ListPosition {
  updatedAt: number;
  seq: number;
}

/**
 * How big one library may grow (decision 072): rows of progress (one per movie or episode), live
 * bookmarks, plays in the watch history (decision 095) and live ratings (decision 103). A write that
 * would add a row beyond it is refused with 409 `library_full`.
 */
export const LIBRARY_LIMITS = {
  progress: 100_000,
  bookmarks: 20_000,
  history: 200_000,
  ratings: RATINGS_MAX,
} as const;

/** Rows per transaction of an import, and per slice of a big read: each takes a few milliseconds. */
export const LIBRARY_BATCH_ROWS = 250;

/** Lets every request that is waiting run before the next slice of a long job (the event loop is shared). */
export const yieldToOthers = () => new Promise<void>((resolve) => setImmediate(resolve));

export function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

const limitNames = {
  progress: 'progress rows (one per movie or episode)',
  bookmarks: 'bookmarks',
  history: 'plays in its watch history',
  ratings: 'ratings',
} as const;

/**
 * 409 `library_full`: the write would take the library past its limit (`limit`, when a service was
 * given a lower one); nothing was written.
 */
export const libraryFull = (kind: keyof typeof LIBRARY_LIMITS, limit: number = LIBRARY_LIMITS[kind]) =>
  new AppError(
    409,
    'library_full',
    `A library holds at most ${limit.toLocaleString('en')} ${limitNames[kind]}; remove some before adding more`,
  );

/** The library tables whose removals are tombstones (`deleted` = 1) kept beside the live rows. */
export type TombstonedTable = 'bookmarks' | 'watch_history' | 'ratings';

/** How many live rows (not tombstones) a library holds in `table`: the check against its limit. */
export async function countLiveRows(
  trx: Kysely<Database>,
  table: TombstonedTable,
  lib: LibraryRef,
): Promise<number> {
  const row = await trx
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', lib.userId)
    .where('profile_id', '=', lib.profileId)
    .where('deleted', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
