import { useEffect } from 'react';

/**
 * Screens that show the library (home, My List) ask for a fresh read when they open: the sync code
 * (loaded after the first view) listens for this event and reads what changed since its marks — a
 * 304 when nothing did (decision 079). A window event keeps the screens free of the sync code.
 */
export const LIBRARY_REFRESH_EVENT = 'marquee:refresh-library';

export function requestLibraryRefresh(target: Pick<Window, 'dispatchEvent'> = window): void {
  target.dispatchEvent(new Event(LIBRARY_REFRESH_EVENT));
}

/** Asks for a fresh read of the library when the screen opens. */
export function useLibraryRefreshOnOpen(): void {
  useEffect(() => requestLibraryRefresh(), []);
}
