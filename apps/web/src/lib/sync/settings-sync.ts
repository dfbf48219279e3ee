import type { UserSettings } from '@marquee/contract';
import { useAccountStore } from '../../stores/account-store.ts';
import { validWatchedThreshold, WATCHED_SHARE } from '../../stores/library/history-rules.ts';
import { useLibraryStore } from '../../stores/library/library-store.ts';
import { validContinueHidden } from '../../stores/library/library-rules.ts';
import type { OutboxOp, SyncedSettings } from '../../stores/library/outbox.ts';
import {
  stillWatchingDefault,
  validPlayerShortcuts,
  validStillWatching,
} from '../../stores/player-settings-rules.ts';
import { THEMES, toTheme, usePreferencesStore } from '../../stores/preferences-store.ts';
import { clampStyling, useSubtitlesStore } from '../../stores/subtitles-store.ts';
import { isAudioLanguage, listedLanguage } from '../languages.ts';

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
  const threshold = validWatchedThreshold(server.watchedThreshold);
  if (threshold !== null) merged.watchedThreshold = threshold;
  const hidden = validContinueHidden(server.continueHidden);
  if (hidden !== null) merged.continueHidden = hidden;
  if (typeof server.enablePauseOverlay === 'boolean') merged.enablePauseOverlay = server.enablePauseOverlay;
  const still = validStillWatching(server.stillWatching);
  if (still) merged.stillWatching = still;
  const keys = validPlayerShortcuts(server.playerShortcuts);
  if (keys) merged.playerShortcuts = keys;
  if (typeof server.hideSpoilers === 'boolean') merged.hideSpoilers = server.hideSpoilers;
  if (typeof server.hideWatchedInDiscover === 'boolean')
    merged.hideWatchedInDiscover = server.hideWatchedInDiscover;
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
  // Cleared (null) or out of range: the default.
  if (s.watchedThreshold !== undefined)
    usePreferencesStore.getState().setPreferences({
      watchedThreshold: validWatchedThreshold(s.watchedThreshold) ?? WATCHED_SHARE,
    });
  // Cleared (null) or not a map: none; a map, its valid marks (the newest 200).
  if (s.continueHidden !== undefined)
    usePreferencesStore.getState().setPreferences({
      continueHidden: validContinueHidden(s.continueHidden) ?? {},
    });
  // Cleared (null): the defaults (the overlay on, the question after 3 episodes or 90 minutes, no keys changed).
  if (s.enablePauseOverlay !== undefined)
    usePreferencesStore.getState().setPreferences({ enablePauseOverlay: s.enablePauseOverlay ?? true });
  if (s.stillWatching !== undefined)
    usePreferencesStore.getState().setPreferences({
      stillWatching: validStillWatching(s.stillWatching) ?? stillWatchingDefault(),
    });
  if (s.playerShortcuts !== undefined)
    usePreferencesStore.getState().setPreferences({
      playerShortcuts: validPlayerShortcuts(s.playerShortcuts) ?? {},
    });
  // Cleared (null): shown, the default.
  if (s.hideSpoilers !== undefined)
    usePreferencesStore.getState().setPreferences({ hideSpoilers: s.hideSpoilers ?? false });
  if (s.hideWatchedInDiscover !== undefined)
    usePreferencesStore
      .getState()
      .setPreferences({ hideWatchedInDiscover: s.hideWatchedInDiscover ?? false });
}

/**
 * The synced settings as the local stores hold them, by the settings endpoint's names and values (what
 * the server would hold once every change is sent; null = not set): the reverse of `writeSyncedSettings`.
 * The backup file carries them.
 */
