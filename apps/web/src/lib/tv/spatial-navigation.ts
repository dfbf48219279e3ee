import {
  activeElement,
  FOCUSABLE,
  firstCandidate,
  focusElement,
  isCandidate,
  isTextField,
  navigationScope,
  ROW,
} from './focusables.ts';

/*
 * The arrows of a remote in TV mode (issue 30, docs/decisions/114-tv-mode.md): focus moves to the control
 * nearest in that direction, measured from the boxes the page draws.
 *
 * - Up and down stay in the focused control's region (`header`, `main`, `footer`, `nav`, `aside`) while
 *   there is a control that way in it: Down in a settings section stays in the sections, not the menu
 *   beside them.
 * - Sideways, what is level comes first; then, in the same region, what is just above or below; then
 *   another region (a settings menu beside its section) but never the header or footer off the line:
 *   Right at the end of a row of posters stays there.
 * - Up and down, the nearest control below or above, whatever its column; being off to the side costs a
 *   little (distance weighs twice), sideways much more (thirty times), the weights of the W3C's CSS
 *   Spatial Navigation draft.
 * - A control drawn on another (a card's bookmark and ⋯ on its poster) is passed over: on a TV the
 *   title's page offers the same actions. Focus already there (back from the menu) leaves it towards
 *   the card's centre.
 * - A row (`data-tv-row`: a carousel, the cast) remembers its last control: coming back to it from above
 *   or below lands there, as long as it is still shown.
 */

export type Direction = 'left' | 'right' | 'up' | 'down';

const BY_KEY: Record<string, Direction> = {
  ArrowLeft: 'left',
  ArrowRight: 'right',
  ArrowUp: 'up',
  ArrowDown: 'down',
  // Older TV browsers' names.
  Left: 'left',
  Right: 'right',
  Up: 'up',
  Down: 'down',
};
const BY_CODE: Record<number, Direction> = { 37: 'left', 38: 'up', 39: 'right', 40: 'down' };

/** The direction of an arrow key, by name, or by code on sets that name no key (`Unidentified`). */
export function arrowDirection(event: KeyboardEvent): Direction | null {
  const named = BY_KEY[event.key];
  if (named) return named;
  return event.key === 'Unidentified' || event.key === '' ? (BY_CODE[event.keyCode] ?? null) : null;
}

/** How far a box may reach back over the focused one and still count as beyond it (a zoomed poster). */
const OVERLAP = 0.3;
/** What being off to the side costs, per pixel, moving sideways and moving up or down. */
const ORTHOGONAL_WEIGHT = { sideways: 30, vertical: 2 } as const;

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const boxOf = (el: Element): Box => {
  const r = el.getBoundingClientRect();
  return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
};
const inside = (a: Box, b: Box) =>
  a.left >= b.left && a.right <= b.right && a.top >= b.top && a.bottom <= b.bottom;
const centre = (b: Box) => ({ x: (b.left + b.right) / 2, y: (b.top + b.bottom) / 2 });
const sideways = (d: Direction) => d === 'left' || d === 'right';
/** Whether two boxes share some height (are on one line). */
const level = (a: Box, b: Box) => a.top < b.bottom && b.top < a.bottom;
/** How far above or below `a` the box `b` is. */
const offLine = (a: Box, b: Box) => Math.max(0, b.top - a.bottom, a.top - b.bottom);
/** The page's regions (a settings menu beside its sections, the header): an arrow stays in its own while it can. */
const REGION = 'header, main, footer, nav, aside';
/** The page's edges, left sideways only for what is level. */
const EDGE = 'header, footer';

interface Ranked {
  el: HTMLElement;
  d: number;
}

/** The nearest that can take focus: measured first, checked after (styles are read for the nearest few). */
function nearest(ranked: Ranked[]): HTMLElement | null {
  ranked.sort((a, b) => a.d - b.d);
  return ranked.find(({ el }) => isCandidate(el))?.el ?? null;
}

