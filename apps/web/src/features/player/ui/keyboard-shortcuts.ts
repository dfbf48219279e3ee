import { useEffect, useRef } from 'react';
import { flushSync } from 'react-dom';
import { playerStore, requests, seekBy, togglePlay } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';
import { usePlayerDeps } from '../session/player-deps.tsx';
import { showControls } from './controls-visibility.ts';
import { changeSpeed } from './playback-speed.ts';
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

/** Runs the shortcut of `key` while playing; false when there is none (the browser keeps the key). */
function runShortcut(key: string, event: KeyboardEvent, toggleCaptions: () => Promise<void>): boolean {
  const { isPaused } = playerStore.getState().playback;
  switch (key) {
    case 'ArrowUp':
      changeVolume(0.15);
      return true;
    case 'ArrowDown':
      changeVolume(-0.15);
      return true;
    case 'm':
      toggleMute();
      return true;
    case 'ArrowRight':
      seekBy(5);
      return true;
    case 'ArrowLeft':
      seekBy(-5);
      return true;
    case 'l':
      seekBy(10);
      return true;
    case 'j':
      seekBy(-10);
      return true;
    case '.':
      if (isPaused) seekBy(1);
      return true;
    case ',':
      if (isPaused) seekBy(-1);
      return true;
    case '>':
      changeSpeed(1);
      return true;
    case '<':
      changeSpeed(-1);
      return true;
    case 'f':
      requests.toggleFullscreen();
      return true;
    case ' ':
      // A focused button takes Space itself (pressing it).
      if ((event.target as HTMLElement | null)?.tagName === 'BUTTON') return false;
      togglePlay();
      return true;
    case 'k':
      togglePlay();
      return true;
    case 'c':
      void toggleCaptions();
      return true;
    case 'r':
      if (prefersReducedMotion()) return true;
      playerUi.getState().set({ rolling: true });
      setTimeout(() => playerUi.getState().set({ rolling: false }), 1_000);
      return true;
    default:
      return false;
  }
}

/**
 * The shortcut set of the app family's client behaviour (letters in either case; ignored while typing):
 * ↑/↓ volume ±0.15, M mute, →/← ±5 s, L/J ±10 s, ./, ±1 s while paused, >/< speed, F fullscreen,
 * Space/K play-pause, C captions, Escape closes a menu, R rolls the player, ? lists the shortcuts.
 */
export function useKeyboardShortcuts(o: { menuOpen: boolean; closeMenu(): void; openShortcuts(): void }) {
  const { toggleCaptions } = usePlayerDeps();
  const ref = useRef({ ...o, toggleCaptions });
  useEffect(() => {
    ref.current = { ...o, toggleCaptions };
  });
  useEffect(() => {
    const onPointer = () => {
      lastInput = 'pointer';
      if (playerUi.getState().keyboardFocus) playerUi.getState().set({ keyboardFocus: false });
    };
    const onKey = (event: KeyboardEvent) => {
      lastInput = 'keyboard';
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
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      if (key === '?') {
        ref.current.openShortcuts();
        return;
      }
      // An open menu holds the keyboard (its rows answer arrows, Enter and Space): no letter acts on the
      // video behind it.
      if (ref.current.menuOpen || playerStore.getState().status !== 'playing') return;
      if (runShortcut(key, event, ref.current.toggleCaptions)) {
        event.preventDefault();
        showControls();
      }
    };
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onPointer, true);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onPointer, true);
    };
  }, []);
}
