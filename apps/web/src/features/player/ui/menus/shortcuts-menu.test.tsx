import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { PLAYER_SHORTCUT_ACTIONS } from '@marquee/contract/values';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../../../lib/i18n.ts';
import { memoryStorage, setAppStorage } from '../../../../lib/storage.ts';
import player from '../../../../locales/en/player.json';
import { testAccount } from '../../../../test/account-fixtures.ts';
import {
  initStores,
  useAccountStore,
  useLibraryStore,
  usePreferencesStore,
} from '../../../../stores/index.ts';
import { movie } from '../../session/test-meta.ts';
import { OverlayHost } from './overlay-host.tsx';

vi.mock('../../../../lib/instance-providers.ts', () => ({ instanceProviders: async () => [] }));

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testAccount());
});

function renderPanel() {
  const close = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <I18nextProvider i18n={i18next}>
        <MemoryRouter>
          <OverlayHost route="/shortcuts" open={vi.fn()} close={close} back={vi.fn()} meta={movie} />
        </MemoryRouter>
      </I18nextProvider>
    </QueryClientProvider>,
  );
  return { close };
}

const labels = player.shortcuts;
const status = () => screen.getByTestId('shortcuts-status').textContent;
const keysOf = (action: string) => screen.getByTestId(`shortcut-keys-${action}`).textContent;
const stored = () => usePreferencesStore.getState().playerShortcuts;
/** The last settings change queued for the account (consecutive changes are one op). */
const queued = () =>
  useLibraryStore
    .getState()
    .outbox.filter((op) => op.kind === 'settings')
    .at(-1);
/** A key pressed where focus is (the Change button just pressed). */
const press = (init: KeyboardEventInit) => fireEvent.keyDown(document.activeElement ?? window, init);
const change = (action: string) => {
  const button = screen.getByTestId(`change-${action}`);
  act(() => button.focus());
  fireEvent.click(button);
};

