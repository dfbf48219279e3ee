import { activeElement } from './focusables.ts';
import { withModifier } from './spatial-navigation.ts';

/*
 * A card's menu on a remote (docs/decisions/114-tv-mode.md): the arrows pass over the ⋯ drawn on a
 * poster, so OK held on the card opens its menu, as TV apps do, and the Menu key (`ContextMenu`) opens it
 * at once. A short OK opens the card, as before. The menu opens on its first item; when it closes, focus
 * goes back to the card it was opened from.
 */

/** Holding OK this long on a card opens its menu instead of the card. */
export const LONG_PRESS_MS = 500;

/**
 * A card with a menu: its wrapper holds the card's link and its menus' buttons; of two, the one marked
 * `first` (Continue Watching's options before the watched marks).
 */
const CARD = '[data-card]';
const CARD_MENU = '[data-card-menu]';

/** The card link focus is on, and its menu's button, when focus is on a card that has one. */
function focusedCard(doc: Document): { link: HTMLElement; menu: HTMLElement } | null {
  const el = activeElement(doc);
  if (!el || !el.matches(`${CARD} a[href]`)) return null;
  const card = el.closest(CARD);
  const menu =
    card?.querySelector<HTMLElement>(`${CARD_MENU}[data-card-menu="first"]`) ??
    card?.querySelector<HTMLElement>(CARD_MENU);
  return menu ? { link: el, menu } : null;
}

export interface CardMenuKeys {
  /** True when the key was a card's (its default is then prevented). */
  onKeyDown(event: KeyboardEvent): boolean;
  onKeyUp(event: KeyboardEvent): void;
  onFocusIn(event: FocusEvent): void;
  /** Forgets a press in progress (the window lost focus: its key-up will not come). */
  cancel(): void;
}

export function cardMenuKeys(doc: Document): CardMenuKeys {
  const win = doc.defaultView ?? window;
  let held: { link: HTMLElement; timer: number; opened: boolean } | null = null;
  /** The card whose menu the keys opened: focus goes back to it when the menu closes. */
  let openedFrom: { link: HTMLElement; menu: HTMLElement } | null = null;

  const open = (card: { link: HTMLElement; menu: HTMLElement }) => {
    openedFrom = card;
    card.menu.click();
  };
  const cancel = () => {
    if (held) win.clearTimeout(held.timer);
    held = null;
  };

  return {
    onKeyDown(event) {
      if (event.defaultPrevented || withModifier(event)) return false;
      if (event.key !== 'Enter' && event.key !== 'ContextMenu') return false;
      const card = focusedCard(doc);
      if (!card) return false;
      event.preventDefault();
      if (event.key === 'ContextMenu') {
        open(card);
        return true;
      }
      // The keys a held OK repeats: the press is under way.
      if (held) return true;
      const press = {
        link: card.link,
        opened: false,
        timer: win.setTimeout(() => {
          press.opened = true;
          open(card);
        }, LONG_PRESS_MS),
      };
      held = press;
      return true;
    },
    onKeyUp(event) {
      if (event.key !== 'Enter' || !held) return;
      const { link, opened } = held;
      cancel();
      // A short press opens the card, as OK always did.
      if (!opened && activeElement(doc) === link) link.click();
    },
    onFocusIn(event) {
      const from = openedFrom;
      if (!from || event.target !== from.menu) return;
      // Focus is back on the menu's button: the menu closes (Escape, Back, an item chosen). Its state is
      // drawn once the closing handler is done.
      win.setTimeout(() => {
        if (openedFrom !== from || from.menu.getAttribute('aria-expanded') === 'true') return;
        openedFrom = null;
        if (activeElement(doc) === from.menu && from.link.isConnected) from.link.focus();
      }, 0);
    },
    cancel,
  };
}
