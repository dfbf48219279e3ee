import { clampChangeTime } from '@marquee/contract';

/**
 * Whose library a sync call reads or writes. Passphrase accounts have one library (profileId '');
 * household profiles of email accounts (later issue) get their own profileId.
 */
export interface LibraryRef {
  userId: string;
  profileId: string;
}

export const accountLibrary = (userId: string): LibraryRef => ({ userId, profileId: '' });

/** When a change was made: the client's `updatedAt` (clamped to [sync epoch, now]) or, when it sent none, now. */
export function changeTimeOf(updatedAt: string | undefined, now: number): number {
  if (updatedAt === undefined) return now;
  const ms = Date.parse(updatedAt);
  return Number.isFinite(ms) ? clampChangeTime(ms, now) : now;
}

export const iso = (ms: number) => new Date(ms).toISOString();
