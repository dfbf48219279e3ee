import { useEffect, useRef, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { usePreferencesStore } from '../../../stores/index.ts';
import { playerStore, requests, seekBy, togglePlay } from '../core/player-store.ts';
import {
  actionOfKey,
  effectiveBindings,
  normalizeKey,
  type ShortcutAction,
  type ShortcutBindings,
  type ShortcutOverrides,
} from '../core/shortcut-bindings.ts';
import { playerUi } from '../core/ui-store.ts';
import { usePlayerDeps } from '../session/player-deps.tsx';
import { showControls } from './controls-visibility.ts';
import { changeSpeed } from './playback-speed.ts';
import { takenByTvKeys, tvKeys } from './tv-keys.ts';
import { changeVolume, toggleMute } from './volume.ts';

const isTyping = (target: EventTarget | null) => {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable
  );
};

/** Whether the last input was a key (focus then comes from the keyboard) or a pointer. */
let lastInput: 'keyboard' | 'pointer' = 'pointer';
export const lastInputWasKeyboard = () => lastInput === 'keyboard';

/** The user asked for less motion (the roll then stays still). */
const prefersReducedMotion = () =>
  typeof window !== 'undefined' &&
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/** The bindings as they act now, read at key time: a change in the panel applies to the next key. */
let lastBindings: { overrides: ShortcutOverrides; bindings: ShortcutBindings } | null = null;
function currentBindings(): ShortcutBindings {
  const overrides = usePreferencesStore.getState().playerShortcuts;
  if (lastBindings?.overrides !== overrides)
    lastBindings = { overrides, bindings: effectiveBindings(overrides) };
  return lastBindings.bindings;
}

/** Runs an action of the video (every action but help, which `helpKeyHold` runs). */
function runShortcut(action: Exclude<ShortcutAction, 'help'>, toggleCaptions: () => Promise<void>): void {
  const { isPaused } = playerStore.getState().playback;
  switch (action) {
    case 'volumeUp':
      return changeVolume(0.15);
    case 'volumeDown':
      return changeVolume(-0.15);
    case 'mute':
      return toggleMute();
    case 'seekForward5':
      return seekBy(5);
    case 'seekBack5':
      return seekBy(-5);
    case 'seekForward10':
      return seekBy(10);
    case 'seekBack10':
      return seekBy(-10);
    case 'frameForward':
      if (isPaused) seekBy(1);
      return;
    case 'frameBack':
      if (isPaused) seekBy(-1);
      return;
    case 'faster':
      return changeSpeed(1);
    case 'slower':
      return changeSpeed(-1);
    case 'fullscreen':
      return requests.toggleFullscreen();
    case 'playPause':
      return togglePlay();
    case 'captions':
      return void toggleCaptions();
    case 'roll':
      if (prefersReducedMotion()) return;
      playerUi.getState().set({ rolling: true });
      setTimeout(() => playerUi.getState().set({ rolling: false }), 1_000);
  }
}

/** How long the help key is held before the shortcuts show over the video (a shorter press is a tap). */
export const SHORTCUTS_HOLD_MS = 400;

/**
 * The help key (issue 29): held past `SHORTCUTS_HOLD_MS`, every shortcut shows over the video until it
 * is released; a tap opens (or closes) the shortcuts panel, as before. The release is matched by the
 * physical key (`code`): Shift let go first turns `?` into `/`.
 */
function helpKeyHold(tap: () => void) {
  let held: { code: string; key: string; timer: ReturnType<typeof setTimeout>; shown: boolean } | null = null;
  const show = (shown: boolean) => playerUi.getState().set({ shortcutsHeld: shown });
  const end = () => {
    if (!held) return false;
    clearTimeout(held.timer);
    const { shown } = held;
    held = null;
    if (shown) show(false);
    return shown;
  };
  return {
    down(event: KeyboardEvent) {
      if (event.repeat || held) return;
      const timer = setTimeout(() => {
        if (!held) return;
        held.shown = true;
        show(true);
      }, SHORTCUTS_HOLD_MS);
      held = { code: event.code, key: normalizeKey(event.key), timer, shown: false };
    },
    up(event: KeyboardEvent) {
      if (!held) return;
      const same = held.code && event.code ? event.code === held.code : normalizeKey(event.key) === held.key;
      if (same && !end()) tap();
    },
    /** The window lost focus (no key-up will come): the overlay goes, nothing opens. */
    cancel: end,
  };
}

