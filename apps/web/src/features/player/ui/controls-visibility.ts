import { useEffect, useRef } from 'react';
import { isTvMode } from '../../../lib/tv/tv-mode.ts';
import { playerStore } from '../core/player-store.ts';
import { playerUi } from '../core/ui-store.ts';

export const CONTROLS_HIDE_MS = 3_000;

export function showControls() {
  playerUi.getState().set({ controlsVisible: true });
}

/**
 * Controls show on movement and hide after 3 s, but stay while paused (mouse), while a menu is open or
 * while the pointer is on the bars or keyboard focus is inside the player. A tap toggles them on touch
 * screens. In TV mode focus does not keep them: they hide 3 s after the remote's last key, as on the
 * TV's own players, and focus moves to the player (tv-focus.ts, README "On a TV").
 */
export function useControlsAutoHide(o: { menuOpen: boolean; hoveringBars: boolean }) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const state = useRef(o);
  useEffect(() => {
    state.current = o;
    if (o.menuOpen || o.hoveringBars) showControls();
  });
  useEffect(() => {
    const schedule = () => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        const { playback } = playerStore.getState();
        const { hovering, keyboardFocus } = playerUi.getState();
        const keep =
          (keyboardFocus && !isTvMode()) ||
          state.current.menuOpen ||
          state.current.hoveringBars ||
          (playback.isPaused && hovering !== 'mobile');
        if (!keep) playerUi.getState().set({ controlsVisible: false });
      }, CONTROLS_HIDE_MS);
    };
    const unsubscribe = playerUi.subscribe((s, prev) => {
      if (s.controlsVisible && (!prev.controlsVisible || s !== prev)) schedule();
    });
    const unsubscribePlayback = playerStore.subscribe((s, prev) => {
      if (s.playback.isPaused !== prev.playback.isPaused) {
        if (s.playback.isPaused) showControls();
        else schedule();
      }
    });
    schedule();
    return () => {
      clearTimeout(timer.current);
      unsubscribe();
      unsubscribePlayback();
    };
  }, []);
}