/** How far `to` lies from `from` in the direction, or null when it does not lie that way. */
function distance(from: Box, to: Box, direction: Direction): number | null {
  // A control drawn on the focused one (a card's bookmark) is the pointer's: the arrows pass over it.
  if (inside(to, from)) return null;
  if (inside(from, to)) {
    // Focus on a control drawn on another (back from its menu): the arrow towards the outer one's
    // centre goes to it.
    const a = centre(from);
    const b = centre(to);
    const ahead = { left: a.x - b.x, right: b.x - a.x, up: a.y - b.y, down: b.y - a.y }[direction];
    return ahead > 0 ? Math.hypot(a.x - b.x, a.y - b.y) : null;
  }
  const horizontal = sideways(direction);
  // Along the direction: from the edge left to the edge entered (a little overlap still counts).
  const span = horizontal
    ? Math.min(from.right - from.left, to.right - to.left)
    : Math.min(from.bottom - from.top, to.bottom - to.top);
  const gap = {
    right: to.left - from.right,
    left: from.left - to.right,
    down: to.top - from.bottom,
    up: from.top - to.bottom,
  }[direction];
  const further = {
    right: to.right > from.right,
    left: to.left < from.left,
    down: to.bottom > from.bottom,
    up: to.top < from.top,
  }[direction];
  if (!further || gap < -OVERLAP * span) return null;
  // Across it: 0 when they are level, else the gap between their nearest edges.
  const across = horizontal
    ? Math.max(0, to.top - from.bottom, from.top - to.bottom)
    : Math.max(0, to.left - from.right, from.left - to.right);
  const along = Math.max(0, gap);
  const weight = horizontal ? ORTHOGONAL_WEIGHT.sideways : ORTHOGONAL_WEIGHT.vertical;
  return Math.hypot(along, across) + along + across * weight;
}

/** The row's remembered control, if it can take focus and lies that way. */
function remembered(row: Element, from: Box, direction: Direction): HTMLElement | null {
  const id = row.getAttribute('data-focus');
  const el = id ? row.ownerDocument.getElementById(id) : null;
  if (!el || !row.contains(el) || !isCandidate(el)) return null;
  return distance(from, boxOf(el), direction) === null ? null : el;
}

/** Where the first arrow goes when nothing has focus: the page's content (`main`), else the scope's first. */
function firstIn(scope: HTMLElement): HTMLElement | null {
  const doc = scope.ownerDocument;
  const main = scope === doc.body ? doc.querySelector('main') : null;
  return (main && firstCandidate(main)) ?? firstCandidate(scope);
}

/**
 * The control an arrow moves to from `from` inside `scope`, or null (focus then stays). Nothing focused,
 * or focus outside the scope (a dialog opened without taking it): the scope's first control. Focus on a
 * region that is not a control itself (`main`, a card holding focus): its first control.
 */
export function nextFocus(
  from: HTMLElement | null,
  direction: Direction,
  scope: HTMLElement,
): HTMLElement | null {
  if (!from || !scope.contains(from)) return firstIn(scope);
  if (!isCandidate(from)) {
    const inner = firstCandidate(from);
    if (inner) return inner;
  }
  const start = boxOf(from);
  const region = from.closest(REGION);
  const fromEdge = from.closest(EDGE) !== null;
  const horizontal = sideways(direction);
  const onLine: Ranked[] = [];
  const inRegion: Ranked[] = [];
  const beyond: Ranked[] = [];
  for (const el of scope.querySelectorAll<HTMLElement>(FOCUSABLE)) {
    if (el === from) continue;
    const box = boxOf(el);
    const d = distance(start, box, direction);
    if (d === null) continue;
    const same = el.closest(REGION) === region;
    if (!horizontal) (same ? inRegion : beyond).push({ el, d });
    else if (level(start, box)) onLine.push({ el, d });
    // Sideways off the line: in the region only just above or below; elsewhere never the header or footer.
    else if (same) {
      if (offLine(start, box) <= start.bottom - start.top) inRegion.push({ el, d });
    } else if (!(fromEdge || el.closest(EDGE))) beyond.push({ el, d });
  }
  const next = nearest(onLine) ?? nearest(inRegion) ?? nearest(beyond);
  if (!next || sideways(direction)) return next;
  // Up or down into a row from outside it: the row's remembered control.
  const row = next.closest(ROW);
  if (!row || row.contains(from)) return next;
  return remembered(row, start, direction) ?? next;
}

