/**
 * The player's key bindings (issue 29, decision 112): the keys each action has by default, the viewer's
 * changes over them (the synced `playerShortcuts`: only the actions that differ from their defaults), and
 * how a change is made. Pure: the store's map in, a map to store out.
 *
 * Rules:
 * - An action the viewer changed has exactly the keys stored for it (none is allowed: it then has no key);
 *   the others have their defaults, less any key a changed action took. A key does one action: when two
 *   stored actions name the same key, the first in `PLAYER_SHORTCUT_ACTIONS` order keeps it.
 * - Binding key K to action A replaces A's keys with [K] (the panel's "Change" means "this key instead")
 *   and takes K from the action that had it, which then keeps its other keys (and is stored as changed).
 * - Resetting A gives it its default keys back, taking them from any action that had them meanwhile.
 * - Escape, Tab and Enter (the menus and focus need them), modifier keys alone, keys pressed with
 *   Ctrl, Alt or Meta (the browser's; the player ignores them) and the media keys the player answers
 *   itself (media-commands.ts: ⏯ always plays or pauses) are never bound.
 * - Actions of a newer client (names this one does not know) are kept as stored, and ignored here.
 */
import {
  PLAYER_SHORTCUT_ACTIONS,
  PLAYER_SHORTCUT_KEY_NAME_MAX,
  PLAYER_SHORTCUT_KEYS_MAX,
  type PlayerShortcutAction,
} from '@marquee/contract/values';
import { isMediaKey } from './media-commands.ts';

export type ShortcutAction = PlayerShortcutAction;
export const SHORTCUT_ACTIONS: readonly ShortcutAction[] = PLAYER_SHORTCUT_ACTIONS;

/** The stored map: action → keys (`KeyboardEvent.key`, letters in lower case), changed actions only. */
export type ShortcutOverrides = Readonly<Record<string, readonly string[]>>;
/** Every action's keys as they act now. */
export type ShortcutBindings = Readonly<Record<ShortcutAction, readonly string[]>>;

/** Today's keys (docs/decisions/050-player.md, "Keyboard": the older clients' shortcuts). */
export const DEFAULT_BINDINGS: ShortcutBindings = {
  playPause: [' ', 'k'],
  seekBack5: ['ArrowLeft'],
  seekForward5: ['ArrowRight'],
  seekBack10: ['j'],
  seekForward10: ['l'],
  frameBack: [','],
  frameForward: ['.'],
  volumeUp: ['ArrowUp'],
  volumeDown: ['ArrowDown'],
  mute: ['m'],
  slower: ['<'],
  faster: ['>'],
  fullscreen: ['f'],
  captions: ['c'],
  roll: ['r'],
  help: ['?'],
};

/** One character (a letter, `?`, `<`) or a named key (`ArrowLeft`, `PageUp`). */
const isCharacter = (key: string) => Array.from(key).length === 1;

/** The key as bindings name it: letters in lower case, so K and k are one key (as before). */
export const normalizeKey = (key: string) => (isCharacter(key) ? key.toLowerCase() : key);

/** Keys the menus and focus need (docs/decisions/084-accessibility-bar.md, the menu pattern). */
const RESERVED_KEYS = new Set(['Escape', 'Tab', 'Enter']);
/** Modifier and lock keys (UI Events `key` values): never a shortcut on their own. */
const MODIFIER_KEYS = new Set([
  'Alt',
  'AltGraph',
  'CapsLock',
  'Control',
  'Fn',
  'FnLock',
  'Hyper',
  'Meta',
  'NumLock',
  'OS',
  'ScrollLock',
  'Shift',
  'Super',
  'Symbol',
  'SymbolLock',
]);
/** What a key reports when it is not a key yet (a dead key, an input method composing) or unknown. */
const NOT_A_KEY = new Set(['Dead', 'Process', 'Unidentified', 'Compose']);

/**
 * Why a pressed key cannot be bound, or null when it can. `modifier`: the viewer is still pressing;
 * `media`: a media key, which does what its label says whatever the bindings.
 */
export type UnbindableReason = 'reserved' | 'modifier' | 'withModifier' | 'media' | 'unusable';

export interface PressedKey {
  key: string;
  altKey?: boolean;
  ctrlKey?: boolean;
  metaKey?: boolean;
}

export function unbindableReason(e: PressedKey): UnbindableReason | null {
  if (RESERVED_KEYS.has(e.key)) return 'reserved';
  if (MODIFIER_KEYS.has(e.key)) return 'modifier';
  if (e.altKey || e.ctrlKey || e.metaKey) return 'withModifier';
  if (isMediaKey(e.key)) return 'media';
  if (!e.key || NOT_A_KEY.has(e.key) || e.key.length > PLAYER_SHORTCUT_KEY_NAME_MAX) return 'unusable';
  return null;
}

const isBindableKey = (key: string) => unbindableReason({ key }) === null;

