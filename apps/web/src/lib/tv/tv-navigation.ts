import { handleBackKey, isBackKey, isSentEscape } from './back-key.ts';
import { cardMenuKeys } from './card-menu-key.ts';
import { keepFocus, type HistoryLike } from './focus-memory.ts';
import { openOverlay } from './focusables.ts';
import { handleArrowKey, handleEnterKey } from './spatial-navigation.ts';

/**
 * The remote's keys in TV mode (issue 30), installed while TV mode is on (use-tv-navigation.ts): arrows
 * move focus spatially, OK chooses a checkbox or radio, OK held on a card opens its menu (card-menu-key.ts),
 * Back closes or goes back, focus is remembered per
 * screen and row; Back on the tab's first screen goes home (`goHome`) unless it is home. Media keys are
 * not handled here: the player maps them (features/player/).
 *
 * One keydown listener on the window, in the bubble phase and kept the last of the window's listeners, so
 * that every component that handles a key itself (a slider, a menu's roving focus, the player's shortcuts,
 * registered on the window after this) has done so and said so (`preventDefault`) first.
 * Returns the uninstaller.
 */
export function installTvNavigation(
  win: Window = window,
  history: HistoryLike = win.history,
  goHome: () => Promise<void> | void = () => undefined,
): () => void {
  const doc = win.document;
  const keeper = keepFocus(win, history);
  // Home in place of the first screen: focus moves to it as after a Back (not left on the footer).
  const home = () => void Promise.resolve(goHome()).then(keeper.onPopState);
  /** The menu or dialog open when the key went down, before any handler could close it. */
  let overlayAtStart: HTMLElement | null = null;

  const cards = cardMenuKeys(doc);
  const onKey = (event: KeyboardEvent) => {
    if (handleArrowKey(event, doc) || cards.onKeyDown(event) || handleEnterKey(event, doc)) return;
    handleBackKey(event, history, overlayAtStart, doc, home);
  };
  const onKeyFirst = (event: KeyboardEvent) => {
    // Listeners added to the window while it is being dispatched to run in this dispatch only if added
    // before its bubble phase (DOM standard, "inner invoke" clones the list per phase): added again here,
    // `onKey` is the last of the bubble phase's.
    win.removeEventListener('keydown', onKey);
    win.addEventListener('keydown', onKey);
    if (isSentEscape(event)) return;
    overlayAtStart = isBackKey(event) ? openOverlay(doc) : null;
    keeper.onUserInput();
  };

  win.addEventListener('keydown', onKeyFirst, true);
  win.addEventListener('keydown', onKey);
  win.addEventListener('keyup', cards.onKeyUp);
  win.addEventListener('blur', cards.cancel);
  doc.addEventListener('focusin', cards.onFocusIn);
  win.addEventListener('pointerdown', keeper.onUserInput, true);
  win.addEventListener('popstate', keeper.onPopState);
  doc.addEventListener('focusin', keeper.onFocusIn);
  doc.addEventListener('focusout', keeper.onFocusOut);
  return () => {
    win.removeEventListener('keydown', onKeyFirst, true);
    win.removeEventListener('keydown', onKey);
    win.removeEventListener('keyup', cards.onKeyUp);
    win.removeEventListener('blur', cards.cancel);
    doc.removeEventListener('focusin', cards.onFocusIn);
    cards.cancel();
    win.removeEventListener('pointerdown', keeper.onUserInput, true);
    win.removeEventListener('popstate', keeper.onPopState);
    doc.removeEventListener('focusin', keeper.onFocusIn);
    doc.removeEventListener('focusout', keeper.onFocusOut);
    keeper.stop();
  };
}
