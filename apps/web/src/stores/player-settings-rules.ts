/**
 * The synced player settings of decision 112, checked without schemas (the first view loads this):
 * when the player asks "Are you still watching?", and the keys the viewer changed.
 */
import {
  PLAYER_SHORTCUT_ENTRIES_MAX,
  PLAYER_SHORTCUT_KEY_NAME_MAX,
  PLAYER_SHORTCUT_KEYS_MAX,
  STILL_WATCHING_DEFAULT,
  STILL_WATCHING_EPISODES_MAX,
  STILL_WATCHING_MINUTES_MAX,
} from '@marquee/contract/values';

export interface StillWatching {
  /** Episodes started on their own in a row without input; 0 = no such limit. */
  episodes: number;
  /** Minutes of playback without input; 0 = no such limit. */
  minutes: number;
}
export const stillWatchingDefault = (): StillWatching => ({ ...STILL_WATCHING_DEFAULT });

/** The choices the settings page offers (another client's other values are shown as they are). */
export const STILL_WATCHING_CHOICES: readonly StillWatching[] = [
  { episodes: 0, minutes: 0 },
  { episodes: 2, minutes: 60 },
  { episodes: 3, minutes: 90 },
  { episodes: 5, minutes: 180 },
];

const wholeIn = (v: unknown, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= max;

/** A valid `stillWatching`, or null (not one: the default applies). */
export function validStillWatching(value: unknown): StillWatching | null {
  if (typeof value !== 'object' || value === null) return null;
  const { episodes, minutes } = value as Record<string, unknown>;
  if (!wholeIn(episodes, STILL_WATCHING_EPISODES_MAX) || !wholeIn(minutes, STILL_WATCHING_MINUTES_MAX))
    return null;
  return { episodes, minutes };
}

/** Action → the keys the viewer chose for it (only the changed actions). */
export type PlayerShortcuts = Record<string, string[]>;

const ACTION_NAME = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/**
 * The usable part of a `playerShortcuts` map, or null when it is not a map: actions named as the
 * contract names them, each with up to 3 distinct key names (longer lists cut), at most 40 actions.
 */
export function validPlayerShortcuts(value: unknown): PlayerShortcuts | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const out: PlayerShortcuts = {};
  for (const [action, keys] of Object.entries(value as Record<string, unknown>)) {
    if (Object.keys(out).length >= PLAYER_SHORTCUT_ENTRIES_MAX) break;
    if (!ACTION_NAME.test(action) || !Array.isArray(keys)) continue;
    const names = keys.filter(
      (k): k is string => typeof k === 'string' && k.length > 0 && k.length <= PLAYER_SHORTCUT_KEY_NAME_MAX,
    );
    out[action] = [...new Set(names)].slice(0, PLAYER_SHORTCUT_KEYS_MAX);
  }
  return out;
}
