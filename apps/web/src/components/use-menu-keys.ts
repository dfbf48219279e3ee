import { useCallback, useEffect, useId, useRef, type FocusEvent, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

/** A menu's items: what takes one Tab stop between them (roving tabindex). */
export const MENU_ITEMS = '[role^="menuitem"]:not(:disabled)';

const all = (root: HTMLElement | null, selector: string) =>
  Array.from(root?.querySelectorAll<HTMLElement>(selector) ?? []);

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
  const pending = useRef<'first' | 'last' | null>(null);
  /** The opening focus has landed (or the viewer moved it); reset when the menu goes. */
  const placed = useRef(false);
  /** The items were taken out of the Tab sequence on this opening. */
  const primed = useRef(false);
  const menuId = useId();
  const triggerId = useId();
  const open = button?.open ?? true;
  const setOpen = button?.setOpen;

  // On every render until it lands (see `initialFocus`).
  useEffect(() => {
    const el = root.current;
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
    const end = pending.current;
    pending.current = null;
    const items = end ? all(el, MENU_ITEMS) : [];
    const target = end ? ((end === 'first' ? items[0] : items.at(-1)) ?? null) : (initialFocus?.(el) ?? null);
    if (target === el) {
      if (active !== el) el.focus({ preventScroll: true });
    } else if (target) {
      target.focus({ preventScroll: true });
      placed.current = true;
    }
  });

  const openOn = useCallback(
    (end: 'first' | 'last') => {
      if (open) {
        const items = all(root.current, MENU_ITEMS);
        (end === 'first' ? items[0] : items.at(-1))?.focus();
      } else {
        pending.current = end;
        setOpen?.(true);
      }
    },
    [open, setOpen],
  );

  const onTriggerKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowDown') {
      e.preventDefault();
      openOn('first');
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      openOn('last');
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      setOpen?.(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    // A text field and a slider keep Home/End and the sideways arrows (the caret, the value).
    const ownsKeys = target instanceof HTMLInputElement && target.type !== 'checkbox';
    const [backKey, forwardKey] =
      i18n.dir() === 'rtl' ? ['ArrowRight', 'ArrowLeft'] : ['ArrowLeft', 'ArrowRight'];
    const stops = all(root.current, walk);
    const at = stops.indexOf(target);
    const go = (i: number) => {
      e.preventDefault();
      if (contain) e.stopPropagation();
      stops[(i + stops.length) % stops.length]?.focus();
    };
    switch (e.key) {
      case 'ArrowDown':
        return go(at + 1);
      case 'ArrowUp':
        return go(at < 0 ? -1 : at - 1);
      case 'Home':
        return ownsKeys ? undefined : go(0);
      case 'End':
        return ownsKeys ? undefined : go(-1);
      case 'Escape':
        if (parent) {
          e.preventDefault();
          e.stopPropagation();
          return parent();
        }
        if (!setOpen) return;
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
        return;
      case 'Tab':
        if (!setOpen) return;
        // Focus goes back to the trigger, then the browser's own Tab moves on from there.
        trigger.current?.focus();
        setOpen(false);
        return;
    }
    if ((e.key !== backKey && e.key !== forwardKey) || ownsKeys) return;
    if (contain) e.stopPropagation();
    if (e.key === backKey && parent) {
      e.preventDefault();
      parent();
    } else if (e.key === forwardKey && target.dataset.opens) {
      e.preventDefault();
      target.click();
    }
  };

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
