import { isSignedIn, useAccountStore } from './account-store.ts';
import {
  libraryNeedsMigration,
  localLibraryStorage,
  persistLibrary,
  type LibraryPersistence,
  type OpenedLibraryStorage,
} from './library/library-persistence.ts';
import { librarySpec, setOutboxRecording, useLibraryStore } from './library/library-store.ts';
import { followOtherTabs, hydrateStores, persistedStores } from './persisted.ts';

export {
  useAccountStore,
  isSignedIn,
  PROFILE_COLORS,
  PROFILE_ICONS,
  type Account,
  type AccountProfile,
  type ProfileUnlock,
  profileHasPin,
  liveUnlock,
  kidsLimitOf,
  householdProfileName,
  storedInKidsProfile,
  profileChosen,
  isProfileShut,
} from './account-store.ts';
export { useLibraryStore } from './library/library-store.ts';
export {
  usePreferencesStore,
  preferredAudioLanguage,
  storedLanguage,
  THEMES,
  toTheme,
  type PreferencesData,
} from './preferences-store.ts';
export {
  useSubtitlesStore,
  clampStyling,
  clampDelay,
  SUBTITLE_COLORS,
  SUBTITLE_LIMITS,
  DEFAULT_STYLING,
  type SubtitleStyling,
} from './subtitles-store.ts';
export {
  usePlayerPrefsStore,
  useOnboardingStore,
  type SegmentSkip,
  type SegmentSkips,
} from './player-prefs-store.ts';
export { useMigrationStatus } from './migration-status.ts';
export { useSessionStatus } from './session-status.ts';
export type { OutboxOp, SyncedSettings, LibraryData } from './library/outbox.ts';

export { openLibraryStorage, type OpenedLibraryStorage } from './library/library-persistence.ts';

/** Whether start-up will migrate (or import) stored data, so the migration screen is worth showing. */
export const storesNeedMigration = (library: OpenedLibraryStorage = localLibraryStorage()) =>
  persistedStores().some((s) => s.needsMigration()) || libraryNeedsMigration(library, librarySpec);

/**
 * At start, after hydration: a passphrase account whose seed is still in localStorage (an earlier
 * Marquee, or the older clients' data) moves its key into IndexedDB where the platform allows
 * (decision 074). The code is loaded only when there is such a seed.
 */
function moveStoredSeed(): void {
  const account = useAccountStore.getState().account;
  if (account && account.kind !== 'email' && account.seed) {
    void import('./account-seed.ts').then((m) => m.moveSeedToKeyStore());
  }
}

let stopFollowing: (() => void) | undefined;
let library: LibraryPersistence | undefined;

/**
 * Reads every store (running migrations and the import of the older clients' data) and follows other
 * tabs. The library is read from `opened` (see openLibraryStorage), synchronously; the promise settles
 * once its data is in its storage.
 */
export function initStores(opened: OpenedLibraryStorage = localLibraryStorage()): Promise<void> {
  setOutboxRecording(isSignedIn);
  stopFollowing?.();
  library?.stop();
  hydrateStores();
  library = persistLibrary(useLibraryStore, opened, librarySpec);
  moveStoredSeed();
  stopFollowing = followOtherTabs();
  return library.ready;
}
