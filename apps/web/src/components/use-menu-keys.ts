import {
  useCallback,
  useEffect,
  useId,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';
import { useTranslation } from 'react-i18next';

/** A menu's items: what takes one Tab stop between them (roving tabindex). */
export const MENU_ITEMS = '[role^="menuitem"]:not(:disabled)';

const all = (root: HTMLElement | null, selector: string) =>
  Array.from(root?.querySelectorAll<HTMLElement>(selector) ?? []);

/** An end of the menu's items. */
type End = 'first' | 'last';
const itemAt = (root: HTMLElement | null, end: End) => {
  const items = all(root, MENU_ITEMS);
  return end === 'first' ? items[0] : items.at(-1);
};

export interface MenuKeysOptions {
  /**
   * A menu opened by a button (the WAI-ARIA menu button, docs/decisions/084-accessibility-bar.md): its
   * state. The trigger then opens it by Enter, Space, ArrowDown (on the first item) and ArrowUp (on the
   * last); Escape closes it and gives focus back to the trigger; Tab closes it and moves on from the trigger.
   * Without it the menu is shown as long as it is mounted (the player's menu cards).
   */
  button?: { open: boolean; setOpen(open: boolean): void } | undefined;
  /** What the arrows, Home and End walk inside the root, in document order. Default: its items. */
  walk?: string | undefined;
  /**
   * A sub-menu's parent: Escape and the back arrow (ArrowLeft, ArrowRight right to left) go there. The
   * forward arrow presses a row that opens a sub-menu (`data-opens`).
   */
  parent?: (() => void) | undefined;
  /**
   * Where focus goes when the menu appears, asked on every render until it lands, so that items that load
   * late still get it (unless the viewer has moved it into the menu already). `null`: nowhere yet; the root
   * itself: hold focus on the root meanwhile.
   */
  initialFocus?: ((root: HTMLElement) => HTMLElement | null) | undefined;
  /** The keys the menu handles never reach the page behind it (the player's shortcuts). */
  contain?: boolean | undefined;
}

/**
 * The keyboard of every menu (WAI-ARIA menu pattern, docs/decisions/084-accessibility-bar.md and, for the
 * player's menus, docs/decisions/050-player.md): ArrowDown/ArrowUp walk (wrapping), Home/End jump to the
 * ends (a text field or slider keeps Home, End and the sideways arrows), items keep one Tab stop between
 * them (roving tabindex: the focused item is the stop, the others leave the Tab sequence), and, by the
 * options, the menu button's trigger, a sub-menu's way back and the opening focus.
 *
 * `keyProps` go on the element whose keys the menu handles (its root); `menuProps` are `keyProps` plus the
 * menu's role, id and name (its trigger) for a menu button; `triggerProps` go on the trigger.
 */
export function useMenuKeys({
  button,
  walk = MENU_ITEMS,
  parent,
  initialFocus,
  contain = false,
}: MenuKeysOptions) {
  const { i18n } = useTranslation();
  const trigger = useRef<HTMLButtonElement>(null);
  const root = useRef<HTMLDivElement>(null);
  /** The end the trigger's key asked to open the menu on. */
  const pending = useRef<End | null>(null);
  const menuId = useId();
  const triggerId = useId();
  const open = button?.open ?? true;
  const setOpen = button?.setOpen;
  useOpeningFocus(root, pending, initialFocus);

  const openOn = useCallback(
    (end: End) => {
      if (open) itemAt(root.current, end)?.focus();
      else {
        pending.current = end;
        setOpen?.(true);
      }
    },
    [open, setOpen],
  );

  const onTriggerKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const end = triggerOpens(e.key);
    if (end) {
      e.preventDefault();
      openOn(end);
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen?.(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) =>
    menuKeyDown(e, {
      stops: all(root.current, walk),
      parent,
      setOpen,
      trigger: trigger.current,
      contain,
      rtl: i18n.dir() === 'rtl',
    });

  // Roving tabindex: the item that has focus is the menu's one Tab stop.
  const onFocus = (e: FocusEvent<HTMLElement>) => {
    const items = all(root.current, MENU_ITEMS);
    if (!items.includes(e.target)) return;
    for (const item of items) item.tabIndex = item === e.target ? 0 : -1;
  };

  const keyProps = { ref: root, onKeyDown, onFocus };
  return {
    keyProps,
    triggerProps: {
      ref: trigger,
      id: triggerId,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onKeyDown: onTriggerKeyDown,
    },
    menuProps: {
      ...keyProps,
      id: menuId,
      role: 'menu' as const,
      'aria-labelledby': triggerId,
    },
  };
}

/** The end of the menu a key on the trigger opens it on (Enter, Space, ArrowDown; ArrowUp), or null. */
function triggerOpens(key: string): End | null {
  if (key === 'Enter' || key === ' ' || key === 'ArrowDown') return 'first';
  return key === 'ArrowUp' ? 'last' : null;
}

/**
 * The opening focus, tried after every render until it lands (see `initialFocus`): the end a trigger's key
 * asked for, else `initialFocus`. The first render with the menu also takes its items out of the Tab
 * sequence; both start over once the menu is gone.
 */
function useOpeningFocus(
  rootRef: RefObject<HTMLDivElement | null>,
  pendingRef: RefObject<End | null>,
  initialFocus: MenuKeysOptions['initialFocus'],
) {
  /** The opening focus has landed (or the viewer moved it); reset when the menu goes. */
  const placed = useRef(false);
  /** The items were taken out of the Tab sequence on this opening. */
  const primed = useRef(false);
  useEffect(() => {
    const el = rootRef.current;
    if (!el) {
      placed.current = false;
      primed.current = false;
      return;
    }
    if (!primed.current) {
      primed.current = true;
      for (const item of all(el, MENU_ITEMS)) item.tabIndex = -1;
    }
    if (placed.current) return;
    const active = document.activeElement;
    if (active !== el && el.contains(active)) {
      placed.current = true;
      return;
    }
    const end = pendingRef.current;
    pendingRef.current = null;
    const target = end ? (itemAt(el, end) ?? null) : (initialFocus?.(el) ?? null);
    if (target === el) {
      if (active !== el) el.focus({ preventScroll: true });
    } else if (target) {
      target.focus({ preventScroll: true });
      placed.current = true;
    }
  });
}

interface MenuKeyContext {
  /** What the arrows, Home and End walk, in document order. */
  stops: HTMLElement[];
  parent: (() => void) | undefined;
  setOpen: ((open: boolean) => void) | undefined;
  trigger: HTMLButtonElement | null;
  contain: boolean;
  rtl: boolean;
}

/** A key inside the menu: walk, close (Escape, Tab), or go back and forth between sub-menus (sideways). */
function menuKeyDown(e: KeyboardEvent<HTMLElement>, menu: MenuKeyContext) {
  const target = e.target as HTMLElement;
  // A text field and a slider keep Home/End and the sideways arrows (the caret, the value).
  const ownsKeys = target instanceof HTMLInputElement && target.type !== 'checkbox';
  const { stops } = menu;
  const to = walkTo(e.key, stops.indexOf(target), ownsKeys);
  if (to !== null) {
    e.preventDefault();
    if (menu.contain) e.stopPropagation();
    stops[(to + stops.length) % stops.length]?.focus();
  } else if (e.key === 'Escape') closeOnEscape(e, menu);
  else if (e.key === 'Tab') {
    if (!menu.setOpen) return;
    // Focus goes back to the trigger, then the browser's own Tab moves on from there.
    menu.trigger?.focus();
    menu.setOpen(false);
  } else if (!ownsKeys) sideways(e, target, menu);
}

/**
 * Where a walking key goes from the stop at `at` (-1: none), as an index that wraps (-1 is the last);
 * null when the key does not walk, or when the field owns it (Home, End).
 */
function walkTo(key: string, at: number, ownsKeys: boolean): number | null {
  switch (key) {
    case 'ArrowDown':
      return at + 1;
    case 'ArrowUp':
      return at < 0 ? -1 : at - 1;
    case 'Home':
      return ownsKeys ? null : 0;
    case 'End':
      return ownsKeys ? null : -1;
    default:
      return null;
  }
}

/** Escape goes back to a sub-menu's parent, else closes a menu button's menu and focuses its trigger. */
function closeOnEscape(e: KeyboardEvent<HTMLElement>, { parent, setOpen, trigger }: MenuKeyContext) {
  if (!parent && !setOpen) return;
  e.preventDefault();
  e.stopPropagation();
  if (parent) return parent();
  setOpen?.(false);
  trigger?.focus();
}

/** The back arrow goes to a sub-menu's parent; the forward arrow presses a row that opens a sub-menu. */
function sideways(e: KeyboardEvent<HTMLElement>, target: HTMLElement, menu: MenuKeyContext) {
  const [backKey, forwardKey] = menu.rtl ? ['ArrowRight', 'ArrowLeft'] : ['ArrowLeft', 'ArrowRight'];
  if (e.key !== backKey && e.key !== forwardKey) return;
  if (menu.contain) e.stopPropagation();
  if (e.key === backKey && menu.parent) {
    e.preventDefault();
    menu.parent();
  } else if (e.key === forwardKey && target.dataset.opens) {
    e.preventDefault();
    target.click();
  }
}
