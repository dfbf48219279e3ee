import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { focused, press, stubBoxes } from './test-layout.ts';
import { installTvNavigation } from './tv-navigation.ts';

/** A header and two rows of posters on a 1920 × 1080 screen. */
const PAGE = `
  <header>
    <nav>
      <a href="/" id="logo" data-rect="20 10 100 44">Marquee</a>
      <a href="/discover" id="discover" data-rect="140 10 100 44">Discover</a>
      <button id="sign-in" data-rect="1700 10 120 44">Sign in</button>
    </nav>
  </header>
  <main id="main">
    <section id="row-a" data-tv-row>
      ${[1, 2, 3, 4].map((i) => `<a href="/media/a${i}" id="a${i}" data-rect="${i * 220 - 200} 100 200 300">A${i}</a>`).join('')}
    </section>
    <div id="between"></div>
    <section id="row-b" data-tv-row>
      ${[1, 2, 3, 4].map((i) => `<a href="/media/b${i}" id="b${i}" data-rect="${i * 220 - 200} 450 200 300">B${i}</a>`).join('')}
    </section>
  </main>`;

const focus = (id: string) => document.getElementById(id)!.focus();
let uninstall: () => void = () => undefined;

beforeEach(() => {
  stubBoxes();
  document.body.innerHTML = PAGE;
  uninstall = installTvNavigation(window, { state: { key: 'home', idx: 0 }, back: vi.fn() });
});