const isButton = (target: EventTarget | null) => (target as HTMLElement | null)?.tagName === 'BUTTON';

/**
 * The player's keys, by the viewer's bindings (core/shortcut-bindings.ts; by default the app family's
 * set: ↑/↓ volume ±0.15, M mute, →/← ±5 s, L/J ±10 s, ./, ±1 s while paused, >/< speed, F fullscreen,
 * Space/K play-pause, C captions, R rolls the player, ? the shortcuts). Letters in either case; ignored
 * while typing and with Alt, Ctrl or Meta; Escape closes a menu; an open menu holds the other keys, and
 * the shortcuts panel takes the key it is waiting for before this handler (menus/shortcuts-menu.tsx).
 * In TV mode the remote's arrows and OK are the player's or the page's navigation first (tv-keys.ts):
 * the bindings see only the keys those leave.
 */
export function useKeyboardShortcuts(o: {
  menuOpen: boolean;
  closeMenu(): void;
  openShortcuts(): void;
  containerRef: RefObject<HTMLElement | null>;
}) {
  const { toggleCaptions } = usePlayerDeps();
  const ref = useRef({ ...o, toggleCaptions });
  useEffect(() => {
    ref.current = { ...o, toggleCaptions };
  });
  useEffect(() => {
    const help = helpKeyHold(() => ref.current.openShortcuts());
    const tv = tvKeys({
      container: () => ref.current.containerRef.current,
      menuOpen: () => ref.current.menuOpen,
    });
    const onPointer = () => {
      lastInput = 'pointer';
      if (playerUi.getState().keyboardFocus) playerUi.getState().set({ keyboardFocus: false });
    };
    const onKey = (event: KeyboardEvent) => {
      lastInput = 'keyboard';
      if (takenByTvKeys(event)) return;
      // Escape closes a menu even from its search field.
      if (event.key === 'Escape') {
        if (ref.current.menuOpen) {
          event.preventDefault();
          ref.current.closeMenu();
        }
        return;
      }
      // Hidden controls are inert: Tab shows them before the browser moves focus, so it lands on one.
      if (event.key === 'Tab') {
        if (!playerUi.getState().controlsVisible) flushSync(showControls);
        return;
      }
      if (isTyping(event.target) || event.altKey || event.ctrlKey || event.metaKey) return;
      // A focused button takes Space itself (pressing it), whatever Space is bound to.
      if (event.key === ' ' && isButton(event.target)) return;
      const action = actionOfKey(currentBindings(), event.key);
      if (action === 'help') {
        event.preventDefault();
        help.down(event);
        return;
      }
      // An open menu holds the keyboard (its rows answer arrows, Enter and Space): no letter acts on the
      // video behind it.
      if (!action || ref.current.menuOpen || playerStore.getState().status !== 'playing') return;
      event.preventDefault();
      runShortcut(action, ref.current.toggleCaptions);
      showControls();
    };
    const onKeyUp = (event: KeyboardEvent) => {
      help.up(event);
      tv.up(event);
    };
    const onBlur = () => {
      help.cancel();
      tv.letGo();
    };
    window.addEventListener('keydown', tv.down, true);
    window.addEventListener('keydown', onKey);
    window.addEventListener('keyup', onKeyUp);
    window.addEventListener('blur', onBlur);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      help.cancel();
      tv.letGo();
      window.removeEventListener('keydown', tv.down, true);
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('keyup', onKeyUp);
      window.removeEventListener('blur', onBlur);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);
}
