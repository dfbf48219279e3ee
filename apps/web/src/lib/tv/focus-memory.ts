import { activeElement, FOCUSABLE, firstCandidate, focusElement, isCandidate, ROW } from './focusables.ts';

/*
 * Focus memory in TV mode (issue 30: "focus is remembered per row and restored on Back"). Each screen
 * (a history entry, by the router's `history.state.key`) remembers the control that had focus and, per
 * row (`data-tv-row` with an id: spatial-navigation.ts), the row's last control.
 * Going back to a screen puts focus back there once the screen has rendered it again. A screen drawn
 * again is new elements, so a control is found again by where it is (the nearest ancestor with an id of
 * the page's own) and what it is (its link, test id or label), not by the element.
 */

/** The router's entry of the history (react-router keeps `{ key, idx }` in `history.state`). */
export interface HistoryLike {
  readonly state: unknown;
  back(): void;
}

/** The screen's key: the history entry's, `default` for the tab's first entry (react-router's name). */
export function routeKey(history: HistoryLike): string {
  const key = (history.state as { key?: unknown } | null)?.key;
  return typeof key === 'string' ? key : 'default';
}

const PREFIX = 'tv-';
/** React's `useId` ids (`_r_1_`, `«r1»`, `:r1:`) differ each time a component mounts: no anchor. */
const REACT_ID = /^(?:_[rR]_|[:«])/;

/** An id the page gave (neither React's nor ours): the same each time the screen renders. */
export const isPageId = (id: string): boolean => id !== '' && !id.startsWith(PREFIX) && !REACT_ID.test(id);

/** Where a control is: its own id, or its anchor, what it is, and which of the anchor's such controls. */
export interface Locator {
  id: string | null;
  anchor: string | null;
  signature: string;
  index: number;
}

function anchorOf(el: HTMLElement): HTMLElement | null {
  for (let at = el.parentElement; at; at = at.parentElement) if (isPageId(at.id)) return at;
  return null;
}

/** What a control is: its link or test id when it has one (a title's card), else its label. */
function signatureOf(el: Element): string {
  const href = el.getAttribute('href');
  const testId = el.getAttribute('data-testid');
  const parts = [
    el.tagName,
    el.getAttribute('role') ?? '',
    href ?? '',
    testId ?? '',
    el.getAttribute('name') ?? '',
  ];
  // A control's own words; a region that holds focus (a player, a card) is not read through.
  const words = el.childElementCount > 8 ? '' : (el.textContent ?? '').trim().slice(0, 40);
  if (href === null && testId === null) parts.push(el.getAttribute('aria-label') ?? words);
  return parts.join('|');
}

const alike = (root: ParentNode, signature: string) =>
  Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((el) => signatureOf(el) === signature);

export function locate(el: HTMLElement): Locator {
  if (isPageId(el.id)) return { id: el.id, anchor: null, signature: '', index: 0 };
  const anchor = anchorOf(el);
  const signature = signatureOf(el);
  const index = alike(anchor ?? el.ownerDocument.body, signature).indexOf(el);
  return { id: null, anchor: anchor?.id ?? null, signature, index: Math.max(0, index) };
}

/** A short hash of a text, for ids (djb2). */
function hash(text: string): string {
  let h = 5381;
  for (let i = 0; i < text.length; i++) h = (Math.imul(h, 33) + text.charCodeAt(i)) | 0;
  return (h >>> 0).toString(36);
}

/** The id a control gets from where and what it is: the same when its screen renders it again. */
const idOf = (locator: Locator) =>
  `${PREFIX}${hash(`${locator.anchor ?? ''}|${locator.signature}`)}-${locator.index}`;

/**
 * Gives a control an id if it has none (rows remember their last control by id, `data-focus`), unique
 * in the document. Returns the id.
 */
export function ensureId(el: HTMLElement): string {
  if (el.id) return el.id;
  const base = idOf(locate(el));
  let id = base;
  for (let n = 2; el.ownerDocument.getElementById(id); n++) id = `${base}-${n}`;
  el.id = id;
  return id;
}

