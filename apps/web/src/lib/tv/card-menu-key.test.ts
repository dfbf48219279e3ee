import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LONG_PRESS_MS } from './card-menu-key.ts';
import { installTvNavigation } from './tv-navigation.ts';

// OK held on a card opens its menu on a TV; a short OK opens the card; the Menu key opens the menu at
// once; focus comes back to the card when the menu closes (docs/decisions/114-tv-mode.md).

let uninstall: () => void;
let opened: string[];
let followed: number;

function card(id: string, o: { menus?: ('plain' | 'first')[] } = {}) {
  const wrapper = document.createElement('div');
  wrapper.setAttribute('data-card', '');
  const link = document.createElement('a');
  link.href = `/media/${id}`;
  link.textContent = id;
  link.addEventListener('click', (e) => {
    e.preventDefault();
    followed += 1;
  });
  wrapper.append(link);
  for (const kind of o.menus ?? ['plain']) {
    const button = document.createElement('button');
    button.setAttribute('data-card-menu', kind === 'first' ? 'first' : '');
    button.setAttribute('aria-expanded', 'false');
    button.addEventListener('click', () => {
      opened.push(`${id}:${kind}`);
      button.setAttribute('aria-expanded', 'true');
    });
    wrapper.append(button);
  }
  document.body.append(wrapper);
  return { link, menu: wrapper.querySelector<HTMLButtonElement>('[data-card-menu]')! };
}

const key = (type: 'keydown' | 'keyup', k: string, repeat = false) => {
  const event = new KeyboardEvent(type, { key: k, repeat, bubbles: true, cancelable: true });
  document.activeElement!.dispatchEvent(event);
  return event;
};

beforeEach(() => {
  vi.useFakeTimers();
  document.body.innerHTML = '';
  opened = [];
  followed = 0;
  uninstall = installTvNavigation(window, window.history);
});
afterEach(() => {
  uninstall();
  vi.useRealTimers();
});

describe('OK on a card in TV mode', () => {
  it('opens the card when pressed briefly, on release', () => {
    const { link } = card('matrix');
    link.focus();
    expect(key('keydown', 'Enter').defaultPrevented).toBe(true);
    expect(followed).toBe(0);
    vi.advanceTimersByTime(LONG_PRESS_MS - 100);
    key('keyup', 'Enter');
    expect(followed).toBe(1);
    vi.advanceTimersByTime(LONG_PRESS_MS);
    expect(opened).toEqual([]);
  });

  it('opens its menu when held, once, whatever the keys repeat, and not the card', () => {
    const { link } = card('matrix');
    link.focus();
    key('keydown', 'Enter');
    vi.advanceTimersByTime(200);
    key('keydown', 'Enter', true);
    vi.advanceTimersByTime(LONG_PRESS_MS);
    key('keydown', 'Enter', true);
    expect(opened).toEqual(['matrix:plain']);
    key('keyup', 'Enter');
    expect(followed).toBe(0);
  });

  it('opens the menu marked first of a card with two (Continue Watching’s options)', () => {
    const { link } = card('show', { menus: ['plain', 'first'] });
    link.focus();
    key('keydown', 'ContextMenu');
    expect(opened).toEqual(['show:first']);
  });

  it('leaves OK alone on a card without a menu, and on anything else', () => {
    const { link, menu } = card('plain');
    menu.remove();
    link.focus();
    expect(key('keydown', 'Enter').defaultPrevented).toBe(false);
    const button = document.createElement('button');
    document.body.append(button);
    button.focus();
    expect(key('keydown', 'Enter').defaultPrevented).toBe(false);
  });

  it('forgets a press when the window loses focus (its release never comes)', () => {
    const { link } = card('matrix');
    link.focus();
    key('keydown', 'Enter');
    window.dispatchEvent(new Event('blur'));
    vi.advanceTimersByTime(LONG_PRESS_MS * 2);
    key('keyup', 'Enter');
    expect(opened).toEqual([]);
    expect(followed).toBe(0);
  });

  it('gives focus back to the card when the menu it opened closes', () => {
    const { link, menu } = card('matrix');
    link.focus();
    key('keydown', 'ContextMenu');
    // The menu closes and focus goes back to its button, as the menu button pattern does.
    menu.setAttribute('aria-expanded', 'false');
    menu.focus();
    vi.runAllTimers();
    expect(document.activeElement).toBe(link);
    // A menu button focused otherwise (the viewer went there) keeps focus.
    menu.focus();
    vi.runAllTimers();
    expect(document.activeElement).toBe(menu);
  });
});
