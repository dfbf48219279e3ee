import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Payment, Plan, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore } from '../../stores/index.ts';
import { contractServer, refuse, type Handlers } from '../../test/contract-server.ts';
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

const plans: Plan[] = [
  { id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 },
  { id: 2, duration: 1, cost: 2.99, pref: 'month', currency: 'USD', monthlyCost: 2.99 },
];
const paid: Payment = { ...payment, status: 'paid', paidAt: '2026-01-01T00:05:00Z' };

let i18next: i18n;
let posted: unknown[];
/** Answers each test can turn into failures (the next N calls refuse). */
let failures: { plans: number; subscribe: number; payment: number };
let paymentNow: Payment;
const membershipHandlers = (): NonNullable<Handlers['membership']> => ({
  plans: () => (failures.plans-- > 0 ? refuse(503, { code: 'internal_error' }) : { plans }),
  cryptoList: () => ({ crypto_list: [{ name: 'BTC', display_name: 'Bitcoin' }] }),
  checkPromo: ({ params }) =>
    params.code === 'ABCD2345'
      ? { code: { code: 'ABCD2345', isUsed: false, rate: 25 }, message: 'ok', error: false, errorCode: null }
      : refuse(404, { code: 'promo_not_found' }),
  subscribe: ({ body }) => {
    if (failures.subscribe-- > 0) return refuse(502, { code: 'payment_gateway_unavailable' });
    // As the server: one discount per account, and an unpaid request keeps the code.
    const code = (body as { code: string | null }).code;
    if (code && posted.some((b) => (b as { code: string | null }).code === code))
      return refuse(409, { code: 'promo_already_used' });
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
  payment: () =>
    failures.payment-- > 0
      ? refuse(503, { code: 'internal_error' })
      : {
          payment: paymentNow,
          membership: {
            active: paymentNow.status === 'paid',
            endSubcriptionDate: paymentNow.status === 'paid' ? '2027-01-01T00:05:00Z' : null,
            pendingPayment: paymentNow.status === 'paid' ? null : paymentNow,
          },
        },
  simulatePaid: () => {
    paymentNow = paid;
    return {
      payment: paid,
      membership: { active: true, endSubcriptionDate: '2027-01-01T00:05:00Z', pendingPayment: null },
    };
  },
});
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig(config);
  setAppStorage(memoryStorage());
  initStores();
  useAccountStore.getState().setAccount(testEmailAccount(user));
  posted = [];
  failures = { plans: 0, subscribe: 0, payment: 0 };
  paymentNow = payment;
  const server = contractServer({
    membership: membershipHandlers(),
    // After paying, the account's user has the membership.
    customer: {
      me: () => ({
        user: { ...user, endSubcriptionDate: '2099-01-01T00:00:00Z', hasMembership: true },
        access_token: 't',
      }),
    },
  });
  vi.stubGlobal('fetch', server.fetch);
});
afterEach(() => vi.unstubAllGlobals());

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '/subscription', element: <SubscriptionPage /> }], {
    initialEntries: ['/subscription'],
  });
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}

const click = (name: string) => act(async () => fireEvent.click(screen.getByRole('button', { name })));

/** Plan 2 and Bitcoin chosen, payment started: the payment step is on screen. */
async function startWithSecondPlan() {
  await screen.findByText('$2.99');
  fireEvent.click(screen.getByText('$2.99'));
  await screen.findByRole('option', { name: 'Bitcoin' });
  fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
  await click('Start payment');
  await screen.findByTestId('payment-panel');
}

