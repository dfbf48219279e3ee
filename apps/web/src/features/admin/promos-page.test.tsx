import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Promo, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { PromosPage } from './promos-page.tsx';

const promo = (code: string, rate: number): Promo => ({
  code,
  rate,
  isUsed: false,
  isReserved: false,
  createdAt: '2026-01-01T00:00:00Z',
  usedAt: null,
});

let i18next: i18n;
let codes: Promo[];
/** The next N answers of each endpoint refuse. */
let failures: { list: number; create: number };
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ variant: 'subscription' } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount({ ...testCustomer(), isAdmin: true }));
  codes = [];
  failures = { list: 0, create: 0 };
  const server = contractServer({
    membership: {
      promos: () => (failures.list-- > 0 ? refuse(503, { code: 'internal_error' }) : { codes }),
      createPromo: ({ body }) => {
        if (failures.create-- > 0) return refuse(503, { code: 'internal_error' });
        const created = promo(`CODE${codes.length}AAA`, (body as { rate?: number }).rate ?? 10);
        codes = [created, ...codes];
        return { codes, created };
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <PromosPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

const rate = () => screen.getByLabelText('Discount rate (%)');
const create = (value: string) =>
  act(async () => {
    fireEvent.change(rate(), { target: { value } });
    fireEvent.click(screen.getByRole('button', { name: 'Create promo code' }));
  });

describe('the promo codes page', () => {
  it('says what is wrong with the rate under the field, linked to it, and drops it on change', async () => {
    renderPage();
    await screen.findByText('No promo codes yet.');
    expect(rate().getAttribute('aria-describedby')).toBe('promo-rate-hint');
    await create('150');
    expect(screen.getByTestId('promo-rate-error').textContent).toBe(
      'The rate must be a whole number from 1 to 100',
    );
    expect(rate().getAttribute('aria-invalid')).toBe('true');
    expect(rate().getAttribute('aria-describedby')).toBe('promo-rate-hint promo-rate-error');
    expect(document.activeElement).toBe(rate());
    fireEvent.change(rate(), { target: { value: '15' } });
    expect(screen.queryByTestId('promo-rate-error')).toBeNull();
    expect(rate().getAttribute('aria-invalid')).toBeNull();
  });

  it('a failed attempt replaces the last success, and a success replaces the last failure', async () => {
    renderPage();
    await screen.findByText('No promo codes yet.');
    await create('30');
    expect((await screen.findByTestId('promo-created')).textContent).toBe('New code CODE0AAA: 30% off');

    await create('150');
    expect(screen.getByTestId('promo-rate-error')).toBeTruthy();
    expect(screen.queryByTestId('promo-created')).toBeNull();

    failures.create = 1;
    await create('20');
    expect((await screen.findByTestId('promo-create-error')).textContent).toBe(
      i18next.t('errors.api.internal_error'),
    );
    expect(screen.queryByTestId('promo-rate-error')).toBeNull();
    // Try again sends the same rate.
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect((await screen.findByTestId('promo-created')).textContent).toBe('New code CODE1AAA: 20% off');
    expect(screen.queryByTestId('promo-create-error')).toBeNull();
  });

  it('a list that failed to load comes with Try again', async () => {
    // The page asks twice (one retry, a second later) before it shows the failure.
    failures.list = 2;
    vi.useFakeTimers({ shouldAdvanceTime: true });
    renderPage();
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect((await screen.findByTestId('promos-load-error')).textContent).toBe(
      'The promo codes could not be loaded.',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    await screen.findByText('No promo codes yet.');
  });
});
