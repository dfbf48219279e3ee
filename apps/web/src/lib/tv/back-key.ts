import type { HistoryLike } from './focus-memory.ts';
import { activeElement, isTextField } from './focusables.ts';

/*
 * The Back key of a remote in TV mode (issue 30): it closes the open menu or dialog, else returns to
 * the previous screen, and never leaves the app. Remotes name it differently: Escape, Backspace,
 * `GoBack` / `BrowserBack` / `XF86Back`, or only a key code (webOS 461, Tizen 10009).
 */

const BACK_KEYS = new Set(['Escape', 'Backspace', 'GoBack', 'BrowserBack', 'XF86Back']);
const BACK_KEY_CODES = new Set([461, 10009]);

export const isBackKey = (event: KeyboardEvent): boolean =>
  BACK_KEYS.has(event.key) || BACK_KEY_CODES.has(event.keyCode);

/** The Escapes this module sends itself (they close a menu; they are no Back of their own). */
const sent = new WeakSet<Event>();
export const isSentEscape = (event: Event): boolean => sent.has(event);

/**
 * Whether Back stays in the app: react-router numbers the tab's entries it made (`history.state.idx`,
 * 0 for the page the app was opened on), so an entry after the first was the app's.
 */
export function canGoBack(history: HistoryLike): boolean {
  const idx = (history.state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' && idx > 0;
}

/**
 * Closes a menu or dialog the way its own keyboard does: an Escape to the focused control inside it (or to
 * it), which every menu and dialog of the app answers (components/use-menu-keys.ts, components/dialog.tsx,
 * the player's `useKeyboardShortcuts`). A native `<dialog>` nobody answered gets the browser's own close
 * request: `cancel`, then closed unless that was refused.
 */
function closeOverlay(overlay: HTMLElement, active: HTMLElement | null) {
  const target = active && overlay.contains(active) ? active : overlay;
  const escape = new KeyboardEvent('keydown', {
    key: 'Escape',
    code: 'Escape',
    keyCode: 27,
    bubbles: true,
    cancelable: true,
  });
  sent.add(escape);
  target.dispatchEvent(escape);
  if (escape.defaultPrevented || !(overlay instanceof HTMLDialogElement) || !overlay.open) return;
  if (overlay.dispatchEvent(new Event('cancel', { cancelable: true }))) overlay.close();
}

/**
 * A Back key nothing before it handled. `overlay`: the menu or dialog that was open when the key went down
 * (read before any handler ran: one that closes its menu without `preventDefault` has closed it by now).
 * An open one closes (Escape has reached it already; another Back key sends it one), and the screen
 * stays; else the previous screen, or home from the app's first screen in the tab. Backspace in a text
 * field is the field's. Returns whether the key was taken as Back.
 */
export function handleBackKey(
  event: KeyboardEvent,
  history: HistoryLike,
  overlay: HTMLElement | null,
  doc: Document = document,
  goHome: () => void = () => undefined,
): boolean {
  if (!isBackKey(event) || sent.has(event) || event.defaultPrevented) return false;
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return false;
  const active = activeElement(doc);
  if (event.key === 'Backspace' && isTextField(active)) return false;
  if (overlay) {
    if (event.key !== 'Escape' && overlay.isConnected) {
      event.preventDefault();
      closeOverlay(overlay, active);
    }
    return true;
  }
  // Never out of the app: the browser's own Back (BrowserBack) is held too. The tab's first screen goes
  // home when it is not home itself (a search, a shared link).
  event.preventDefault();
  if (canGoBack(history)) history.back();
  else if (doc.defaultView?.location.pathname !== '/') goHome();
  return true;
}
