import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

/** Interface facts of the player: hover state and time format, plus the volume popout. */
export interface PlayerUiState {
  hovering: 'none' | 'mouse' | 'mobile';
  /** Controls shown (moved recently, paused, menu open, or hovering the bars). */
  controlsVisible: boolean;
  timeFormat: 'regular' | 'remaining';
  /** When the keyboard changed the volume last (ms): the popout shows for 3 s. */
  volumePopoutAt: number;
  /** The R key's one-second roll. */
  rolling: boolean;
  /** The player's width (px): which controls fit the bar (bar-layout.ts). */
  width: number;
  /** Keyboard focus is inside the player: the controls stay shown. */
  keyboardFocus: boolean;
  /** The help key is held down: every shortcut shows over the video until it is released. */
  shortcutsHeld: boolean;
  /**
   * Where a held arrow is taking the video on a TV (s), shown on the seek bar with its thumbnail until
   * the key is let go (ui/tv-keys.ts); null when not scrubbing.
   */
  scrubTo: number | null;
  set(patch: Partial<Omit<PlayerUiState, 'set'>>): void;
}

export const playerUi = createStore<PlayerUiState>()((set) => ({
  hovering: 'none',
  controlsVisible: true,
  timeFormat: 'regular',
  volumePopoutAt: 0,
  rolling: false,
  width: typeof window === 'undefined' ? 1280 : window.innerWidth,
  keyboardFocus: false,
  shortcutsHeld: false,
  scrubTo: null,
  set: (patch) => set(() => patch),
}));

export const usePlayerUi = <T>(selector: (s: PlayerUiState) => T): T => useStore(playerUi, selector);
