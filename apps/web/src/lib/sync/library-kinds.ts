import type { LibraryChangeKind } from '@marquee/contract';

/** Every kind of the library a `changed` event can name; `resync`, restores and catch-ups read them all. */
export const ALL_KINDS: readonly LibraryChangeKind[] = ['bookmarks', 'progress', 'history', 'settings'];
