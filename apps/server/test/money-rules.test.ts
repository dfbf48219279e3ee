import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminPayment, Promo, SubscriptionResponse } from '@marquee/contract';
import { addMonths } from '../src/modules/membership/plans.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { DEFAULT_CRYPTOS, FakeShkeeper } from './fake-shkeeper.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Decision 073: a promo code discounts one payment per account, and a paid notification
 * extends a membership only when its balance covers what is due (1 %, at least 0.01, either way);
 * under- and overpayments are recorded and listed for the admins. Both gateways.
 */

const API_KEY = 'shkeeper-money-key';
const HOURS = 60 * 60_000;

interface Answer {
  status: number;
  body: any;
}

/**
 * Requests as a customer sends them, through inject; with the app's address (SHKeeper calls back to the
 * origin the payment request came from), over real HTTP.
 */
function caller(t: () => SyncTestApp, base: () => string | undefined) {
  return async (
    method: 'GET' | 'POST',
    url: string,
    options: { as?: Customer; body?: unknown } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {
      ...(options.as ? options.as.headers : {}),
      ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
    };
    const payload = options.body !== undefined ? JSON.stringify(options.body) : undefined;
    const origin = base();
    if (origin) {
      const res = await fetch(`${origin}${url}`, { method, headers, ...(payload ? { body: payload } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : null };
    }
    const res = await t().server.inject({ method, url, headers, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.body ? JSON.parse(res.body) : null };
  };
}

function money(t: () => SyncTestApp, base: () => string | undefined = () => undefined) {
  const http = caller(t, base);
  return {
    http,
    subscribe: (who: Customer, payload: Record<string, unknown>) =>
      http('POST', `/customers/${who.user.id}/suscription`, { as: who, body: payload }),
    membershipEnd: async (who: Customer) =>
      (await http('GET', '/api/membership', { as: who })).body.endSubcriptionDate as string | null,
    newPromo: async (admin: Customer, rate: number) =>
      (await http('POST', '/promos/create', { as: admin, body: { rate } })).body.created as Promo,
    payment: async (who: Customer, id: string) =>
      (await http('GET', `/api/payments/${id}`, { as: who })).body.payment as { status: string },
    adminList: async (admin: Customer, query = '') =>
      (await http('GET', `/api/admin/payments${query}`, { as: admin })).body.payments as AdminPayment[],
  };
}

describe(`money rules through SHKeeper (${testDialect})`, () => {
  let t: SyncTestApp;
  let fake: FakeShkeeper;
  let admin: Customer;
  let base: string;
  const m = money(
    () => t,
    () => base,
  );
  const monthsFromNow = (months: number) => new Date(addMonths(t.clock.ms, months)).toISOString();

  beforeAll(async () => {
    let clockMs = () => Date.now();
    fake = new FakeShkeeper(API_KEY, DEFAULT_CRYPTOS, () => clockMs());
    await fake.start();
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        AUTH_METHODS: 'email',
        PAYMENT_GATEWAY: 'shkeeper',
        SHKEEPER_URL: fake.baseUrl,
        SHKEEPER_API_KEY: API_KEY,
        ADMIN_EMAILS: 'money-admin@example.org',
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    clockMs = () => t.clock.ms;
    base = await t.server.listen({ port: 0, host: '127.0.0.1' });
    admin = await signUp(t.server, { email: 'money-admin@example.org' });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('one code, three payment requests in a row by one customer: the first gets it, the others 409, one discounted membership', async () => {
    const promo = await m.newPromo(admin, 50);
    const c = await signUp(t.server);
    const before = fake.requests.length;
    const first = await m.subscribe(c, { planId: 1, criptoName: 'BTC', code: promo.code });
    expect(first.status).toBe(200);
    expect((first.body as SubscriptionResponse).payment.amount).toBe('15.00');
    for (const planId of [1, 2]) {
      const again = await m.subscribe(c, { planId, criptoName: 'ETH', code: promo.code });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ errorType: 'message', code: 'promo_already_used' });
    }
    // The check says so before the customer tries.
    expect((await m.http('GET', `/promos/${promo.code}`, { as: c })).body).toMatchObject({
      error: true,
      errorCode: 'promo_already_used',
    });
    // Only one invoice was asked for, at the discounted price.
    const asked = fake.requests.slice(before).filter((r) => r.path.endsWith('/payment_request'));
    expect(asked.map((r) => JSON.parse(r.body).amount)).toEqual(['15.00']);
    expect(await fake.pay((first.body as SubscriptionResponse).payment.id)).toBe(202);
    expect(await m.membershipEnd(c)).toBe(monthsFromNow(12));
    // Paid: the code is used (for everyone).
    const later = await m.subscribe(c, { planId: 2, criptoName: 'BTC', code: promo.code });
    expect(later.status).toBe(409);
    expect(later.body.code).toBe('promo_used');
  });

  it('two concurrent requests of one customer with one code: exactly one gets it', async () => {
    const promo = await m.newPromo(admin, 40);
    const c = await signUp(t.server);
    const results = await Promise.all(
      [1, 2, 1, 2].map((planId) => m.subscribe(c, { planId, criptoName: 'BTC', code: promo.code })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409).map((r) => r.body.code)).toEqual(
      Array(3).fill('promo_already_used'),
    );
  });

  it('after an unpaid request lapses the code can be used again, but only one paid payment keeps the discount', async () => {
    const promo = await m.newPromo(admin, 50);
    const c = await signUp(t.server);
    const first = (await m.subscribe(c, { planId: 1, criptoName: 'USDT', code: promo.code }))
      .body as SubscriptionResponse;
    t.clock.advance(3 * HOURS);
    const second = await m.subscribe(c, { planId: 1, criptoName: 'USDT', code: promo.code });
    expect(second.status).toBe(200);
    const secondId = (second.body as SubscriptionResponse).payment.id;
    const startEnd = monthsFromNow(12);
    // Both invoices are paid (the older QR code was still in a wallet app): the first paid keeps the discount…
    expect(await fake.pay(first.payment.id)).toBe(202);
    expect(await m.membershipEnd(c)).toBe(startEnd);
    // …the other one owes the list price: 15.00 of 30.00 is an underpayment, recorded, not extended.
    expect(await fake.pay(secondId)).toBe(202);
    expect(fake.sent.at(-1)!.body).toContain('"paid":true');
    expect(await m.membershipEnd(c)).toBe(startEnd);
    expect((await m.payment(c, secondId)).status).toBe('pending');
    const listed = (await m.adminList(admin, '?settlement=underpaid')).find((p) => p.id === secondId);
    expect(listed).toMatchObject({
      userId: c.user.id,
      email: c.email,
      amount: '15.00',
      listAmount: '30.00',
      dueAmount: '30.00',
      balance: '15.00',
      settlement: 'underpaid',
      status: 'pending',
    });
    // Paying the rest completes it: the membership is extended once more.
    expect(await fake.pay(secondId, { amountFiat: 15 })).toBe(202);
    expect(await m.membershipEnd(c)).toBe(new Date(addMonths(Date.parse(startEnd), 12)).toISOString());
    expect((await m.adminList(admin)).find((p) => p.id === secondId)).toMatchObject({
      status: 'paid',
      balance: '30.00',
      settlement: 'exact',
    });
  });

  it('a paid notification whose balance does not cover the invoice does not extend; it is recorded for the admins', async () => {
    const c = await signUp(t.server);
    const sub = (await m.subscribe(c, { planId: 2, criptoName: 'USDT' })).body as SubscriptionResponse;
    // A wallet whose lower threshold lets a cent count as paid (the probe's finding: 0.01 for 2.99).
    fake.llimit = 0;
    try {
      expect(await fake.pay(sub.payment.id, { amountFiat: 0.01 })).toBe(202);
    } finally {
      fake.llimit = 98;
    }
    const sent = JSON.parse(fake.sent.at(-1)!.body) as { paid: boolean; balance_fiat: string };
    expect(sent).toMatchObject({ paid: true, balance_fiat: '0.01' });
    expect(await m.membershipEnd(c)).toBeNull();
    expect((await m.payment(c, sub.payment.id)).status).toBe('pending');
    const row = await t.db.db
      .selectFrom('payments')
      .select(['balance_fiat', 'settlement', 'due_fiat', 'status'])
      .where('id', '=', sub.payment.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      balance_fiat: '0.01',
      settlement: 'underpaid',
      due_fiat: '2.99',
      status: 'pending',
    });
    expect((await m.adminList(admin, '?settlement=mismatched')).map((p) => p.id)).toContain(sub.payment.id);
    // A partial notification (paid: false) is recorded the same way.
    const partial = (await m.subscribe(c, { planId: 1, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(partial.payment.id, { amountFiat: 10 })).toBe(202);
    expect(
      (await m.adminList(admin, '?settlement=underpaid')).find((p) => p.id === partial.payment.id),
    ).toMatchObject({ balance: '10.00', dueAmount: '30.00', status: 'pending' });
    expect(await m.membershipEnd(c)).toBeNull();
  });

  it('counts a shortfall up to 1 % as paid, not more', async () => {
    const within = await signUp(t.server);
    const a = (await m.subscribe(within, { planId: 1, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(a.payment.id, { amountFiat: 29.7 })).toBe(202);
    expect(await m.membershipEnd(within)).toBe(monthsFromNow(12));
    const short = await signUp(t.server);
    const b = (await m.subscribe(short, { planId: 1, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(b.payment.id, { amountFiat: 29.69 })).toBe(202);
    // SHKeeper's wallet (lower threshold 98 %) calls it paid; the invoice is not covered.
    expect(JSON.parse(fake.sent.at(-1)!.body).paid).toBe(true);
    expect(await m.membershipEnd(short)).toBeNull();
    const listed = await m.adminList(admin);
    expect(listed.find((p) => p.id === a.payment.id)).toMatchObject({
      settlement: 'exact',
      balance: '29.70',
    });
    expect(listed.find((p) => p.id === b.payment.id)).toMatchObject({
      settlement: 'underpaid',
      balance: '29.69',
    });
  });

  it('an overpayment extends the membership and is recorded, also when it arrives after the invoice was paid', async () => {
    const c = await signUp(t.server);
    const sub = (await m.subscribe(c, { planId: 1, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(sub.payment.id, { amountFiat: 35 })).toBe(202);
    expect(JSON.parse(fake.sent.at(-1)!.body).status).toBe('OVERPAID');
    expect(await m.membershipEnd(c)).toBe(monthsFromNow(12));
    expect(
      (await m.adminList(admin, '?settlement=overpaid')).find((p) => p.id === sub.payment.id),
    ).toMatchObject({
      status: 'paid',
      balance: '35.00',
      dueAmount: '30.00',
      settlement: 'overpaid',
    });
    const exact = await signUp(t.server);
    const other = (await m.subscribe(exact, { planId: 2, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(other.payment.id)).toBe(202);
    // A second transaction to a paid invoice: nothing more is extended, the excess is recorded.
    expect(await fake.pay(other.payment.id, { amountFiat: 2.99 })).toBe(202);
    expect(await m.membershipEnd(exact)).toBe(monthsFromNow(1));
    expect(
      (await m.adminList(admin, '?settlement=overpaid')).find((p) => p.id === other.payment.id),
    ).toMatchObject({
      balance: '5.98',
      settlement: 'overpaid',
    });
  });

  it('lists payments for admins only, with a bounded page', async () => {
    const viewer = await signUp(t.server);
    expect((await m.http('GET', '/api/admin/payments', { as: viewer })).body.code).toBe('forbidden');
    expect((await m.http('GET', '/api/admin/payments')).status).toBe(401);
    for (const query of ['?limit=0', '?limit=501', '?settlement=lost'])
      expect((await m.http('GET', `/api/admin/payments${query}`, { as: admin })).status, query).toBe(400);
    const page = await m.adminList(admin, '?limit=2');
    expect(page).toHaveLength(2);
    expect(Date.parse(page[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(page[1]!.createdAt));
  });
});

describe(`money rules through the simulated gateway (${testDialect})`, () => {
  let t: SyncTestApp;
  let admin: Customer;
  const m = money(() => t);

  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        AUTH_METHODS: 'email',
        PAYMENT_GATEWAY: 'simulated',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        ADMIN_EMAILS: 'sim-admin@example.org',
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    admin = await signUp(t.server, { email: 'sim-admin@example.org' });
  });
  afterAll(async () => t.close());

  const pay = (who: Customer, id: string) => m.http('POST', `/api/payments/${id}/simulate-paid`, { as: who });

  it('refuses a second use of a code by one customer, and a lapsed second use pays the list price', async () => {
    const promo = await m.newPromo(admin, 50);
    const c = await signUp(t.server);
    const first = (await m.subscribe(c, { planId: 2, criptoName: 'BTC', code: promo.code }))
      .body as SubscriptionResponse;
    expect(first.payment.amount).toBe('1.50');
    const again = await m.subscribe(c, { planId: 2, criptoName: 'ETH', code: promo.code });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('promo_already_used');

    t.clock.advance(3 * HOURS);
    const second = (await m.subscribe(c, { planId: 2, criptoName: 'BTC', code: promo.code }))
      .body as SubscriptionResponse;
    const paidFirst = await pay(c, first.payment.id);
    expect(paidFirst.body).toMatchObject({ payment: { status: 'paid' }, membership: { active: true } });
    const end = paidFirst.body.membership.endSubcriptionDate as string;
    // The simulated callback pays the discounted 1.50; the code is this customer's already: 2.99 is due.
    const paidSecond = await pay(c, second.payment.id);
    expect(paidSecond.status).toBe(200);
    expect(paidSecond.body).toMatchObject({
      payment: { status: 'pending' },
      membership: { endSubcriptionDate: end },
    });
    expect(
      (await m.adminList(admin, '?settlement=underpaid')).find((p) => p.id === second.payment.id),
    ).toMatchObject({ balance: '1.50', dueAmount: '2.99', settlement: 'underpaid' });
    // Another customer was never blocked for longer than the reservation, and can still not reuse a used code.
    const other = await signUp(t.server);
    expect((await m.subscribe(other, { planId: 2, criptoName: 'BTC', code: promo.code })).body.code).toBe(
      'promo_used',
    );
  });

  it('a 100 % code once per customer', async () => {
    const promo = await m.newPromo(admin, 100);
    const c = await signUp(t.server);
    const free = await m.subscribe(c, { planId: 2, criptoName: 'BTC', code: promo.code });
    expect(free.body.payment).toMatchObject({ status: 'paid', amount: '0.00' });
    expect((await m.subscribe(c, { planId: 1, criptoName: 'BTC', code: promo.code })).status).toBe(409);
    expect(await m.membershipEnd(c)).toBe(new Date(addMonths(t.clock.ms, 1)).toISOString());
  });
});