afterEach(() => {
  uninstall();
  (document.activeElement as HTMLElement | null)?.blur();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('spatial navigation', () => {
  it('moves to the nearest control in each direction across the header and two rows', () => {
    // The app opened: the content's first control has focus.
    expect(focused()).toBe('a1');
    press('ArrowRight');
    press('ArrowRight');
    expect(focused()).toBe('a3');
    press('ArrowLeft');
    expect(focused()).toBe('a2');
    // A row entered for the first time: the poster below.
    press('ArrowDown');
    expect(focused()).toBe('b2');
    press('ArrowRight');
    expect(focused()).toBe('b3');
    // Back up: the row remembers its poster.
    press('ArrowUp');
    expect(focused()).toBe('a2');
    // Up to the header's nearest link; sideways along it, not down into the rows.
    press('ArrowUp');
    expect(focused()).toBe('discover');
    press('ArrowLeft');
    expect(focused()).toBe('logo');
    expect(press('ArrowLeft').defaultPrevented).toBe(false);
    press('ArrowRight');
    press('ArrowRight');
    expect(focused()).toBe('sign-in');
    // Down from the far right: the row's remembered poster, not the nearest.
    press('ArrowDown');
    expect(focused()).toBe('a2');
    // Right at the end of a row stays there.
    focus('a4');
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    expect(focused()).toBe('a4');
  });

  it('keeps an arrow in its region while it can: a settings menu beside its sections', () => {
    document.querySelector('main')!.innerHTML = `
      <aside><nav>
        <a href="#account" id="menu-account" data-rect="20 100 300 60">Account</a>
        <a href="#captions" id="menu-captions" data-rect="20 170 300 60">Captions</a>
      </nav></aside>
      <button id="register" data-rect="400 140 150 60">Register</button>
      <select id="language" data-rect="400 400 900 60"><option>English</option></select>`;
    focus('register');
    // The menu's Captions is nearer below, but Down stays in the sections.
    press('ArrowDown');
    expect(focused()).toBe('language');
    // The menu's Right reaches the section beside it, off its line.
    focus('menu-account');
    press('ArrowRight');
    expect(focused()).toBe('register');
    // At the menu's end, Down leaves it for the nearest below.
    focus('menu-captions');
    press('ArrowDown');
    expect(focused()).toBe('language');
  });

  it('skips inert, aria-hidden, hidden and transparent controls, and leaves no marks behind', () => {
    document.getElementById('between')!.innerHTML = `
      <div inert>${Array.from({ length: 12 }, (_, i) => `<button data-rect="${470 + i * 15} 405 10 10">x</button>`).join('')}</div>
      <div aria-hidden="true"><a href="/x" id="aria-hidden" data-rect="240 410 200 30">x</a></div>
      <button id="transparent" style="opacity: 0" data-rect="460 410 200 30">x</button>
      <div style="visibility: hidden"><button id="invisible" data-rect="460 410 200 30">x</button></div>
      <button id="hidden" hidden data-rect="680 410 200 30">x</button>
      <a id="no-href" data-rect="240 410 200 30">x</a>`;
    focus('a3');
    press('ArrowDown');
    expect(focused()).toBe('b3');
    // The paging arrows a row keeps for pointers are passed over.
    document.getElementById('between')!.innerHTML =
      '<div class="tv-ignore"><button id="arrow" data-rect="460 410 200 30">›</button></div>';
    focus('a3');
    press('ArrowDown');
    expect(focused()).toBe('b3');
  });

  it('passes over a button drawn on a card; focus left there goes back to the card', () => {
    document
      .getElementById('a2')!
      .insertAdjacentHTML('afterend', '<button id="a2-more" data-rect="390 110 40 40">⋯</button>');
    focus('a2');
    press('ArrowRight');
    expect(focused()).toBe('a3');
    press('ArrowLeft');
    expect(focused()).toBe('a2');
    press('ArrowUp');
    expect(focused()).toBe('discover');
    // Back from the card's menu, focus is on its button: towards the card's centre is the card.
    focus('a2-more');
    press('ArrowDown');
    expect(focused()).toBe('a2');
  });

  it('reaches select, textarea and summary; a select lets focus pass and opens on OK, a text field keeps its caret until its end', () => {
    document.querySelector('main')!.innerHTML = `
      <select id="select" data-rect="20 100 200 40"><option>1</option><option>2</option></select>
      <button id="after" data-rect="240 100 100 40">OK</button>
      <details><summary id="summary" data-rect="20 200 200 40">More</summary></details>
      <textarea id="textarea" data-rect="240 200 200 80"></textarea>`;
    focus('after');
    press('ArrowLeft');
    expect(focused()).toBe('select');
    // Its value does not change as focus passes: an arrow with nowhere to go is held too.
    expect(press('ArrowLeft').defaultPrevented).toBe(true);
    expect(focused()).toBe('select');
    const select = document.getElementById('select') as HTMLSelectElement;
    const showPicker = vi.fn();
    select.showPicker = showPicker;
    expect(press('Enter').defaultPrevented).toBe(true);
    expect(showPicker).toHaveBeenCalledOnce();
    press('ArrowRight');
    press('ArrowDown');
    expect(focused()).toBe('textarea');
    const textarea = document.getElementById('textarea') as HTMLTextAreaElement;
    textarea.value = 'two\nlines';
    textarea.setSelectionRange(2, 2);
    press('ArrowLeft');
    expect(focused()).toBe('textarea');
    textarea.setSelectionRange(0, 0);
    press('ArrowLeft');
    expect(focused()).toBe('summary');
    expect(document.querySelectorAll('[tabindex]')).toHaveLength(0);
  });

  it('keeps the arrows inside the open dialog', () => {
    document.body.insertAdjacentHTML(
      'beforeend',
      `<button id="page-right" data-rect="1500 500 100 40">x</button>
       <div role="dialog" aria-modal="true">
         <button id="yes" data-rect="800 500 100 40">Yes</button>
         <button id="no" data-rect="920 500 100 40">No</button>
       </div>`,
    );
    // Focus on nothing (the page behind): the dialog's first control.
    press('ArrowDown');
    expect(focused()).toBe('yes');
    press('ArrowRight');
    expect(focused()).toBe('no');
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    press('ArrowUp');
    expect(focused()).toBe('no');
  });

  it('never loses focus: with nowhere to go it stays, and the page may scroll', () => {
    focus('b1');
    const down = press('ArrowDown');
    expect(down.defaultPrevented).toBe(false);
    expect(focused()).toBe('b1');
    press('ArrowLeft');
    expect(focused()).toBe('b1');
  });

  it('gives a control an id when it takes focus, the same each time its row is drawn', () => {
    const row = `<section id="row-c">
      <a href="/media/x" data-name="x" data-rect="20 800 200 200">X</a>
      <a href="/media/x" data-name="x-again" data-rect="240 800 200 200">X</a>
    </section>`;
    document.querySelector('main')!.insertAdjacentHTML('beforeend', row);
    focus('b1');
    press('ArrowDown');
    expect(focused()).toBe('x');
    press('ArrowRight');
    expect(focused()).toBe('x-again');
    const [first, second] = Array.from(document.querySelectorAll('#row-c a'), (a) => a.id);
    expect(first).toMatch(/^tv-/);
    expect(second).toMatch(/^tv-/);
    expect(second).not.toBe(first);
    // Drawn again (new elements, no ids): the same ids as they take focus.
    document.getElementById('row-c')!.outerHTML = row;
    document.querySelector<HTMLElement>('[data-name="x-again"]')!.focus();
    press('ArrowLeft');
    expect(focused()).toBe('x');
    expect(Array.from(document.querySelectorAll('#row-c a'), (a) => a.id)).toEqual([first, second]);
  });

  it('leaves arrows alone that a control or a later window listener handled', () => {
    focus('a1');
    document.getElementById('a1')!.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowRight') e.preventDefault();
    });
    press('ArrowRight');
    expect(focused()).toBe('a1');
    // The player's shortcuts listen on the window too, registered after TV mode came on.
    const player = (e: KeyboardEvent) => {
      if (e.key === 'ArrowDown') e.preventDefault();
    };
    window.addEventListener('keydown', player);
    press('ArrowDown');
    expect(focused()).toBe('a1');
    window.removeEventListener('keydown', player);
    press('ArrowDown');
    expect(focused()).toBe('b1');
  });

  it('lets a text field and a slider keep the arrows they use', () => {
    document.querySelector('main')!.innerHTML = `
      <input id="field" value="hello" data-rect="20 100 300 40">
      <button id="go" data-rect="340 100 100 40">Go</button>
      <input id="slider" type="range" data-rect="20 200 300 40">`;
    const field = document.getElementById('field') as HTMLInputElement;
    field.focus();
    field.setSelectionRange(2, 2);
    press('ArrowRight');
    expect(focused()).toBe('field');
    field.setSelectionRange(5, 5);
    press('ArrowRight');
    expect(focused()).toBe('go');
    focus('field');
    press('ArrowDown');
    expect(focused()).toBe('slider');
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    expect(focused()).toBe('slider');
    press('ArrowUp');
    expect(focused()).toBe('field');
  });

  it('chooses a checkbox with OK', () => {
    document.querySelector('main')!.innerHTML =
      '<input id="box" type="checkbox" data-rect="20 100 40 40"><button id="button" data-rect="80 100 40 40">x</button>';
    focus('box');
    expect(press('Enter').defaultPrevented).toBe(true);
    expect((document.getElementById('box') as HTMLInputElement).checked).toBe(true);
    focus('button');
    expect(press('Enter').defaultPrevented).toBe(false);
  });

  it('does nothing once uninstalled (TV mode off)', () => {
    uninstall();
    focus('a1');
    expect(press('ArrowRight').defaultPrevented).toBe(false);
    expect(focused()).toBe('a1');
    expect(press('Escape').defaultPrevented).toBe(false);
  });
});
