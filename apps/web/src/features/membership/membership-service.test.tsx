import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment, Plan, RuntimeConfig } from '@marquee/contract';
import { ApiError } from '../../lib/api/index.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { testCustomer, testEmailAccount } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import type { MembershipService } from './membership-service.ts';
import { SubscriptionPage } from './subscription-page.tsx';

// The page is handed a fake membership service (membership-service.ts): the promo check and the payment
// request answer from the test; the plans, payment options and the payment's status come from the
// contract's test server.

const user = testCustomer();
const plans: Plan[] = [{ id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 }];
const payment: Payment = {
  id: 'p1',
  planId: 1,
  duration: 12,
  crypto: 'BTC',
  cryptoDisplayName: 'Bitcoin',
  cryptoAmount: '0.0005',
  wallet: 'bc1qwallet',
  amount: '30.00',
  currency: 'USD',
  discountRate: 0,
  promoCode: null,
  status: 'pending',
  gateway: 'simulated',
  createdAt: '2026-01-01T00:00:00Z',
  paidAt: null,
};

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({
    variant: 'subscription',
    simulatedPayments: true,
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount(user));
  const server = contractServer({
    membership: {
      plans: () => ({ plans }),
      cryptoList: () => ({ crypto_list: [{ name: 'BTC', display_name: 'Bitcoin' }] }),
      payment: () => ({
        payment,
        membership: { active: false, endSubcriptionDate: null, pendingPayment: payment },
      }),
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

/** A service whose calls fail unless a test gives them an answer. */
function fakeService(o: Partial<MembershipService> = {}): MembershipService {
  const offline = () => Promise.reject(new ApiError(0, 'network_error', 'offline'));
  return {
    checkPromo: vi.fn(offline),
    startPayment: vi.fn(offline),
    storeUser: vi.fn(),
    ...o,
  };
}

function renderPage(service: MembershipService) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [{ path: '/subscription', element: <SubscriptionPage service={service} /> }],
    { initialEntries: ['/subscription'] },
  );
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
}
const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));
async function enterCode(code: string) {
  await screen.findByText('$30');
  fireEvent.click(screen.getByLabelText('I have promo code'));
  fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: code } });
}

describe('the membership page over its service', () => {
  it('checks the code as typed, normalised, and shows the discount it answers', async () => {
    const service = fakeService({
      checkPromo: vi.fn(() =>
        Promise.resolve({
          code: { code: 'ABCD2345', isUsed: false, rate: 25 },
          message: 'ok',
          error: false,
          errorCode: null,
        }),
      ),
    });
    renderPage(service);
    await enterCode(' abcd2345 ');
    await click('Apply');

    expect(service.checkPromo).toHaveBeenCalledWith('ABCD2345');
    const message = await screen.findByTestId('promo-message');
    expect(message.textContent).toBe(i18next.t('membership.promo.applied', { rate: 25 }));
    expect(message.getAttribute('role')).toBe('status');
    expect(screen.getByTestId('payment-total').textContent).toContain('$22.50');
  });

  it('a promo check that fails says why in the UI language, under the field', async () => {
    const service = fakeService();
    renderPage(service);
    await enterCode('ABCD2345');
    await click('Apply');

    const message = await screen.findByTestId('promo-message');
    expect(message.textContent).toBe(i18next.t('errors.api.network_error'));
    expect(message.getAttribute('role')).toBe('alert');
    expect(screen.getByLabelText('Promo code').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('payment-total').textContent).not.toContain('$22.50');
  });

  it('starts the payment with the choice, keeps the user it answers and shows the payment step', async () => {
    const startPayment = vi.fn(() =>
      Promise.resolve({
        wallet: 'bc1qwallet',
        paymentUrl: 'data:image/png;base64,AAAA',
        user,
        error: false as const,
        errorType: null,
        message: 'ok',
        payment,
      }),
    );
    const service = fakeService({ startPayment });
    renderPage(service);
    await screen.findByRole('option', { name: 'Bitcoin' });
    fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
    await click('Start payment');

    await screen.findByTestId('payment-panel');
    expect(startPayment).toHaveBeenCalledWith({ planId: 1, criptoName: 'BTC', code: null });
    expect(service.storeUser).toHaveBeenCalledWith(user);
  });

  it('a payment request that fails says why, with Try again that asks the service again', async () => {
    const service = fakeService();
    renderPage(service);
    await screen.findByRole('option', { name: 'Bitcoin' });
    fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
    await click('Start payment');

    const alert = await screen.findByTestId('payment-error');
    expect(alert.textContent).toContain(i18next.t('errors.api.network_error'));
    await click(i18next.t('membership.retry'));
    expect(service.startPayment).toHaveBeenCalledTimes(2);
  });
});
