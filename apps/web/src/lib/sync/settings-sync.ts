import type { UserSettings } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import type { OutboxOp, SyncedSettings } from '../../stores/library/outbox.ts';
import { toTheme, usePreferencesStore } from '../../stores/preferences-store.ts';
import { useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { isAudioLanguage } from '../languages.ts';

/** Writes the server's synced settings into their stores (only those it has), then pending local changes over them. */
export function applySettings(server: Partial<UserSettings>, pending: readonly OutboxOp[]): void {
  const merged: SyncedSettings = {};
  if (server.applicationLanguage) merged.applicationLanguage = server.applicationLanguage;
  if (server.applicationTheme !== undefined && server.applicationTheme !== null)
    merged.applicationTheme = server.applicationTheme;
  if (server.defaultSubtitleLanguage) merged.defaultSubtitleLanguage = server.defaultSubtitleLanguage;
  if (server.proxyUrls) merged.proxyUrls = server.proxyUrls;
  const extra = server as {
    enableAutoplay?: boolean | null;
    subtitleStyling?: SyncedSettings['subtitleStyling'];
    defaultAudioLanguage?: string | null;
  };
  if (typeof extra.enableAutoplay === 'boolean') merged.enableAutoplay = extra.enableAutoplay;
  if (extra.defaultAudioLanguage) merged.defaultAudioLanguage = extra.defaultAudioLanguage;
  if (extra.subtitleStyling) merged.subtitleStyling = extra.subtitleStyling;
  for (const op of pending) if (op.kind === 'settings') Object.assign(merged, op.settings);
  writeSyncedSettings(merged);
}

/** Writes synced settings into the local stores without recording a change. */
export function writeSyncedSettings(s: SyncedSettings): void {
  if (s.applicationLanguage !== undefined)
    usePreferencesStore.getState().setPreferences({ language: s.applicationLanguage });
  if (s.applicationTheme !== undefined)
    usePreferencesStore.getState().setPreferences({ theme: toTheme(s.applicationTheme) });
  if (s.defaultSubtitleLanguage !== undefined)
    useSubtitlesStore.getState().setSubtitles({ lastSelectedLanguage: s.defaultSubtitleLanguage });
  if (s.proxyUrls !== undefined) useAccountStore.getState().setProxyUrls(s.proxyUrls);
  if (typeof s.enableAutoplay === 'boolean')
    usePreferencesStore.getState().setPreferences({ enableAutoplay: s.enableAutoplay });
  if (s.subtitleStyling) useSubtitlesStore.getState().setStyling(s.subtitleStyling);
  if (s.defaultAudioLanguage !== undefined)
    usePreferencesStore.getState().setPreferences({
      audioLanguage: isAudioLanguage(s.defaultAudioLanguage) ? s.defaultAudioLanguage : null,
    });
}

/**
 * Changes synced settings: applied locally at once and recorded in the outbox (sent while signed in).
 * `defaultSubtitleLanguage` is the player's last chosen subtitle language, `defaultAudioLanguage` the
 * preferred audio language of library titles.
 */
export function changeSyncedSettings(s: SyncedSettings): void {
  writeSyncedSettings(s);
  useLibraryStore.getState().queueSettings(s);
}
