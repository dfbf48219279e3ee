import type { ThemeName } from '../lib/calendar.ts';
import { audioLanguageOf, isAudioLanguage, startLanguage } from '../lib/languages.ts';
import { appStorage, type KeyValueStorage } from '../lib/storage.ts';
import { createPersistedStore, storageKey } from './persisted.ts';
import { LEGACY_KEYS, readLegacyState } from './library/legacy.ts';
import { validWatchedThreshold, WATCHED_SHARE } from './library/history-rules.ts';
import { validContinueHidden, type ContinueHidden } from './library/library-rules.ts';
import {
  stillWatchingDefault,
  validPlayerShortcuts,
  validStillWatching,
  type PlayerShortcuts,
  type StillWatching,
} from './player-settings-rules.ts';

export const THEMES = ['default', 'blue', 'teal', 'red', 'gray'] as const satisfies readonly ThemeName[];

export interface PreferencesData {
  /** UI language code; null = not chosen (the browser's language, else English). */
  language: string | null;
  /** null = the default theme (teal on 20 April). */
  theme: Exclude<ThemeName, 'default'> | null;
  enableThumbnails: boolean;
  /**
   * The 10-foot layout and remote-control navigation (lib/tv/tv-mode.ts): automatic (on for TV
   * browsers), on or off. Kept on this device only: it is about its screen.
   */
  tvMode: 'auto' | 'on' | 'off';
  enableAutoplay: boolean;
  sourceOrder: string[];
  enableSourceOrder: boolean;
  /**
   * Preferred audio language of library titles (ISO 639, `fr`), synced as `defaultAudioLanguage`; null =
   * the UI language's.
   */
  audioLanguage: string | null;
  /**
   * The share of its length past which a movie or an episode counts as watched (0.5–1; 0.9 = 90 %),
   * synced per profile as `watchedThreshold`.
   */
  watchedThreshold: number;
  /**
   * The shows the viewer stopped watching: library key → when (epoch ms), hidden from Continue Watching
   * until watched again or a new episode airs (decision 102); synced per profile as `continueHidden`.
   */
  continueHidden: ContinueHidden;
  /**
   * The player's own details (decision 112), synced per profile: the pause overlay (p-stream's
   * `enablePauseOverlay`; on unless turned off), when it asks "Are you still watching?"
   * (`stillWatching`), and the keys the viewer changed (`playerShortcuts`, action → keys).
   */
  enablePauseOverlay: boolean;
  stillWatching: StillWatching;
  playerShortcuts: PlayerShortcuts;
  /**
   * Episodes not watched yet show no still and no overview (decision 115), synced per profile as
   * `hideSpoilers`; off unless turned on.
   */
  hideSpoilers: boolean;
  /** Watched movies are left out of Discover (decision 116), synced per profile; off unless turned on. */
  hideWatchedInDiscover: boolean;
}

interface PreferencesActions {
  setPreferences(patch: Partial<PreferencesData>): void;
}

export type PreferencesState = PreferencesData & PreferencesActions;

const initial = (): PreferencesData => ({
  language: null,
  theme: null,
  enableThumbnails: false,
  tvMode: 'auto',
  enableAutoplay: true,
  sourceOrder: [],
  enableSourceOrder: false,
  audioLanguage: null,
  watchedThreshold: WATCHED_SHARE,
  continueHidden: {},
  enablePauseOverlay: true,
  stillWatching: stillWatchingDefault(),
  playerShortcuts: {},
  hideSpoilers: false,
  hideWatchedInDiscover: false,
});

export const toTheme = (v: unknown): PreferencesData['theme'] =>
  typeof v === 'string' && (THEMES as readonly string[]).includes(v) && v !== 'default'
    ? (v as PreferencesData['theme'])
    : null;

function sanitize(d: Record<string, unknown>, init: PreferencesData): PreferencesData {
  return {
    language: typeof d.language === 'string' && d.language ? d.language : null,
    theme: toTheme(d.theme),
    enableThumbnails: typeof d.enableThumbnails === 'boolean' ? d.enableThumbnails : init.enableThumbnails,
    tvMode: d.tvMode === 'on' || d.tvMode === 'off' ? d.tvMode : init.tvMode,
    enableAutoplay: typeof d.enableAutoplay === 'boolean' ? d.enableAutoplay : init.enableAutoplay,
    sourceOrder: Array.isArray(d.sourceOrder)
      ? d.sourceOrder.filter((x): x is string => typeof x === 'string')
      : init.sourceOrder,
    enableSourceOrder:
      typeof d.enableSourceOrder === 'boolean' ? d.enableSourceOrder : init.enableSourceOrder,
    audioLanguage: isAudioLanguage(d.audioLanguage) ? d.audioLanguage : null,
    watchedThreshold: validWatchedThreshold(d.watchedThreshold) ?? init.watchedThreshold,
    continueHidden: validContinueHidden(d.continueHidden) ?? init.continueHidden,
    enablePauseOverlay:
      typeof d.enablePauseOverlay === 'boolean' ? d.enablePauseOverlay : init.enablePauseOverlay,
    stillWatching: validStillWatching(d.stillWatching) ?? init.stillWatching,
    playerShortcuts: validPlayerShortcuts(d.playerShortcuts) ?? init.playerShortcuts,
    hideSpoilers: typeof d.hideSpoilers === 'boolean' ? d.hideSpoilers : init.hideSpoilers,
    hideWatchedInDiscover:
      typeof d.hideWatchedInDiscover === 'boolean' ? d.hideWatchedInDiscover : init.hideWatchedInDiscover,
  };
}

export const usePreferencesStore = createPersistedStore<PreferencesData, PreferencesState>(
  {
    name: 'preferences',
    version: 1,
    initial,
    // Three stores of the older clients: __MW::theme, __MW::locale, __MW::preferences.
    legacy: (storage) => {
      const theme = readLegacyState(storage, LEGACY_KEYS.theme);
      const locale = readLegacyState(storage, LEGACY_KEYS.locale);
      const prefs = readLegacyState(storage, LEGACY_KEYS.preferences);
      if (!theme && !locale && !prefs) return null;
      return { ...prefs, theme: theme?.theme ?? null, language: locale?.language ?? null };
    },
    migrations: { 1: (old: Record<string, unknown>) => sanitize(old, initial()) },
    sanitize,
  },
  (set) => ({
    ...initial(),
    setPreferences: (patch) => set(() => patch),
  }),
);

/**
 * The UI language stored on this device (ours, else the older clients'), read before the stores start:
 * the first render's catalogs load in it. null when none was chosen.
 */
export function storedLanguage(storage: KeyValueStorage = appStorage()): string | null {
  const parse = (raw: string | null): unknown => {
    try {
      return raw ? (JSON.parse(raw) as { state?: { language?: unknown } }).state?.language : null;
    } catch {
      return null;
    }
  };
  const ours = parse(storage.getItem(storageKey('preferences')));
  if (typeof ours === 'string' && ours) return ours;
  const legacy = readLegacyState(storage, LEGACY_KEYS.locale)?.language;
  return typeof legacy === 'string' && legacy ? legacy : null;
}

/** The audio language the player asks the library for: the chosen one, else the UI language's. */
export function preferredAudioLanguage(
  prefs: Pick<PreferencesData, 'audioLanguage' | 'language'> = usePreferencesStore.getState(),
): string {
  return prefs.audioLanguage ?? audioLanguageOf(startLanguage(prefs.language));
}