export function readSyncedSettings(): Partial<UserSettings> {
  const prefs = usePreferencesStore.getState();
  const subtitles = useSubtitlesStore.getState();
  return {
    applicationLanguage: prefs.language,
    applicationTheme: prefs.theme,
    defaultSubtitleLanguage: subtitles.lastSelectedLanguage,
    proxyUrls: useAccountStore.getState().proxyUrls,
    enableAutoplay: prefs.enableAutoplay,
    subtitleStyling: { ...subtitles.styling },
    defaultAudioLanguage: prefs.audioLanguage,
    watchedThreshold: prefs.watchedThreshold,
    continueHidden: Object.keys(prefs.continueHidden).length ? { ...prefs.continueHidden } : null,
    enablePauseOverlay: prefs.enablePauseOverlay,
    stillWatching: { ...prefs.stillWatching },
    playerShortcuts: Object.keys(prefs.playerShortcuts).length ? { ...prefs.playerShortcuts } : null,
    hideSpoilers: prefs.hideSpoilers,
    hideWatchedInDiscover: prefs.hideWatchedInDiscover,
  };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const HEX_COLOR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
/** A subtitle language as the family's clients name one ("en", "pt-BR"): letters, digits and hyphens. */
const isLanguageTag = (v: unknown): v is string =>
  typeof v === 'string' && /^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8}){0,3}$/.test(v);

/**
 * The synced settings among those a file brings (a backup's, named as the settings endpoint names them),
 * each only when its value is one this app can use: a listed UI language, one of our themes, a
 * language tag, a caption style (within its limits), an audio language, a
 * threshold of 0.5–1, "stop watching" marks (the valid ones, added to this device's: a file never brings
 * a show back, decision 102), the pause overlay, when to ask "Are you still watching?" and the changed
 * player keys (decision 112), whether spoilers are hidden (decision 115) and watched movies in Discover (decision 116). Fields we do not know, unset ones (null) and unusable values are left out.
 */
export function knownSyncedSettings(raw: Record<string, unknown>): SyncedSettings {
  const out: SyncedSettings = {};
  const language =
    typeof raw.applicationLanguage === 'string' ? listedLanguage(raw.applicationLanguage) : null;
  if (language) out.applicationLanguage = language;
  if (raw.applicationTheme === 'default') out.applicationTheme = null;
  else if ((THEMES as readonly unknown[]).includes(raw.applicationTheme))
    out.applicationTheme = raw.applicationTheme as string;
  if (isLanguageTag(raw.defaultSubtitleLanguage)) out.defaultSubtitleLanguage = raw.defaultSubtitleLanguage;
  // Never a file's proxies: a shared or forged backup would send the viewer's streams through servers of
  // its author's choosing. The viewer adds proxies in Settings themselves.
  if (typeof raw.enableAutoplay === 'boolean') out.enableAutoplay = raw.enableAutoplay;
  if (isRecord(raw.subtitleStyling)) {
    // What it lacks stays as it is here; a colour only as `#rgb` … `#rrggbbaa`; synced sizes stop at 2.
    const { color, ...rest } = raw.subtitleStyling;
    const styling = clampStyling(
      { ...rest, ...(typeof color === 'string' && HEX_COLOR.test(color) ? { color } : {}) },
      useSubtitlesStore.getState().styling,
    );
    out.subtitleStyling = { ...styling, size: Math.min(2, styling.size) };
  }
  if (isAudioLanguage(raw.defaultAudioLanguage)) out.defaultAudioLanguage = raw.defaultAudioLanguage;
  const threshold = validWatchedThreshold(raw.watchedThreshold);
  if (threshold !== null) out.watchedThreshold = threshold;
  const marks = validContinueHidden(raw.continueHidden);
  if (marks && Object.keys(marks).length) out.continueHidden = laterMarks(marks);
  if (typeof raw.enablePauseOverlay === 'boolean') out.enablePauseOverlay = raw.enablePauseOverlay;
  const still = validStillWatching(raw.stillWatching);
  if (still) out.stillWatching = still;
  const keys = validPlayerShortcuts(raw.playerShortcuts);
  if (keys && Object.keys(keys).length) out.playerShortcuts = keys;
  if (typeof raw.hideSpoilers === 'boolean') out.hideSpoilers = raw.hideSpoilers;
  if (typeof raw.hideWatchedInDiscover === 'boolean') out.hideWatchedInDiscover = raw.hideWatchedInDiscover;
  return out;
}

/** A file's marks merged into this device's: per title the later, the newest kept. */
function laterMarks(file: Record<string, number>): Record<string, number> {
  const merged = { ...usePreferencesStore.getState().continueHidden };
  for (const [key, at] of Object.entries(file)) merged[key] = Math.max(merged[key] ?? at, at);
  return validContinueHidden(merged) ?? {};
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