const ownKeys = (overrides: ShortcutOverrides, action: string): readonly string[] | undefined =>
  Object.hasOwn(overrides, action) && Array.isArray(overrides[action]) ? overrides[action] : undefined;

/** The defaults with the viewer's changes over them (see the rules above). */
export function effectiveBindings(overrides: ShortcutOverrides): ShortcutBindings {
  const claimed = new Set<string>();
  const changed = new Map<ShortcutAction, string[]>();
  for (const action of SHORTCUT_ACTIONS) {
    const stored = ownKeys(overrides, action);
    if (!stored) continue;
    const keys = [...new Set(stored.map(normalizeKey))]
      .filter((k) => isBindableKey(k) && !claimed.has(k))
      .slice(0, PLAYER_SHORTCUT_KEYS_MAX);
    for (const k of keys) claimed.add(k);
    changed.set(action, keys);
  }
  const out = {} as Record<ShortcutAction, readonly string[]>;
  for (const action of SHORTCUT_ACTIONS)
    out[action] = changed.get(action) ?? DEFAULT_BINDINGS[action].filter((k) => !claimed.has(k));
  return out;
}

/** The action a pressed key runs (`key` as `KeyboardEvent.key` gives it), or null. */
export function actionOfKey(bindings: ShortcutBindings, key: string): ShortcutAction | null {
  const k = normalizeKey(key);
  return SHORTCUT_ACTIONS.find((action) => bindings[action].includes(k)) ?? null;
}

/** Key caps' legends (Escape is shown beside the bindings: it always closes a menu). */
const LEGENDS: Record<string, string> = {
  Escape: 'Esc',
  ArrowLeft: '←',
  ArrowRight: '→',
  ArrowUp: '↑',
  ArrowDown: '↓',
};

/**
 * A key as the player shows it: Space (by the name given, in the interface language), arrows as ←→↑↓,
 * Esc, letters in upper case, other characters and named keys (`PageUp`, `F2`) as they are.
 */
export function keyLabel(key: string, spaceName = 'Space'): string {
  if (key === ' ') return spaceName;
  return LEGENDS[key] ?? (isCharacter(key) ? key.toUpperCase() : key);
}

const copyOf = (overrides: ShortcutOverrides) =>
  Object.fromEntries(Object.entries(overrides).map(([action, keys]) => [action, [...keys]]));

const sameKeys = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((k) => b.includes(k));

export interface ShortcutChange {
  /** The map to store: changed actions only (empty: all defaults). */
  overrides: Record<string, string[]>;
  /** The actions that lost keys to the change, with the keys each lost (in action order). */
  took: { action: ShortcutAction; keys: string[] }[];
}

/**
 * Gives `action` exactly `keys` (normalised), taking them from the actions that had them; the result
 * holds only the actions whose keys differ from their defaults (and a newer client's, as they were).
 */
function assignKeys(overrides: ShortcutOverrides, action: ShortcutAction, keys: readonly string[]) {
  const wanted = [...new Set(keys.map(normalizeKey))].filter(isBindableKey);
  const now = effectiveBindings(overrides);
  const next: Record<string, string[]> = {};
  for (const [name, stored] of Object.entries(overrides))
    if (!(SHORTCUT_ACTIONS as readonly string[]).includes(name)) next[name] = [...stored];
  const took: ShortcutChange['took'] = [];
  for (const other of SHORTCUT_ACTIONS) {
    if (other === action) continue;
    const lost = now[other].filter((k) => wanted.includes(k));
    if (lost.length) took.push({ action: other, keys: lost });
    // Written out whenever stored, or when it loses a key (its defaults would bring that key back).
    if (lost.length || ownKeys(overrides, other)) next[other] = now[other].filter((k) => !lost.includes(k));
  }
  next[action] = wanted;
  for (const name of SHORTCUT_ACTIONS)
    if (next[name] && sameKeys(next[name], DEFAULT_BINDINGS[name])) delete next[name];
  return { overrides: next, took };
}

/** Binds `key` to `action` in place of its keys (see the rules above); a key never bound changes nothing. */
export function bindKey(overrides: ShortcutOverrides, action: ShortcutAction, key: string): ShortcutChange {
  if (!isBindableKey(key)) return { overrides: copyOf(overrides), took: [] };
  return assignKeys(overrides, action, [key]);
}

/** Gives `action` its default keys back, taking them from whichever action had them meanwhile. */
export function resetAction(overrides: ShortcutOverrides, action: ShortcutAction): ShortcutChange {
  return assignKeys(overrides, action, DEFAULT_BINDINGS[action]);
}

/** Every action back to its defaults (a newer client's changes too: "all shortcuts"). */
export const resetAllBindings = (): ShortcutChange => ({ overrides: {}, took: [] });

/** The actions the viewer changed (this client's ones), in order. */
export const changedActions = (overrides: ShortcutOverrides): ShortcutAction[] =>
  SHORTCUT_ACTIONS.filter((action) => ownKeys(overrides, action) !== undefined);
