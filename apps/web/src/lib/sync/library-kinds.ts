import type { LibraryChangeKind } from '@marquee/contract';
import { isMissingNewerRoute } from '../api/index.ts';

/** Every kind of the library a `changed` event can name; `resync`, restores and catch-ups read them all. */
export const ALL_KINDS: readonly LibraryChangeKind[] = [
  'bookmarks',
  'progress',
  'history',
  'ratings',
  'settings',
];

/**
 * The kinds an account server of the older family keeps none of (no routes: 404 or 405): the watch
 * history (decision 095) and ratings (decision 103). What this device holds of them stays here, and
 * that is not an error: not a failed read, not a refused change.
 */
export const NEWER_KINDS = ['history', 'ratings'] as const satisfies readonly LibraryChangeKind[];
export const isNewerKind = (kind: string): kind is (typeof NEWER_KINDS)[number] =>
  (NEWER_KINDS as readonly string[]).includes(kind);

/**
 * `call`'s answer, or null when the account's server has no such route (the older family: the newer
 * kinds, and the order of named lists, decision 097). Any other failure is thrown.
 */
export async function unlessRouteMissing<T>(call: Promise<T>): Promise<T | null> {
  try {
    return await call;
  } catch (error) {
    if (isMissingNewerRoute(error)) return null;
    throw error;
  }
}
