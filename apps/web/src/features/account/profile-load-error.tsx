import { useIsOnline } from '../../lib/online-status.ts';
import { useAccountStore, useLibraryStore, useSessionStatus } from '../../stores/index.ts';

/**
 * "Failed to load your profile" (never while offline): a full screen only when there is nothing local to show (this device
 * never loaded the account and holds no library); otherwise a notice over the working app.
 */
export function useProfileLoadFailure(): 'screen' | 'notice' | null {
  const failed = useSessionStatus((s) => s.restoreFailed);
  const neverLoaded = useAccountStore((s) => s.account !== null && s.lastRestoredAt === null);
  const empty = useLibraryStore(
    (s) =>
      Object.keys(s.bookmarks).length === 0 &&
      Object.keys(s.progress).length === 0 &&
      Object.keys(s.history).length === 0,
  );
  // Offline, the offline banner already says why (two banners stacked); the restore runs again once
  // the network is back (session.ts).
  const online = useIsOnline();
  if (!failed || !online) return null;
  return neverLoaded && empty ? 'screen' : 'notice';
}