describe('the shortcuts panel', () => {
  it('lists every action with its keys as text and a Change button named by the action', () => {
    renderPanel();
    const panel = screen.getByRole('dialog', { name: labels.title });
    for (const action of PLAYER_SHORTCUT_ACTIONS) {
      const row = within(panel).getByTestId(`shortcut-${action}`);
      expect(row.textContent).toContain(labels[action]);
      expect(within(row).getByRole('button', { name: `Change the key for ${labels[action]}` })).toBeTruthy();
    }
    expect(keysOf('playPause')).toBe('SpaceK');
    expect(keysOf('seekBack5')).toBe('←');
    expect(keysOf('slower')).toBe('<');
    // Nothing changed: no Reset anywhere.
    expect(screen.queryByRole('button', { name: /^Reset/ })).toBeNull();
    expect(panel.textContent).toContain(labels.close);
  });

  it('Change waits for a key and binds it in place of the action’s keys; the action that had it is named', () => {
    renderPanel();
    change('mute');
    expect(status()).toBe('Press a key for Mute or unmute… Esc cancels.');
    const pressed = press({ key: 'K', code: 'KeyK' });
    expect(pressed).toBe(false);
    expect(status()).toBe('K now does “Mute or unmute” instead of “Play or pause”.');
    expect(keysOf('mute')).toBe('K');
    expect(keysOf('playPause')).toBe('Space');
    expect(stored()).toEqual({ mute: ['k'], playPause: [' '] });
    expect(queued()).toMatchObject({ settings: { playerShortcuts: { mute: ['k'], playPause: [' '] } } });
    // Both are changed now: each has a Reset, named by its action.
    expect(screen.getByRole('button', { name: `Reset ${labels.mute} to its default keys` })).toBeTruthy();
    expect(
      screen.getByRole('button', { name: `Reset ${labels.playPause} to its default keys` }),
    ).toBeTruthy();
    // The wait is over: the next key changes nothing.
    press({ key: 'z' });
    expect(stored()).toEqual({ mute: ['k'], playPause: [' '] });
  });

  it('a key no action had: the status says what the action has now', () => {
    renderPanel();
    change('fullscreen');
    press({ key: 'g' });
    expect(status()).toBe('Key for “Fullscreen”: G.');
    expect(stored()).toEqual({ fullscreen: ['g'] });
  });

  it('Escape cancels and leaves the panel open; a modifier alone waits on; Enter and chords say why', () => {
    const { close } = renderPanel();
    change('roll');
    const pressing = status();
    press({ key: 'Shift', shiftKey: true });
    expect(status()).toBe(pressing);
    press({ key: 'Enter' });
    const row = screen.getByTestId('shortcut-roll');
    expect(row.textContent).toContain('Enter can’t be a shortcut: the menus need it. Press another key.');
    expect(screen.getByTestId('change-roll').getAttribute('aria-describedby')).toBeTruthy();
    // A chord stays the browser's (not prevented), and is refused.
    expect(press({ key: 'r', ctrlKey: true })).toBe(true);
    expect(row.textContent).toContain(labels.withModifier);
    // Still waiting: a plain key binds.
    press({ key: '?', shiftKey: true });
    expect(stored()).toEqual({ roll: ['?'], help: [] });
    expect(status()).toBe('? now does “Do a barrel roll” instead of “Show these shortcuts”.');
    change('captions');
    press({ key: 'Escape' });
    expect(status()).toBe(labels.cancelled);
    expect(close).not.toHaveBeenCalled();
    expect(screen.getByTestId('shortcuts-list')).toBeTruthy();
    expect(stored()).toEqual({ roll: ['?'], help: [] });
  });

  it('Tab ends the wait and moves on (no keyboard trap), saying why', () => {
    renderPanel();
    change('captions');
    expect(press({ key: 'Tab' })).toBe(true);
    expect(screen.getByTestId('shortcut-captions').textContent).toContain(labels.tab);
    press({ key: 'x' });
    expect(stored()).toEqual({});
  });

  it('Reset gives an action its keys back (from whichever had them); Reset all stores nothing', () => {
    renderPanel();
    change('mute');
    press({ key: 'k' });
    fireEvent.click(screen.getByTestId('reset-playPause'));
    expect(status()).toBe('K now does “Play or pause” instead of “Mute or unmute”.');
    expect(keysOf('playPause')).toBe('SpaceK');
    expect(keysOf('mute')).toBe(labels.noKey);
    expect(stored()).toEqual({ mute: [] });
    // Its Reset is gone: focus moved to its Change.
    expect(screen.queryByTestId('reset-playPause')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('change-playPause'));
    fireEvent.click(screen.getByTestId('reset-all-shortcuts'));
    expect(status()).toBe(labels.resetAllDone);
    expect(stored()).toEqual({});
    expect(keysOf('mute')).toBe('M');
    expect(queued()).toMatchObject({ settings: { playerShortcuts: null } });
    expect(screen.queryByTestId('reset-all-shortcuts')).toBeNull();
    expect(document.activeElement).toBe(screen.getByTestId('change-playPause'));
  });

  it('works by keyboard: the arrows walk the buttons, Enter chooses, the next key is bound', async () => {
    const keys = userEvent.setup();
    renderPanel();
    act(() => screen.getByTestId('change-playPause').focus());
    await keys.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByTestId('change-seekBack5'));
    await keys.keyboard('{Enter}');
    expect(status()).toBe('Press a key for Back 5 seconds… Esc cancels.');
    await keys.keyboard('b');
    expect(keysOf('seekBack5')).toBe('B');
    expect(document.activeElement).toBe(screen.getByTestId('change-seekBack5'));
    await keys.keyboard('{ArrowDown}');
    expect(document.activeElement).toBe(screen.getByTestId('reset-seekBack5'));
    await keys.keyboard(' ');
    expect(keysOf('seekBack5')).toBe('←');
  });
});
