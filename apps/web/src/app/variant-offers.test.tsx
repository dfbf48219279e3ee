import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, MemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { AccountMenu } from '../features/account/account-menu.tsx';
import { ProblemView } from '../features/player/ui/status-views.tsx';
import { initI18n, NAMESPACES } from '../lib/i18n.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../lib/storage.ts';
import { initStores, useAccountStore } from '../stores/index.ts';
import { testAccount } from '../test/account-fixtures.ts';
import { contractServer } from '../test/contract-server.ts';
import { routes } from './router.tsx';

/*
 * Issue 15: the variant decides what is offered. A discovery instance has no payment gateway
 * (runtime config `paymentGateway: false`): no membership offer anywhere, and no /subscription page.
 */

const configOf = (variant: RuntimeConfig['variant']): RuntimeConfig => ({
  appVersion: '1.0.0',
  instanceName: 'Marquee',
  variant,
  authMethods: variant === 'subscription' ? ['email'] : ['passphrase'],
  dmcaEmail: null,
  captcha: { provider: 'none', siteKey: null },
  paymentGateway: variant === 'subscription',
  simulatedPayments: variant === 'subscription',
  downtime: null,
  links: { chromeExtension: null, firefoxExtension: null, proxyInstall: null, docs: null },
  allowAutoplay: true,
  hasOnboarding: false,
  freeMovieOfTheMonth: null,
  metadataSource: 'catalog',
});

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testAccount());
  const server = contractServer({
    membership: {
      plans: () => ({
        plans: [{ id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 }],
      }),
      cryptoList: () => ({ crypto_list: [{ name: 'BTC', display_name: 'Bitcoin' }] }),
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

const wrap = (ui: React.ReactNode) => (
  <I18nextProvider i18n={i18next}>
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      {ui}
    </QueryClientProvider>
  </I18nextProvider>
);

function openAccountMenu() {
  render(wrap(<MemoryRouter>{<AccountMenu />}</MemoryRouter>));
  fireEvent.click(screen.getByTestId('account-menu-button'));
}

function visit(path: string) {
  render(wrap(<RouterProvider router={createMemoryRouter(routes(), { initialEntries: [path] })} />));
}

describe('an instance without a payment gateway (discovery)', () => {
  beforeEach(() => setRuntimeConfig(configOf('discovery')));

  it('offers no membership in the profile menu', () => {
    openAccountMenu();
    expect(screen.getByRole('menuitem', { name: 'Profile' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Start a membership' })).toBeNull();
  });

  it('has no /subscription page: a signed-in visitor gets the not-found page, never a checkout', async () => {
    visit('/subscription');
    expect(await screen.findByRole('heading', { level: 1, name: /couldn.t find that page/i })).toBeTruthy();
    expect(screen.queryByText('$30')).toBeNull();
  });

  it('never points to a membership from a playback gate', () => {
    render(
      wrap(
        <MemoryRouter>{<ProblemView problem={{ kind: 'membership' }} onRetry={() => {}} />}</MemoryRouter>,
      ),
    );
    expect(screen.queryByRole('link', { name: 'Start a membership' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });
});

describe('an instance with a payment gateway (subscription)', () => {
  beforeEach(() => setRuntimeConfig(configOf('subscription')));

  it('offers a membership in the profile menu', () => {
    openAccountMenu();
    expect(screen.getByRole('menuitem', { name: 'Start a membership' }).getAttribute('href')).toBe(
      '/subscription',
    );
  });

  it('sells memberships at /subscription', async () => {
    visit('/subscription');
    expect(await screen.findByText('$30')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: /couldn.t find that page/i })).toBeNull();
  });

  it('makes "Start a membership" the primary way through the membership gate, "Go home" secondary', () => {
    render(
      wrap(
        <MemoryRouter>{<ProblemView problem={{ kind: 'membership' }} onRetry={() => {}} />}</MemoryRouter>,
      ),
    );
    const links = screen.getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Start a membership', 'Go home']);
    expect(links[0]!.getAttribute('href')).toBe('/subscription');
    expect(links[0]!.className).toMatch(/bg-accent/);
    expect(links[1]!.className).not.toMatch(/bg-accent/);
  });

  it('makes "Sign in" the primary way through the sign-in gate, "Go home" secondary', () => {
    render(
      wrap(<MemoryRouter>{<ProblemView problem={{ kind: 'login' }} onRetry={() => {}} />}</MemoryRouter>),
    );
    const links = screen.getAllByRole('link');
    expect(links.map((l) => l.textContent)).toEqual(['Sign in', 'Go home']);
    expect(links[0]!.getAttribute('href')).toBe('/login');
    expect(links[0]!.className).toMatch(/bg-accent/);
    expect(links[1]!.className).not.toMatch(/bg-accent/);
  });
});
