import { useCallback, useEffect, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import { isTvMode } from '../../../lib/tv/tv-mode.ts';
import { playerUi } from '../core/ui-store.ts';
import { showControls } from './controls-visibility.ts';

/*
 * Where focus goes in the player on a TV (issue 30 item 4; README "On a TV"): the bars (`data-player-bar`),
 * the prompts that float over the video (`data-player-prompt`: Skip intro, Next episode), the play button
 * the remote's Up/Down reach (`data-focus-home`) and the player itself (`data-player-root`, focusable by
 * script only), which holds focus while the bars are hidden.
 */

const BARS = '[data-player-bar]';
const PROMPTS = '[data-player-prompt]';
const ROOT = '[data-player-root]';

const isElement = (node: Element | null): node is HTMLElement => node instanceof HTMLElement;

/**
 * Whether the player's own keys act (not the page's navigation): focus is nowhere, on the player itself,
 * on a prompt, or inside hidden (inert) controls. Inside shown bars, a menu, a dialog or anything else,
 * the arrows move focus and OK presses what has it.
 */
export function playerHasTheKeys(container: HTMLElement | null): boolean {
  const active = document.activeElement;
  if (!isElement(active) || active === document.body || active === document.documentElement) return true;
  if (!container?.contains(active)) return false;
  return active === container || active.closest(`[inert], ${PROMPTS}`) !== null;
}

/** Whether focus is on a prompt (OK presses it: it does not toggle play). */
export const focusIsOnPrompt = () => document.activeElement?.closest(PROMPTS) != null;

/** Whether focus is on the seek bar while it shows (it keeps Left/Right for seeking). */
export const focusIsOnSeekBar = () =>
  document.activeElement?.closest('[data-seek-bar]') != null &&
  document.activeElement.closest('[inert]') === null;

/** The controls, shown now (no longer inert), with focus on the play button (Up/Down from the video). */
export function focusPlayButton(container: HTMLElement | null): void {
  flushSync(showControls);
  container?.querySelector<HTMLElement>('[data-focus-home]')?.focus({ preventScroll: true });
}

/** Focus back where it was when it can take it (shown, still there), else on the player itself. */
function restoreFocus(before: Element | null, from: HTMLElement): void {
  const root = from.closest<HTMLElement>(ROOT);
  const usable =
    isElement(before) &&
    before.isConnected &&
    before !== document.body &&
    before.closest('[inert]') === null &&
    !from.contains(before);
  (usable ? before : root)?.focus({ preventScroll: true });
}

/**
 * TV mode: the player holds focus from when it opens. When the bars hide (3 s without a key while
 * playing, or the pause overlay) with focus in them, focus moves to the player itself, before they turn inert: it is never lost on the page or left
 * on a hidden control, and the next arrow seeks.
 */
export function useTvFocus(containerRef: RefObject<HTMLElement | null>): void {
  // Opened (the title page's Play, an episode chosen below it): the player takes focus and the screen.
  useEffect(() => {
    const container = containerRef.current;
    if (!isTvMode() || !container || container.contains(document.activeElement)) return;
    container.focus({ preventScroll: true });
    if (typeof container.scrollIntoView === 'function') container.scrollIntoView({ block: 'start' });
  }, [containerRef]);
  useEffect(
    () =>
      playerUi.subscribe((s, prev) => {
        if (s.controlsVisible || !prev.controlsVisible || !isTvMode()) return;
        const container = containerRef.current;
        const active = document.activeElement;
        if (container && isElement(active) && container.contains(active) && active.closest(BARS))
          container.focus({ preventScroll: true });
      }),
    [containerRef],
  );
}

/**
 * TV mode: a prompt's button takes focus when it appears, so OK presses it, unless the viewer is busy
 * elsewhere (in the bars, a menu, a dialog): it never takes focus from there. When it goes, focus
 * returns to where it was, or to the player. Outside TV mode it takes nothing. A ref callback: the
 * cleanup runs as the button leaves, while it still has focus.
 */
export function usePromptFocus(): (button: HTMLElement | null) => (() => void) | undefined {
  return useCallback((button: HTMLElement | null) => {
    if (!button || !isTvMode()) return undefined;
    const container = button.closest<HTMLElement>(ROOT);
    if (!playerHasTheKeys(container)) return undefined;
    const before = document.activeElement;
    button.focus({ preventScroll: true });
    return () => {
      const active = document.activeElement;
      if (active === button || !isElement(active) || active === document.body) restoreFocus(before, button);
    };
  }, []);
}
