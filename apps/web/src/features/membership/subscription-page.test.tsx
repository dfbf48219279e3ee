import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { SubscriptionPage } from './subscription-page.tsx';

const config = {
  variant: 'subscription',
  simulatedPayments: true,
  captcha: { provider: 'none', siteKey: null },
} as unknown as RuntimeConfig;
const user = testCustomer();
const payment: Payment = {
  id: 'p1',
  planId: 1,
  duration: 12,
  crypto: 'BTC',
  cryptoDisplayName: 'Bitcoin',
  cryptoAmount: '0.0005',
  wallet: 'bc1qwallet',
  amount: '22.50',
  currency: 'USD',
  discountRate: 25,
  promoCode: 'ABCD2345',
  status: 'pending',
  gateway: 'simulated',
  createdAt: '2026-01-01T00:00:00Z',
  paidAt: null,
};

let i18next: i18n;
let posted: unknown[];
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig(config);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount(user));
  posted = [];
  const server = contractServer({
    membership: {
      plans: () => ({
        plans: [{ id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 }],
      }),
      cryptoList: () => ({ crypto_list: [{ name: 'BTC', display_name: 'Bitcoin' }] }),
      checkPromo: ({ params }) =>
        params.code === 'ABCD2345'
          ? {
              code: { code: 'ABCD2345', isUsed: false, rate: 25 },
              message: 'ok',
              error: false,
              errorCode: null,
            }
          : refuse(404, { code: 'promo_not_found' }),
      subscribe: ({ body }) => {
        posted.push(body);
        return {
          wallet: 'bc1qwallet',
          paymentUrl: 'data:image/png;base64,AAAA',
          user,
          error: false,
          errorType: null,
          message: 'Older links are no longer valid.',
          payment,
        };
      },
      payment: () => ({
        payment,
        membership: { active: false, endSubcriptionDate: null, pendingPayment: payment },
      }),
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <SubscriptionPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('the membership purchase screen', () => {
  it('asks for the promo code to be applied and a crypto chosen before it sends anything', async () => {
    renderPage();
    await screen.findByText('$30');
    fireEvent.click(screen.getByLabelText('I have promo code'));
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'abcd2345' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start payment' })));
    expect(screen.getByTestId('payment-error').textContent).toBe('You should apply promo code before');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Apply' })));
    await screen.findByText('25% off applied');
    expect(screen.getByTestId('payment-total').textContent).toContain('$22.50');
    // Applying the code answers the "apply it first" message: it does not stay on screen.
    expect(screen.queryByTestId('payment-error')).toBeNull();
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start payment' })));
    expect(screen.getByTestId('payment-error').textContent).toBe(
      'You have to select the cripto before starting payment process.',
    );
    expect(posted).toEqual([]);

    await screen.findByRole('option', { name: 'Bitcoin' });
    fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Start payment' })));
    await waitFor(() => expect(screen.getByTestId('payment-panel')).toBeTruthy());
    expect(posted).toEqual([{ planId: 1, criptoName: 'BTC', code: 'ABCD2345' }]);
    // Our words for it, never the server's message.
    expect(screen.getByTestId('payment-warning').textContent).toBe(
      'Payment links you generated earlier and have not paid are no longer valid: pay only with this one.',
    );
    expect(screen.getByTestId('payment-wallet').textContent).toBe('bc1qwallet');
    expect(screen.getByRole('button', { name: 'Simulate payment' })).toBeTruthy();
  });
});
