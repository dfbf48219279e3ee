import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { AccountMenu } from './account-menu.tsx';

const user = testCustomer();

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ variant: 'subscription', paymentGateway: true } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount(user));
});

function renderMenu() {
  render(
    <I18nextProvider i18n={i18next}>
      <MemoryRouter>
        <AccountMenu />
        <a href="/next">After the menu</a>
      </MemoryRouter>
    </I18nextProvider>,
  );
  const trigger = screen.getByTestId('account-menu-button');
  trigger.focus();
  return { keys: userEvent.setup(), trigger };
}

const items = () => screen.getAllByRole('menuitem');
const focused = () => document.activeElement;

describe('AccountMenu keyboard (menu button pattern)', () => {
  it('is a menu button: aria-haspopup, aria-expanded, and a menu named by its trigger', async () => {
    const { keys, trigger } = renderMenu();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    await keys.keyboard('{Enter}');
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    const menu = screen.getByRole('menu', { name: trigger.getAttribute('aria-label')! });
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
  });

  it.each([['{Enter}'], [' '], ['{ArrowDown}']])('%s opens the menu on its first item', async (key) => {
    const { keys } = renderMenu();
    await keys.keyboard(key);
    expect(focused()).toBe(items()[0]);
  });

  it('ArrowUp opens the menu on its last item', async () => {
    const { keys } = renderMenu();
    await keys.keyboard('{ArrowUp}');
    expect(focused()).toBe(items().at(-1));
  });

  it('arrows move between items and wrap; Home and End go to the ends', async () => {
    const { keys } = renderMenu();
    await keys.keyboard('{ArrowDown}');
    const all = items();
    expect(all.length).toBeGreaterThan(2);
    await keys.keyboard('{ArrowDown}');
    expect(focused()).toBe(all[1]);
    await keys.keyboard('{ArrowUp}{ArrowUp}');
    expect(focused()).toBe(all.at(-1));
    await keys.keyboard('{ArrowDown}');
    expect(focused()).toBe(all[0]);
    await keys.keyboard('{End}');
    expect(focused()).toBe(all.at(-1));
    await keys.keyboard('{Home}');
    expect(focused()).toBe(all[0]);
  });

  it('Esc closes the menu and gives focus back to the trigger', async () => {
    const { keys, trigger } = renderMenu();
    await keys.keyboard('{ArrowDown}{ArrowDown}');
    await keys.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focused()).toBe(trigger);
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
  });

  it('Tab closes the menu and moves on past the trigger, not through the items', async () => {
    const { keys } = renderMenu();
    await keys.keyboard('{ArrowDown}');
    await keys.tab();
    expect(screen.queryByRole('menu')).toBeNull();
    expect(focused()).toBe(screen.getByRole('link', { name: 'After the menu' }));
  });
});
