import { act, fireEvent, render as renderBare, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { useState, type ReactElement, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { initI18n } from '../lib/i18n.ts';
import { useMenuKeys, type MenuKeysOptions } from './use-menu-keys.ts';

// The account menu (features/account/account-menu.test.tsx) and the player's menus
// (features/player/ui/player-keyboard.test.tsx) test the hook in place; these cover what neither does.

/** A menu button with three items and a link after it. */
function ButtonMenu() {
  const [open, setOpen] = useState(false);
  const { triggerProps, menuProps } = useMenuKeys({ button: { open, setOpen } });
  return (
    <div>
      <button type="button" {...triggerProps} onClick={() => setOpen(!open)}>
        Menu
      </button>
      {open && (
        <div {...menuProps}>
          <a role="menuitem" href="/a">
            Alpha
          </a>
          <a role="menuitem" href="/b">
            Beta
          </a>
          <button type="button" role="menuitem">
            Gamma
          </button>
        </div>
      )}
      <a href="/next">After</a>
    </div>
  );
}

/** A card in the player's manner: keys on the card, a back row, items, maybe a field. */
function Card({ options, children }: { options: MenuKeysOptions; children: ReactNode }) {
  const { keyProps } = useMenuKeys(options);
  return (
    <div {...keyProps} tabIndex={-1} data-testid="card">
      {children}
    </div>
  );
}

const focused = () => document.activeElement;

let i18next: i18n;
beforeAll(async () => {
  i18next = await initI18n('en');
});
/** The keys that reach the page (the document) from now to the end of the test. */
function hearing() {
  const heard: string[] = [];
  const listen = (e: KeyboardEvent) => heard.push(e.key);
  document.addEventListener('keydown', listen);
  onTestFinished(() => document.removeEventListener('keydown', listen));
  return heard;
}
const render = (ui: ReactElement) =>
  renderBare(ui, { wrapper: ({ children }) => <I18nextProvider i18n={i18next}>{children}</I18nextProvider> });
const WALK = 'button:not(:disabled), input:not(:disabled), [role^="menuitem"]:not(:disabled)';

describe('useMenuKeys as a menu button', () => {
  it('opened by a click, focus stays on the trigger and the items are out of the Tab sequence', async () => {
    render(<ButtonMenu />);
    const keys = userEvent.setup();
    await keys.click(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getByRole('menu', { name: 'Menu' })).toBeTruthy();
    expect(focused()).toBe(screen.getByRole('button', { name: 'Menu' }));
    expect(screen.getAllByRole('menuitem').map((i) => i.tabIndex)).toEqual([-1, -1, -1]);
    await keys.tab();
    expect(focused()).toBe(screen.getByRole('link', { name: 'After' }));
  });

  it('ArrowDown on the trigger of an open menu goes to its first item; Escape on the trigger closes it', async () => {
    render(<ButtonMenu />);
    const keys = userEvent.setup();
    const trigger = screen.getByRole('button', { name: 'Menu' });
    await keys.click(trigger);
    await keys.keyboard('{ArrowDown}');
    expect(focused()).toBe(screen.getAllByRole('menuitem')[0]);
    act(() => trigger.focus());
    await keys.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    expect(trigger.hasAttribute('aria-controls')).toBe(false);
  });

  it('the focused item is the one Tab stop (roving tabindex); the arrows reach the page, Escape does not', async () => {
    const heard = hearing();
    render(<ButtonMenu />);
    const keys = userEvent.setup();
    act(() => screen.getByRole('button', { name: 'Menu' }).focus());
    await keys.keyboard('{ArrowDown}{ArrowDown}');
    expect(screen.getAllByRole('menuitem').map((i) => i.tabIndex)).toEqual([-1, 0, -1]);
    heard.length = 0;
    await keys.keyboard('{ArrowDown}{Escape}');
    expect(heard).toEqual(['ArrowDown']);
  });
});

describe('useMenuKeys as a card (the player menus)', () => {
  it('focus goes where initialFocus says once it exists; the card holds it meanwhile', () => {
    const options: MenuKeysOptions = {
      walk: WALK,
      contain: true,
      initialFocus: (card) => card.querySelector<HTMLElement>('[aria-checked="true"]') ?? card,
    };
    const { rerender } = render(<Card options={options}>{null}</Card>);
    expect(focused()).toBe(screen.getByTestId('card'));
    rerender(
      <Card options={options}>
        <button type="button" role="menuitemradio" aria-checked="false" tabIndex={-1}>
          One
        </button>
        <button type="button" role="menuitemradio" aria-checked="true" tabIndex={-1}>
          Two
        </button>
      </Card>,
    );
    expect(focused()).toBe(screen.getByRole('menuitemradio', { name: 'Two' }));
    // Landed: a later render leaves focus where the viewer puts it.
    act(() => screen.getByRole('menuitemradio', { name: 'One' }).focus());
    rerender(
      <Card options={options}>
        <button type="button" role="menuitemradio" aria-checked="false" tabIndex={-1}>
          One
        </button>
        <button type="button" role="menuitemradio" aria-checked="true" tabIndex={-1}>
          Two
        </button>
      </Card>,
    );
    expect(focused()).toBe(screen.getByRole('menuitemradio', { name: 'One' }));
  });

  it('a text field keeps Home, End and the sideways arrows; ArrowDown still leaves it; no key reaches the page', () => {
    const parent = vi.fn();
    const heard = hearing();
    render(
      <div>
        <Card options={{ walk: WALK, contain: true, parent }}>
          <input aria-label="Search" />
          <button type="button" role="menuitem" tabIndex={-1}>
            One
          </button>
        </Card>
      </div>,
    );
    const search = screen.getByRole('textbox', { name: 'Search' });
    act(() => search.focus());
    for (const key of ['Home', 'End', 'ArrowLeft']) {
      expect(fireEvent.keyDown(search, { key })).toBe(true);
      expect(focused()).toBe(search);
    }
    expect(parent).not.toHaveBeenCalled();
    fireEvent.keyDown(search, { key: 'ArrowDown' });
    expect(focused()).toBe(screen.getByRole('menuitem', { name: 'One' }));
    expect(heard).toEqual(['Home', 'End', 'ArrowLeft']);
  });

  it('the forward arrow presses a row that opens a sub-menu; the back arrow and Escape go to the parent', () => {
    const opened = vi.fn();
    const parent = vi.fn();
    render(
      <Card options={{ walk: WALK, contain: true, parent }}>
        <button type="button" role="menuitem" tabIndex={-1} data-opens="quality" onClick={opened}>
          Quality
        </button>
        <button type="button" role="menuitem" tabIndex={-1}>
          Plain
        </button>
      </Card>,
    );
    const row = screen.getByRole('menuitem', { name: 'Quality' });
    act(() => row.focus());
    fireEvent.keyDown(row, { key: 'ArrowRight' });
    expect(opened).toHaveBeenCalledTimes(1);
    const plain = screen.getByRole('menuitem', { name: 'Plain' });
    act(() => plain.focus());
    fireEvent.keyDown(plain, { key: 'ArrowRight' });
    expect(opened).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(plain, { key: 'ArrowLeft' });
    fireEvent.keyDown(plain, { key: 'Escape' });
    expect(parent).toHaveBeenCalledTimes(2);
  });

  it('right to left the sideways arrows swap', () => {
    vi.spyOn(i18next, 'dir').mockReturnValue('rtl');
    const opened = vi.fn();
    const parent = vi.fn();
    render(
      <Card options={{ walk: WALK, contain: true, parent }}>
        <button type="button" role="menuitem" tabIndex={-1} data-opens="speed" onClick={opened}>
          Speed
        </button>
      </Card>,
    );
    const row = screen.getByRole('menuitem', { name: 'Speed' });
    act(() => row.focus());
    fireEvent.keyDown(row, { key: 'ArrowLeft' });
    expect(opened).toHaveBeenCalledTimes(1);
    expect(parent).not.toHaveBeenCalled();
    fireEvent.keyDown(row, { key: 'ArrowRight' });
    expect(parent).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();
  });

  it('a top-level card leaves Escape and Tab to the page', () => {
    const heard = hearing();
    render(
      <div>
        <Card options={{ walk: WALK, contain: true }}>
          <button type="button" role="menuitem" tabIndex={-1}>
            One
          </button>
        </Card>
      </div>,
    );
    const one = screen.getByRole('menuitem', { name: 'One' });
    act(() => one.focus());
    expect(fireEvent.keyDown(one, { key: 'Escape' })).toBe(true);
    fireEvent.keyDown(one, { key: 'Tab' });
    expect(heard).toEqual(['Escape', 'Tab']);
  });
});
