/**
 * What a remote can focus in TV mode (issue 30): the rules shared by the arrows (spatial-navigation.ts),
 * the Back key (back-key.ts) and focus memory (focus-memory.ts).
 */

/** What may take focus: controls, and what the page made focusable with a `tabindex`. */
export const FOCUSABLE = '[tabindex], a, input, button, select, textarea, summary';

/** A row of controls that remembers its last one for the arrows (spatial-navigation.ts): a carousel. */
export const ROW = '[data-tv-row]';

/**
 * Open menus and dialogs, whichever way they say so: the shared `<dialog>` (components/dialog.tsx), the
 * player's still-watching question, panels and menus (`role="menu"`, docs/decisions/084-accessibility-bar.md).
 */
export const OVERLAY =
  '[aria-modal="true"], dialog[open], [role="dialog"], [role="alertdialog"], [role="menu"]';

/**
 * Regions nobody sees or reaches: their controls are never candidates. `tv-ignore` marks what the page
 * keeps for pointers only (a rendered carousel's paging arrows: its cards scroll it).
 */
export const UNREACHABLE = '[inert], [aria-hidden="true"], [hidden], .tv-ignore';

/** Inputs whose arrows and Backspace move a caret or edit text. */
const TEXT_TYPES = new Set([
  'text',
  'search',
  'url',
  'tel',
  'password',
  'email',
  'number',
  'date',
  'datetime-local',
  'month',
  'time',
  'week',
]);

/** Whether keys typed here are text (Backspace erases, the sideways arrows move the caret). */
export function isTextField(el: Element | null): boolean {
  if (!el) return false;
  if (el instanceof HTMLInputElement) return TEXT_TYPES.has(el.type);
  return el instanceof HTMLTextAreaElement || (el instanceof HTMLElement && el.isContentEditable);
}

/** The focused element, or null when focus is nowhere (on `body`). */
export function activeElement(doc: Document = document): HTMLElement | null {
  const active = doc.activeElement;
  return active instanceof HTMLElement && active !== doc.body ? active : null;
}

/**
 * Whether an element is drawn: it has a box bigger than the one pixel of a visually hidden skip link,
 * and neither it nor an ancestor is transparent or hidden by style (one computed style per ancestor:
 * asked for the one answer, not for every candidate).
 */
export function isDrawn(el: Element): boolean {
  const box = el.getBoundingClientRect();
  if (box.width <= 1 && box.height <= 1) return false;
  const view = el.ownerDocument.defaultView;
  if (!view) return true;
  for (let at: Element | null = el; at && at !== el.ownerDocument.body; at = at.parentElement) {
    const style = view.getComputedStyle(at);
    if (style.opacity === '0' || style.visibility === 'hidden' || style.visibility === 'collapse')
      return false;
    if (style.display === 'none') return false;
  }
  return true;
}

/** Whether an element is shown and reachable: not in an inert, hidden or ignored region, and drawn. */
export function isShown(el: Element): boolean {
  return el.isConnected && el.closest(UNREACHABLE) === null && isDrawn(el);
}

/**
 * Whether a remote may focus the element: a control (or `tabindex` ≥ 0) that is enabled, reachable and
 * drawn. A link without `href` and a hidden input are not focusable at all.
 */
export function isCandidate(el: Element): el is HTMLElement {
  if (!(el instanceof HTMLElement) || !el.matches(FOCUSABLE)) return false;
  const tabIndex = el.getAttribute('tabindex');
  if (tabIndex !== null && Number.parseInt(tabIndex, 10) < 0) return false;
  if (tabIndex === null && el instanceof HTMLAnchorElement && !el.hasAttribute('href')) return false;
  if (el instanceof HTMLInputElement && el.type === 'hidden') return false;
  if (el.matches(':disabled')) return false;
  return isShown(el);
}

/** The first focusable a remote may reach inside `root`, in document order. */
export function firstCandidate(root: ParentNode): HTMLElement | null {
  for (const el of root.querySelectorAll(FOCUSABLE)) if (isCandidate(el)) return el;
  return null;
}

/**
 * The menu or dialog in front, or null: the last shown one in document order (a menu inside a dialog
 * comes after the dialog; the page's portals are appended after the page).
 */
export function openOverlay(doc: Document = document): HTMLElement | null {
  const overlays = doc.querySelectorAll<HTMLElement>(OVERLAY);
  for (let i = overlays.length - 1; i >= 0; i--) {
    const overlay = overlays[i]!;
    if (overlay instanceof HTMLDialogElement && !overlay.open) continue;
    if (isShown(overlay)) return overlay;
  }
  return null;
}

/** Where the arrows look: the menu or dialog in front, else the whole page. */
export const navigationScope = (doc: Document = document): HTMLElement => openOverlay(doc) ?? doc.body;

/** The user asked for less motion: scrolling jumps instead of gliding. */
export function prefersReducedMotion(view: Window | null): boolean {
  return (
    typeof view?.matchMedia === 'function' && view.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

/**
 * Focuses an element without the browser's own jump, then scrolls it into view as little as needed
 * (`nearest`: a row scrolls sideways, the page only as far as the row). `scroll: false` leaves the
 * page where it is (a focus put back while the page restores its own scroll position).
 * Returns whether focus landed there.
 */
export function focusElement(el: HTMLElement, { scroll = true }: { scroll?: boolean } = {}): boolean {
  el.focus({ preventScroll: true });
  if (el.ownerDocument.activeElement !== el) return false;
  if (scroll && typeof el.scrollIntoView === 'function') {
    const smooth = !prefersReducedMotion(el.ownerDocument.defaultView);
    el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: smooth ? 'smooth' : 'auto' });
  }
  return true;
}
