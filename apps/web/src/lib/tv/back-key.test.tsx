import { act, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Dialog } from '../../components/dialog.tsx';
import { focused, press, stubBoxes } from './test-layout.ts';
import { installTvNavigation } from './tv-navigation.ts';

const history = { state: { key: 'title', idx: 2 } as { key: string; idx: number }, back: vi.fn() };
const goHome = vi.fn();
let uninstall: () => void = () => undefined;

beforeEach(() => {
  stubBoxes();
  history.state = { key: 'title', idx: 2 };
  history.back.mockClear();
  goHome.mockClear();
  uninstall = installTvNavigation(window, history, goHome);
});

afterEach(() => {
  uninstall();
  vi.restoreAllMocks();
});

/** A page with a button that opens the app's dialog (components/dialog.tsx), open to begin with. */
function PageWithDialog() {
  const [open, setOpen] = useState(true);
  return (
    <main>
      <button type="button" data-rect="20 100 100 40" onClick={() => setOpen(true)}>
        Open
      </button>
      {open && (
        <Dialog label="Remove" onClose={() => setOpen(false)}>
          <button type="button" data-rect="800 500 100 40">
            OK
          </button>
          <input aria-label="Note" data-rect="800 560 200 40" />
        </Dialog>
      )}
    </main>
  );
}

const BACK_KEYS: [string, KeyboardEventInit][] = [
  ['Escape', { key: 'Escape' }],
  ['Backspace', { key: 'Backspace' }],
  ['GoBack', { key: 'GoBack' }],
  ['BrowserBack', { key: 'BrowserBack' }],
  ['webOS 461', { key: 'Unidentified', keyCode: 461 }],
  ['Tizen 10009', { key: 'Unidentified', keyCode: 10009 }],
];

describe('the Back key', () => {
  it.each(BACK_KEYS)('%s closes the open dialog first, then goes back', (_, init) => {
    render(<PageWithDialog />);
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'OK' }));
    act(() => void press(init.key!, init));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(history.back).not.toHaveBeenCalled();
    // Focus went back to what had it before the dialog (here: nothing); Back now leaves the screen.
    act(() => void press(init.key!, init));
    expect(history.back).toHaveBeenCalledTimes(1);
  });

  it('does not also go back when a menu closed itself on Escape without saying so', () => {
    document.body.innerHTML = `<div role="menu" data-rect="20 100 200 200">
      <button role="menuitem" id="item" data-rect="20 100 200 40">Profile</button></div>`;
    // Like the account menu's own listener: it closes, and does not prevent the key.
    const close = (e: KeyboardEvent) => {
      if (e.key === 'Escape') document.querySelector('[role="menu"]')?.remove();
    };
    document.addEventListener('keydown', close);
    document.getElementById('item')!.focus();
    press('Escape');
    document.removeEventListener('keydown', close);
    expect(document.querySelector('[role="menu"]')).toBeNull();
    expect(history.back).not.toHaveBeenCalled();
    press('Escape');
    expect(history.back).toHaveBeenCalledTimes(1);
  });

  it('closes a native dialog nobody answers the way the browser would (cancel, then close)', () => {
    document.body.innerHTML = `<dialog open><button id="in" data-rect="800 500 100 40">OK</button></dialog>`;
    const dialog = document.querySelector('dialog')!;
    const cancel = vi.fn();
    dialog.addEventListener('cancel', cancel);
    document.getElementById('in')!.focus();
    expect(press('GoBack').defaultPrevented).toBe(true);
    expect(cancel).toHaveBeenCalledTimes(1);
    expect(dialog.open).toBe(false);
    expect(history.back).not.toHaveBeenCalled();
  });

  it("on the app's first page in the tab goes home unless it is home, and keeps the browser's Back from leaving", () => {
    history.state = { key: 'default', idx: 0 };
    window.history.replaceState(null, '', '/browse/dune');
    expect(press('BrowserBack').defaultPrevented).toBe(true);
    expect(history.back).not.toHaveBeenCalled();
    expect(goHome).toHaveBeenCalledTimes(1);
    window.history.replaceState(null, '', '/');
    expect(press('BrowserBack').defaultPrevented).toBe(true);
    expect(history.back).not.toHaveBeenCalled();
    expect(goHome).toHaveBeenCalledTimes(1);
  });

  it('leaves Backspace in a text field to the field, and a key a control handled to the control', () => {
    document.body.innerHTML = `<input id="field" data-rect="20 100 200 40">
      <div role="slider" tabindex="0" id="rating" aria-valuenow="3" data-rect="20 200 200 40"></div>
      <input type="checkbox" id="box" data-rect="20 300 40 40">`;
    document.getElementById('field')!.focus();
    expect(press('Backspace').defaultPrevented).toBe(false);
    const rating = document.getElementById('rating')!;
    // Like the rating control (features/library/title-rating.tsx): Backspace clears it.
    rating.addEventListener('keydown', (e) => e.key === 'Backspace' && e.preventDefault());
    rating.focus();
    press('Backspace');
    expect(history.back).not.toHaveBeenCalled();
    // A checkbox takes no text: Backspace there is Back.
    document.getElementById('box')!.focus();
    press('Backspace');
    expect(history.back).toHaveBeenCalledTimes(1);
  });

  it('leaves the media keys to the player', () => {
    document.body.innerHTML = `<main><button id="play" data-rect="20 100 100 40">Play</button></main>`;
    document.getElementById('play')!.focus();
    for (const key of ['MediaPlayPause', 'MediaStop', 'MediaFastForward', 'MediaRewind', 'MediaTrackNext']) {
      expect(press(key).defaultPrevented).toBe(false);
      expect(focused()).toBe('play');
    }
    expect(history.back).not.toHaveBeenCalled();
  });
});
