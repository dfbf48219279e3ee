import { useAccountStore } from '../../stores/account-store.ts';
import { WATCHED_SHARE } from '../../stores/library/history-rules.ts';
import { useLibraryStore, type StashedLibrary } from '../../stores/library/library-store.ts';
import { forgetProfile, switchLibrary } from '../../stores/library/profiles.ts';
import { stillWatchingDefault } from '../../stores/player-settings-rules.ts';
import { usePreferencesStore } from '../../stores/preferences-store.ts';
import { DEFAULT_STYLING, useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { writeSyncedSettings } from './settings-sync.ts';

/**
 * The preferences each household profile keeps for itself (decision 042; the marks, decision 102; the
 * player's details, decision 112).
 */
const profilePrefs = (): NonNullable<StashedLibrary['prefs']> => ({
  enableAutoplay: usePreferencesStore.getState().enableAutoplay,
  subtitleStyling: { ...useSubtitlesStore.getState().styling },
  watchedThreshold: usePreferencesStore.getState().watchedThreshold,
  continueHidden: usePreferencesStore.getState().continueHidden,
  enablePauseOverlay: usePreferencesStore.getState().enablePauseOverlay,
  stillWatching: usePreferencesStore.getState().stillWatching,
  playerShortcuts: usePreferencesStore.getState().playerShortcuts,
  hideSpoilers: usePreferencesStore.getState().hideSpoilers,
  hideWatchedInDiscover: usePreferencesStore.getState().hideWatchedInDiscover,
});

/** Makes `to`'s library (and its own preferences) the device's, stashing the one left. */
export function switchLocalLibrary(to: string): void {
  let prefs: StashedLibrary['prefs'];
  let switched = false;
  useLibraryStore.setState((state) => {
    const next = switchLibrary(state, to, profilePrefs());
    if (!next) return {};
    switched = true;
    prefs = next.prefs;
    return next.data;
  });
  if (switched) {
    const p = prefs ?? { enableAutoplay: true, subtitleStyling: DEFAULT_STYLING };
    writeSyncedSettings({
      enableAutoplay: p.enableAutoplay,
      subtitleStyling: p.subtitleStyling,
      watchedThreshold: p.watchedThreshold ?? WATCHED_SHARE,
      continueHidden: p.continueHidden ?? {},
      enablePauseOverlay: p.enablePauseOverlay ?? true,
      stillWatching: p.stillWatching ?? stillWatchingDefault(),
      playerShortcuts: p.playerShortcuts ?? {},
      hideSpoilers: p.hideSpoilers ?? false,
      hideWatchedInDiscover: p.hideWatchedInDiscover ?? false,
    });
  }
}

/** The active household profile is gone: back to the account's own library, nothing of it kept. */
export function forgetActiveProfile(): void {
  const gone = useLibraryStore.getState().profile;
  switchLocalLibrary('');
  useLibraryStore.setState((state) => forgetProfile(state, gone));
  // Not chosen any more: "who's watching" is asked again.
  useAccountStore.getState().updateAccount({ profileId: undefined });
}

export interface ProfileSwitchDeps {
  /** Brings the chosen library from the server (merged with what is pending here). */
  restore(): Promise<unknown>;
}

export interface ProfileSwitch {
  chooseProfile(profileId: string): Promise<void>;
  profileDeleted(profileId: string): void;
}

export function createProfileSwitch({ restore }: ProfileSwitchDeps): ProfileSwitch {
  return {
    /**
     * "Who's watching": makes a household profile (or '' for the account's own) the active library on
     * this device. The library of the profile left is kept on the device and its pending changes are
     * still sent to it; the chosen one is then restored (merged) from the server.
     */
    async chooseProfile(profileId) {
      switchLocalLibrary(profileId);
      useAccountStore.getState().updateAccount({ profileId });
      await restore();
    },

    /** After a household profile was deleted on the server: nothing of it stays on this device. */
    profileDeleted(profileId) {
      if (useLibraryStore.getState().profile === profileId) {
        forgetActiveProfile();
        void restore();
      } else {
        useLibraryStore.setState((state) => forgetProfile(state, profileId));
      }
    },
  };
}
