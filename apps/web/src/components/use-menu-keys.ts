import { useCallback, useEffect, useId, useRef, type KeyboardEvent } from 'react';

type Focus = 'first' | 'last';

const itemsOf = (menu: HTMLElement | null) =>
  Array.from(menu?.querySelectorAll<HTMLElement>('[role^="menuitem"]:not([disabled])') ?? []);

/**
 * Keyboard behaviour of a menu button (WAI-ARIA menu button pattern) for a menu whose items carry
 * `role="menuitem"`. On the trigger, Enter, Space and ArrowDown open the menu on its first item, ArrowUp on
 * its last. In the menu, the arrows move between items (wrapping), Home and End go to the ends, Esc closes
 * and gives focus back to the trigger, Tab closes and moves on from the trigger. The items leave the Tab
 * sequence: one Tab press leaves the menu.
 */
export function useMenuKeys(open: boolean, setOpen: (open: boolean) => void) {
  const trigger = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const pending = useRef<Focus | null>(null);
  const menuId = useId();
  const triggerId = useId();

  useEffect(() => {
    if (!open) return;
    const items = itemsOf(menu.current);
    for (const item of items) item.tabIndex = -1;
    const target = pending.current;
    pending.current = null;
    if (target) (target === 'first' ? items[0] : items[items.length - 1])?.focus();
  }, [open]);

  const openOn = useCallback(
    (target: Focus) => {
      if (open) {
        const items = itemsOf(menu.current);
        (target === 'first' ? items[0] : items[items.length - 1])?.focus();
      } else {
        pending.current = target;
        setOpen(true);
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
      setOpen(false);
    }
  };

  const onMenuKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    const items = itemsOf(menu.current);
    if (items.length === 0) return;
    const at = items.indexOf(document.activeElement as HTMLElement);
    const go = (i: number) => {
      e.preventDefault();
      items[(i + items.length) % items.length]!.focus();
    };
    switch (e.key) {
      case 'ArrowDown':
        return go(at + 1);
      case 'ArrowUp':
        return go(at < 0 ? -1 : at - 1);
      case 'Home':
        return go(0);
      case 'End':
        return go(-1);
      case 'Escape':
        e.preventDefault();
        e.stopPropagation();
        setOpen(false);
        trigger.current?.focus();
        return;
      case 'Tab':
        // Focus goes back to the trigger, then the browser's own Tab moves on from there.
        trigger.current?.focus();
        setOpen(false);
        return;
    }
  };

  return {
    triggerProps: {
      ref: trigger,
      id: triggerId,
      'aria-haspopup': 'menu' as const,
      'aria-expanded': open,
      'aria-controls': open ? menuId : undefined,
      onKeyDown: onTriggerKeyDown,
    },
    menuProps: {
      ref: menu,
      id: menuId,
      role: 'menu' as const,
      'aria-labelledby': triggerId,
      onKeyDown: onMenuKeyDown,
    },
  };
}