/** The control a locator points to on the screen as it is now, or null (not rendered, or gone). */
export function resolve(locator: Locator, doc: Document): HTMLElement | null {
  if (locator.id) return doc.getElementById(locator.id);
  const byId = doc.getElementById(idOf(locator));
  if (byId && signatureOf(byId) === locator.signature) return byId;
  const root = locator.anchor ? doc.getElementById(locator.anchor) : doc.body;
  const el = root ? (alike(root, locator.signature)[locator.index] ?? null) : null;
  if (el && !el.id) ensureId(el);
  return el;
}

interface ScreenMemory {
  focus: Locator;
  /** A row's (container's) id → its last control. */
  rows: Map<string, Locator>;
}

/** How many screens are remembered (the most recent ones). */
const SCREENS = 50;

export function createFocusMemory() {
  const screens = new Map<string, ScreenMemory>();
  return {
    record(key: string, el: HTMLElement, locator: Locator = locate(el)) {
      const screen = screens.get(key) ?? { focus: locator, rows: new Map<string, Locator>() };
      screen.focus = locator;
      for (let row = el.parentElement?.closest(ROW); row; row = row.parentElement?.closest(ROW))
        if (isPageId(row.id)) screen.rows.set(row.id, locator);
      screens.delete(key);
      screens.set(key, screen);
      if (screens.size > SCREENS) screens.delete(screens.keys().next().value!);
    },
    get: (key: string) => screens.get(key),
  };
}

/** The rows of a screen drawn again remember their last control again (`data-focus`). */
function restoreRows(screen: ScreenMemory, doc: Document) {
  for (const [rowId, locator] of screen.rows) {
    const row = doc.getElementById(rowId);
    if (!row || row.hasAttribute('data-focus')) continue;
    const el = resolve(locator, doc);
    if (el && row.contains(el)) row.setAttribute('data-focus', ensureId(el));
  }
}

/** How long after a Back the remembered control may take to show (a row rendered once near the viewport). */
export const RESTORE_WINDOW_MS = 2_000;

/** A screen with a video (the player, features/player/) places focus itself. */
const playerShown = (doc: Document) => doc.querySelector('video') !== null;

/** A search box: optional on its page (a form's first field is what its page is for). */
const isSearchBox = (el: Element) =>
  (el instanceof HTMLInputElement && el.type === 'search') || el.getAttribute('role') === 'searchbox';

/**
 * The content's first control, passing over a search box (a TV may open its on-screen keyboard on a
 * field that takes focus by itself; Up still reaches it) when something else is there.
 */
const firstInMain = (doc: Document) => {
  const main = doc.querySelector('main');
  if (!main) return null;
  for (const el of main.querySelectorAll(FOCUSABLE)) if (!isSearchBox(el) && isCandidate(el)) return el;
  return firstCandidate(main);
};

/** Whether the whole of a control is on the screen. */
function inView(el: Element): boolean {
  const box = el.getBoundingClientRect();
  const view = el.ownerDocument.defaultView;
  if (!view) return true;
  return box.top >= 0 && box.left >= 0 && box.bottom <= view.innerHeight && box.right <= view.innerWidth;
}

/** Focus put somewhere by the app, not by an arrow: the page stays where it is unless the control is off it. */
const placeFocus = (el: HTMLElement) => focusElement(el, { scroll: !inView(el) });

interface Pending {
  /** What the screen remembered when it came back (what takes focus meanwhile does not change it). */
  screen: ScreenMemory | undefined;
  /** What had focus when the screen changed (the old screen's control, or the header's that stays). */
  from: Element | null;
  /** Where focus was put meanwhile, until the remembered control shows. */
  provisional: HTMLElement | null;
}

/**
 * A screen came (back): its remembered control takes focus if it shows now; until it does, the content's
 * first control holds focus (the page left where it is). Focus the viewer or the page put elsewhere
 * meanwhile stays there.
 */
function restorePending(p: Pending, doc: Document) {
  const active = activeElement(doc);
  if (active && active !== p.from && active !== p.provisional) return;
  const { screen } = p;
  if (screen) restoreRows(screen, doc);
  const target = screen ? resolve(screen.focus, doc) : null;
  if (target && isCandidate(target)) {
    if (active !== target) focusElement(target);
    p.from = p.provisional = null;
    return;
  }
  // A provisional focus in the content stays, unless it is a search box a button may still replace.
  const settledInMain =
    active !== null &&
    active === p.provisional &&
    doc.querySelector('main')?.contains(active) === true &&
    !isSearchBox(active);
  // Focus still where it was when the screen changed (a header link, which stays) moves to the content.
  const placed = active !== p.from && (active !== p.provisional || settledInMain);
  if (playerShown(doc) || (active && placed)) return;
  const first = firstInMain(doc) ?? (active ? null : firstCandidate(doc.body));
  if (first && first !== active && placeFocus(first)) p.provisional = first;
}