/** The caret is at the end of the field the arrow points to, with nothing selected: the arrow may leave. */
function caretAtEdge(field: HTMLInputElement | HTMLTextAreaElement, direction: Direction): boolean {
  let start: number | null;
  let end: number | null;
  try {
    ({ selectionStart: start, selectionEnd: end } = field);
  } catch {
    return false;
  }
  // Fields without a caret position to read (email, number) keep their arrows.
  if (start === null || end === null || start !== end) return false;
  const rtl = field.ownerDocument.defaultView?.getComputedStyle(field).direction === 'rtl';
  const backwards = direction === 'up' || (direction === 'left') !== rtl;
  return backwards ? start === 0 : end === field.value.length;
}

/**
 * Whether the focused control uses this arrow itself (its browser default, which comes after the page's
 * handlers and so is not `defaultPrevented` yet): a text field's caret (until it reaches the end in that
 * direction), a slider's value. A `select` does not: its value changes in its open list only.
 */
export function keepsArrow(el: HTMLElement | null, direction: Direction): boolean {
  if (!el) return false;
  const sideways = direction === 'left' || direction === 'right';
  if (el instanceof HTMLInputElement && el.type === 'range') return sideways;
  if (!isTextField(el)) return false;
  if (el instanceof HTMLInputElement) return sideways && !caretAtEdge(el, direction);
  if (el instanceof HTMLTextAreaElement) return !caretAtEdge(el, direction);
  return sideways;
}

/** A key pressed with a modifier, or while an input method composes: not the remote's. */
export const withModifier = (event: KeyboardEvent) =>
  event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.isComposing;

/**
 * An arrow key that nothing before it handled (`defaultPrevented`: a slider, a menu's roving focus, the
 * player): focus moves, the page does not also scroll. With nowhere to go, nothing happens (the page
 * scrolls as usual, which reveals text below the last control). Returns whether it moved focus.
 */
export function handleArrowKey(event: KeyboardEvent, doc: Document = document): boolean {
  if (event.defaultPrevented || withModifier(event)) return false;
  const direction = arrowDirection(event);
  if (!direction) return false;
  const from = activeElement(doc);
  if (keepsArrow(from, direction)) return false;
  // A closed select's arrows would change its value as focus passes over it: a remote's move focus
  // (its OK opens the list, `handleEnterKey`).
  if (from instanceof HTMLSelectElement) event.preventDefault();
  const target = nextFocus(from, direction, navigationScope(doc));
  if (!target || !focusElement(target)) return false;
  event.preventDefault();
  return true;
}

/**
 * OK (Enter) on a checkbox or a radio button chooses it, as Space does: a remote has no Space, and the
 * browser's Enter does nothing there (or submits the form). On a select it opens the list.
 */
export function handleEnterKey(event: KeyboardEvent, doc: Document = document): boolean {
  if (event.defaultPrevented || withModifier(event) || event.key !== 'Enter') return false;
  const el = activeElement(doc);
  if (el instanceof HTMLSelectElement && typeof el.showPicker === 'function') {
    // OK opens a select's list (a TV's browser does so itself; a desktop browser only on Space).
    event.preventDefault();
    try {
      el.showPicker();
    } catch {
      // Not allowed here (no user activation): the list stays closed, as before.
    }
    return true;
  }
  if (!(el instanceof HTMLInputElement) || (el.type !== 'checkbox' && el.type !== 'radio')) return false;
  event.preventDefault();
  el.click();
  return true;
}
