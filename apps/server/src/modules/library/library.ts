import type { FastifyRequest } from 'fastify';
import { clampChangeTime } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';

/**
 * Whose library a sync call reads or writes. Passphrase accounts have one library (profileId '');
 * household profiles get their own profileId (the X-Profile-Id header selects one).
 */
export interface LibraryRef {
  userId: string;
  profileId: string;
}

export const accountLibrary = (userId: string): LibraryRef => ({ userId, profileId: '' });

/** The library of a sync request: the caller's, in the profile X-Profile-Id selected (decision 040). */
export function libraryOf(request: FastifyRequest): LibraryRef {
  const auth = authOf(request);
  return { userId: auth.userId, profileId: auth.profileId ?? '' };
}

/** When a change was made: the client's `updatedAt` (clamped to [sync epoch, now]) or, when it sent none, now. */
export function changeTimeOf(updatedAt: string | undefined, now: number): number {
  if (updatedAt === undefined) return now;
  const ms = Date.parse(updatedAt);
  return Number.isFinite(ms) ? clampChangeTime(ms, now) : now;
}

export const iso = (ms: number) => new Date(ms).toISOString();
