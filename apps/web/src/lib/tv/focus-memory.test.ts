import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RESTORE_WINDOW_MS } from './focus-memory.ts';
import { focused, press, stubBoxes } from './test-layout.ts';
import { installTvNavigation } from './tv-navigation.ts';

/*
 * Screens are drawn as the router draws them: new elements each time, without the ids focus gave the
 * last ones. `history` stands in for the browser's, as react-router fills it (`{ key, idx }`).
 */

const posters = (row: string, y: number) =>
  [1, 2, 3, 4]
    .map(
      (i) =>
        `<a href="/media/${row}${i}" data-name="${row}${i}" data-rect="${i * 220 - 200} ${y} 200 300">x</a>`,
    )
    .join('');

/** Home: two rows of posters; `withSecondRow: false` while the second has not rendered yet. */
function drawHome({ withSecondRow = true } = {}) {
  document.querySelector('main')!.innerHTML = `
    <section id="row-a" data-tv-row>${posters('a', 100)}</section>
    <section id="row-b" data-tv-row>${withSecondRow ? posters('b', 450) : ''}</section>`;
}
const drawSecondRow = () => (document.getElementById('row-b')!.innerHTML = posters('b', 450));
const drawTitle = () =>
  (document.querySelector('main')!.innerHTML = `
    <button data-name="play" data-rect="20 100 200 60">Play</button>
    <button data-name="add" data-rect="240 100 200 60">My List</button>`);

const history = { state: { key: 'home', idx: 0 } as { key: string; idx: number }, back: vi.fn() };
let uninstall: () => void = () => undefined;

/** Lets the page's mutations be seen and the next frame run. */
const nextFrame = () => vi.advanceTimersByTimeAsync(20);

/** Follows a link: the router pushes an entry and draws the next screen. */
async function open(key: string, draw: () => void) {
  history.state = { key, idx: history.state.idx + 1 };
  draw();
  await nextFrame();
}

/** The browser's Back: the router restores the entry, then draws its screen. */
async function back(key: string, draw: () => void) {
  history.state = { key, idx: history.state.idx - 1 };
  window.dispatchEvent(new PopStateEvent('popstate', { state: history.state }));
  draw();
  await nextFrame();
}

beforeEach(() => {
  vi.useFakeTimers();
  stubBoxes();
  history.state = { key: 'home', idx: 0 };
  document.body.innerHTML =
    '<header><nav><a href="/" data-name="logo" data-rect="20 10 100 44">M</a></nav></header><main></main>';
  drawHome();
  uninstall = installTvNavigation(window, history);
});

afterEach(() => {
  uninstall();
  (document.activeElement as HTMLElement | null)?.blur();
  document.body.innerHTML = '';
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** On home: a2 in the first row, then b3 in the second. */
function walkHome() {
  // Opened: the content's first control has focus.
  expect(focused()).toBe('a1');
  press('ArrowRight');
  press('ArrowDown');
  press('ArrowRight');
  expect(focused()).toBe('b3');
}

describe('focus memory', () => {
  it('puts focus back on the control the screen had after Back, and each row on its own', async () => {
    walkHome();
    await open('title', drawTitle);
    // A new screen: its first control, never the page's body.
    expect(focused()).toBe('play');
    await back('home', drawHome);
    expect(focused()).toBe('b3');
    press('ArrowUp');
    expect(focused()).toBe('a2');
  });

  it('after Back with focus on the header (which stays), focus moves into the screen it came to', async () => {
    walkHome();
    await open('title', drawTitle);
    document.querySelector<HTMLElement>('[data-name="logo"]')!.focus();
    // A screen this tab has not shown before (the way home from a first screen): its first control.
    await back('never-seen', drawHome);
    expect(focused()).toBe('a1');
  });

  it('waits for the remembered control to render, holding focus on the first meanwhile', async () => {
    walkHome();
    await open('title', drawTitle);
    await back('home', () => drawHome({ withSecondRow: false }));
    expect(focused()).toBe('a1');
    drawSecondRow();
    await nextFrame();
    expect(focused()).toBe('b3');
  });

  it('puts nothing back once the viewer has pressed a key', async () => {
    walkHome();
    await open('title', drawTitle);
    await back('home', () => drawHome({ withSecondRow: false }));
    press('ArrowRight');
    expect(focused()).toBe('a2');
    drawSecondRow();
    await nextFrame();
    expect(focused()).toBe('a2');
  });

  it('gives up waiting after a while', async () => {
    walkHome();
    await open('title', drawTitle);
    await back('home', () => drawHome({ withSecondRow: false }));
    await vi.advanceTimersByTimeAsync(RESTORE_WINDOW_MS);
    drawSecondRow();
    await nextFrame();
    expect(focused()).toBe('a1');
  });

  it('keeps focus on a control drawn again on the same screen', async () => {
    walkHome();
    drawSecondRow();
    await nextFrame();
    expect(focused()).toBe('b3');
    expect(document.activeElement).toBe(document.querySelector('[data-name="b3"]'));
  });

  it('takes focus back when a control lets go of it (a search field blurred on Enter)', async () => {
    walkHome();
    (document.activeElement as HTMLElement).blur();
    expect(focused()).toBe('body');
    await nextFrame();
    expect(focused()).toBe('b3');
    // Hidden meanwhile: the content's first control instead.
    const b3 = document.querySelector<HTMLElement>('[data-name="b3"]')!;
    b3.hidden = true;
    b3.blur();
    await nextFrame();
    expect(focused()).toBe('a1');
  });

  it('opens on a search field only until a button shows (a TV would open its keyboard)', async () => {
    uninstall();
    document.querySelector('main')!.innerHTML = '<input id="search" type="search" data-rect="400 20 800 60">';
    uninstall = installTvNavigation(window, history);
    expect(focused()).toBe('search');
    document
      .querySelector('main')!
      .insertAdjacentHTML('beforeend', `<section id="row-a" data-tv-row>${posters('a', 100)}</section>`);
    await nextFrame();
    expect(focused()).toBe('a1');
  });

  it('leaves focus to a screen with a video (the player places it)', async () => {
    walkHome();
    await open(
      'player',
      () =>
        (document.querySelector('main')!.innerHTML =
          '<video></video><button data-rect="0 0 100 40">x</button>'),
    );
    expect(focused()).toBe('body');
  });
});