describe('the membership purchase screen', () => {
  it('shows every problem at once under its own field, and clears each as it is answered', async () => {
    renderPage();
    await screen.findByText('$30');
    fireEvent.click(screen.getByLabelText('I have promo code'));
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'abcd2345' } });
    await click('Start payment');
    const promo = screen.getByLabelText('Promo code');
    expect(screen.getByTestId('promo-code-error').textContent).toBe('You should apply promo code before');
    expect(promo.getAttribute('aria-invalid')).toBe('true');
    expect(promo.getAttribute('aria-describedby')).toContain('promo-code-error');
    expect(screen.getByTestId('crypto-error').textContent).toBe(
      'You have to select the cripto before starting payment process.',
    );
    expect(screen.getByTestId('crypto-select').getAttribute('aria-describedby')).toBe('crypto-error');

    await click('Apply');
    await screen.findByText('25% off applied');
    expect(screen.getByTestId('payment-total').textContent).toContain('$22.50');
    // Applying the code answers the "apply it first" message: it does not stay on screen.
    expect(screen.queryByTestId('promo-code-error')).toBeNull();
    expect(promo.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByTestId('crypto-error')).toBeTruthy();
    await click('Start payment');
    expect(screen.queryByTestId('promo-code-error')).toBeNull();
    expect(posted).toEqual([]);

    await screen.findByRole('option', { name: 'Bitcoin' });
    await act(async () =>
      fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } }),
    );
    expect(screen.queryByTestId('crypto-error')).toBeNull();
    await click('Start payment');
    await waitFor(() => expect(screen.getByTestId('payment-panel')).toBeTruthy());
    expect(posted).toEqual([{ planId: 1, criptoName: 'BTC', code: 'ABCD2345' }]);
    // Our words for it, never the server's message.
    expect(screen.getByTestId('payment-warning').textContent).toBe(
      'Payment links you generated earlier and have not paid are no longer valid: pay only with this one.',
    );
    expect(screen.getByTestId('payment-wallet').textContent).toBe('bc1qwallet');
    expect(screen.getByRole('button', { name: 'Simulate payment' })).toBeTruthy();
  });

  it('drops messages that no longer hold when the field changes', async () => {
    renderPage();
    await screen.findByText('$30');
    fireEvent.click(screen.getByLabelText('I have promo code'));
    await click('Start payment');
    expect(screen.getByTestId('promo-code-error')).toBeTruthy();
    // Unticking the box answers "apply the code first": nothing says it any more.
    await act(async () => fireEvent.click(screen.getByLabelText('I have promo code')));
    expect(screen.queryByText('You should apply promo code before')).toBeNull();

    await act(async () => fireEvent.click(screen.getByLabelText('I have promo code')));
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'WRONG123' } });
    await click('Apply');
    expect((await screen.findByTestId('promo-message')).textContent).toBe('promo code not found');
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'WRONG1234' } });
    expect(screen.queryByTestId('promo-message')).toBeNull();
    expect(screen.getByLabelText('Promo code').getAttribute('aria-describedby')).not.toContain(
      'promo-message',
    );
  });

  it('has a way back from the payment step that keeps the choice, and moves focus with the steps', async () => {
    const router = renderPage();
    await startWithSecondPlan();
    expect(router.state.location.search).toBe('?step=pay');
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Scan to pay' }));

    await click('Back');
    await screen.findAllByTestId('plan-option');
    expect(router.state.location.search).toBe('');
    expect(document.activeElement).toBe(
      screen.getByRole('heading', { level: 1, name: 'Start a membership' }),
    );
    expect(screen.getByRole('radio', { name: /\$2\.99/ })).toHaveProperty('checked', true);
    expect(screen.getByTestId('crypto-select')).toHaveProperty('value', 'BTC');
    expect(screen.getByTestId('payment-total').textContent).toBe('Total: $2.99');

    // The browser's Forward and Back walk the same two steps.
    await act(() => router.navigate(1));
    expect(screen.getByTestId('payment-panel')).toBeTruthy();
    await act(() => router.navigate(-1));
    expect(screen.getByRole('radio', { name: /\$2\.99/ })).toHaveProperty('checked', true);
  });

  it('a code the server refuses on a second request says so under its field', async () => {
    renderPage();
    await screen.findByText('$30');
    fireEvent.click(screen.getByLabelText('I have promo code'));
    fireEvent.change(screen.getByLabelText('Promo code'), { target: { value: 'ABCD2345' } });
    await click('Apply');
    await screen.findByText('25% off applied');
    await screen.findByRole('option', { name: 'Bitcoin' });
    fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
    await click('Start payment');
    await click('Back');
    await click('Start payment');
    expect((await screen.findByTestId('promo-message')).textContent).toBe(
      i18next.t('errors.api.promo_already_used'),
    );
    expect(screen.queryByTestId('payment-error')).toBeNull();
    expect(screen.getByTestId('payment-total').textContent).toBe('Total: $30');
  });

  it('after paying, the heading and the live region say so, and focus goes to it', async () => {
    const router = renderPage();
    await startWithSecondPlan();
    expect(screen.getByTestId('payment-status').textContent).toBe('Waiting for your payment…');
    expect(screen.getByTestId('payment-status').getAttribute('role')).toBe('status');
    await click('Simulate payment');
    const heading = await screen.findByRole('heading', { level: 1, name: 'Payment received, thank you!' });
    expect(screen.queryByRole('heading', { name: 'Start a membership' })).toBeNull();
    expect(document.activeElement).toBe(heading);
    expect(screen.getByRole('status').textContent).toBe('Payment received, thank you!');
    // Back on the choice, a member is offered more time, not a start.
    await act(() => router.navigate(-1));
    await screen.findByRole('heading', { level: 1, name: 'Extend your membership' });
  });

  it('plans that failed to load come with Try again', async () => {
    failures.plans = 1;
    renderPage();
    expect((await screen.findByTestId('plans-error')).textContent).toBe('The plans could not be loaded.');
    await click('Try again');
    await screen.findByText('$30');
    expect(screen.queryByTestId('plans-error')).toBeNull();
  });

  it('a payment request that failed can be sent again with Try again', async () => {
    failures.subscribe = 1;
    renderPage();
    await screen.findByText('$30');
    await screen.findByRole('option', { name: 'Bitcoin' });
    fireEvent.change(screen.getByTestId('crypto-select'), { target: { value: 'BTC' } });
    await click('Start payment');
    expect((await screen.findByTestId('payment-error')).textContent).toBe(
      i18next.t('errors.api.payment_gateway_unavailable'),
    );
    await click('Try again');
    await screen.findByTestId('payment-panel');
    expect(posted).toEqual([{ planId: 1, criptoName: 'BTC', code: null }]);
  });

  it('a failed status check says so and asks again with Try again', async () => {
    failures.payment = 1;
    renderPage();
    await startWithSecondPlan();
    expect((await screen.findByTestId('payment-status-error')).textContent).toBe(
      "The payment's status could not be checked.",
    );
    paymentNow = paid;
    await click('Try again');
    await screen.findByRole('heading', { level: 1, name: 'Payment received, thank you!' });
  });
});
