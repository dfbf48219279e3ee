import { isSignedIn, moveStoredSeed } from './account-store.ts';
import { setOutboxRecording } from './library/library-store.ts';
import { followOtherTabs, hydrateStores, persistedStores } from './persisted.ts';

export {
  useAccountStore,
  isSignedIn,
  PROFILE_COLORS,
  PROFILE_ICONS,
  type Account,
  type AccountProfile,
} from './account-store.ts';
export { useLibraryStore } from './library/library-store.ts';
export {
  usePreferencesStore,
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
export { usePlayerPrefsStore, useOnboardingStore } from './player-prefs-store.ts';
export { useMigrationStatus } from './migration-status.ts';
export { useSessionStatus } from './session-status.ts';
export type { OutboxOp, SyncedSettings, LibraryData } from './library/outbox.ts';

/** Whether start-up will migrate (or import) stored data, so the migration screen is worth showing. */
export const storesNeedMigration = () => persistedStores().some((s) => s.needsMigration());

let stopFollowing: (() => void) | undefined;

/** Reads every store (running migrations and the import of the older clients' data) and follows other tabs. */
export function initStores(): void {
  setOutboxRecording(isSignedIn);
  hydrateStores();
  moveStoredSeed();
  stopFollowing?.();
  stopFollowing = followOtherTabs();
}