/**
 * Keeps focus where a viewer expects it (never on `body`): remembers it per screen (`onFocusIn`), puts
 * it back after a Back (`onPopState`), and when the focused control disappears (its screen was left or
 * drawn again) puts it on the same control drawn again, else on the content's first control.
 */
export function keepFocus(win: Window, history: HistoryLike) {
  const doc = win.document;
  const memory = createFocusMemory();
  /** The last focused control, and the last one in the page's content (a dialog's opener, usually). */
  let last: { el: HTMLElement; key: string } | null = null;
  let lastInMain: { locator: Locator; key: string } | null = null;
  let pending: Pending | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let frame: number | null = null;

  const restore = (p: Pending) => restorePending(p, doc);

  const end = () => {
    pending = null;
    clearTimeout(timer);
    timer = undefined;
  };

  /** A screen came (back): its remembered control takes focus now or once it shows. */
  const begin = (from: Element | null) => {
    end();
    const screen = memory.get(routeKey(history));
    pending = {
      screen: screen && { focus: screen.focus, rows: new Map(screen.rows) },
      from,
      provisional: null,
    };
    timer = setTimeout(end, RESTORE_WINDOW_MS);
    return pending;
  };

  const recover = () => {
    if (activeElement(doc) || !last) return;
    if (last.el.isConnected) {
      // Let go of without a new place (a blur, a control hidden): back to it, else the content's first.
      const back = isCandidate(last.el) ? last.el : playerShown(doc) ? null : firstInMain(doc);
      if (back) placeFocus(back);
      return;
    }
    // A new screen (a link followed): its remembered control if it was shown before, else its first.
    if (last.key !== routeKey(history)) return restore(begin(null));
    if (playerShown(doc)) return;
    const again = lastInMain?.key === last.key ? resolve(lastInMain.locator, doc) : null;
    const target = again && isCandidate(again) ? again : firstInMain(doc);
    if (target) placeFocus(target);
  };

  const check = () => {
    frame = null;
    if (pending) restore(pending);
    else recover();
  };
  function schedule() {
    if (frame === null) frame = win.requestAnimationFrame(check);
  }

  const observer = new MutationObserver(() => {
    if (pending || (last && !activeElement(doc))) schedule();
  });
  observer.observe(doc.body, { childList: true, subtree: true });

  const remember = (el: EventTarget | null) => {
    if (!(el instanceof HTMLElement) || !el.matches(FOCUSABLE)) return;
    const id = ensureId(el);
    // Its rows remember it (the arrows come back to it: spatial-navigation.ts).
    for (let row = el.parentElement?.closest(ROW); row; row = row.parentElement?.closest(ROW))
      row.setAttribute('data-focus', id);
    const key = routeKey(history);
    const locator = locate(el);
    memory.record(key, el, locator);
    last = { el, key };
    if (doc.querySelector('main')?.contains(el)) lastInMain = { locator, key };
  };
  // What had focus before TV mode came on counts too.
  remember(activeElement(doc));
  // Nothing has focus yet (the app just opened): the content's first control, once it shows.
  if (!activeElement(doc)) {
    restore(begin(null));
    schedule();
  }

  return {
    /** A control took focus: it gets an id and is remembered for its screen and rows. */
    onFocusIn: (event: FocusEvent) => remember(event.target),
    /** Back (or Forward, or Back's way home): the screen's remembered control takes focus once it shows. */
    onPopState: () => {
      begin(activeElement(doc));
      schedule();
    },
    /** Focus went nowhere (to `body`): it is put back once the page has settled. */
    onFocusOut: (event: FocusEvent) => {
      if (event.relatedTarget === null) schedule();
    },
    /** The viewer pressed something: what they do next is theirs, nothing is put back any more. */
    onUserInput: () => {
      if (pending) end();
    },
    stop() {
      end();
      observer.disconnect();
      if (frame !== null) win.cancelAnimationFrame(frame);
      frame = null;
    },
  };
}
