import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerUser, Payment, Promo, SubscriptionResponse } from '@marquee/contract';
import { addMonths } from '../src/modules/membership/plans.ts';
import { signUp, TEST_PASSWORD_COST, type Customer } from './customer-harness.ts';
import { DEFAULT_CRYPTOS, FakeShkeeper } from './fake-shkeeper.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

const API_KEY = 'shkeeper-test-key';
const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-membership-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
// A built web app stand-in, so browser navigations to /promos get the SPA's index.
const webDist = path.join(tmp, 'web');
mkdirSync(webDist, { recursive: true });
writeFileSync(
  path.join(webDist, 'index.html'),
  '<!doctype html><html><head><!--marquee-runtime-config--></head><body>marquee spa</body></html>',
);

interface Http {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

/** Real HTTP against a listening app (the gateway calls back over HTTP too). */
function client(base: string) {
  return async (
    method: string,
    url: string,
    options: { as?: Customer; body?: unknown; headers?: Record<string, string> } = {},
  ): Promise<Http> => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: {
        ...(options.as ? { authorization: `Bearer ${options.as.token}` } : {}),
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...options.headers,
      },
      ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
    });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: res.status, body, text, headers: res.headers };
  };
}

const YEAR_LATER = '2027-01-15T12:00:00.000Z';

describe(`memberships through SHKeeper (${testDialect})`, () => {
  let t: SyncTestApp;
  let fake: FakeShkeeper;
  let base: string;
  let http: ReturnType<typeof client>;
  let admin: Customer;

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
        ADMIN_EMAILS: 'admin@example.org',
        WEB_DIST_DIR: webDist,
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    clockMs = () => t.clock.ms;
    base = await t.server.listen({ port: 0, host: '127.0.0.1' });
    http = client(base);
    admin = await signUp(t.server, { email: 'admin@example.org', fullname: 'Admin' });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  const monthsFromNow = (months: number) => new Date(addMonths(t.clock.ms, months)).toISOString();
  const subscribe = (
    who: Customer,
    payload: Record<string, unknown>,
    spelling: 'suscription' | 'subscription' = 'suscription',
  ) => http('POST', `/customers/${who.user.id}/${spelling}`, { as: who, body: payload });
  const membership = async (who: Customer) =>
    (await http('GET', '/api/membership', { as: who })).body as {
      active: boolean;
      endSubcriptionDate: string | null;
      pendingPayment: Payment | null;
    };
  const newPromo = async (rate?: unknown) =>
    (await http('POST', '/promos/create', { as: admin, body: rate === undefined ? {} : { rate } })).body
      .created as Promo;

  it('lists the configured plans and the gateway’s cryptocurrencies (both spellings)', async () => {
    const plans = await http('GET', '/api/plans');
    expect(plans.body.plans).toEqual([
      { id: 1, duration: 12, cost: 30, pref: 'year', currency: 'USD', monthlyCost: 2.5 },
      { id: 2, duration: 1, cost: 2.99, pref: 'month', currency: 'USD', monthlyCost: 2.99 },
    ]);
    const list = await http('GET', '/shkeeper/list-cripto');
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      crypto_list: [
        { name: 'BTC', display_name: 'Bitcoin' },
        { name: 'ETH', display_name: 'Ethereum' },
        { name: 'USDT', display_name: 'TRC20 USDT' },
      ],
    });
    expect((await http('GET', '/shkeeper/list-crypto')).body).toEqual(list.body);
  });

  it('payment request → wallet + QR; the signed callback extends the membership by the plan, once, whatever the replays', async () => {
    const c = await signUp(t.server);
    const res = await subscribe(c, { planId: 1, criptoName: 'ETH', code: null });
    expect(res.status, res.text).toBe(200);
    const sub = res.body as SubscriptionResponse;
    expect(sub).toMatchObject({
      error: false,
      errorType: null,
      user: { id: c.user.id, hasMembership: false },
    });
    expect(sub.message).toMatch(/no longer valid/);
    expect(sub.paymentUrl).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(sub.payment).toMatchObject({
      planId: 1,
      duration: 12,
      crypto: 'ETH',
      cryptoDisplayName: 'Ethereum',
      amount: '30.00',
      currency: 'USD',
      status: 'pending',
      gateway: 'shkeeper',
      discountRate: 0,
      promoCode: null,
    });
    // What SHKeeper was asked, exactly as its API wants it.
    const request = fake.requests.find((r) => r.path === '/api/v1/ETH/payment_request')!;
    expect(request.headers['x-shkeeper-api-key']).toBe(API_KEY);
    expect(JSON.parse(request.body)).toEqual({
      external_id: sub.payment.id,
      fiat: 'USD',
      amount: '30.00',
      callback_url: `${base}/api/payments/shkeeper/callback`,
    });
    const invoice = fake.invoices.get(sub.payment.id)!;
    expect(sub.wallet).toBe(invoice.addresses.get('ETH'));
    expect(sub.payment.cryptoAmount).toBe((30 / 3379.24).toFixed(8).replace(/0+$/, ''));
    expect((await membership(c)).pendingPayment?.id).toBe(sub.payment.id);

    expect(await fake.pay(sub.payment.id)).toBe(202);
    const after = await membership(c);
    expect(after).toMatchObject({ active: true, endSubcriptionDate: YEAR_LATER, pendingPayment: null });
    const paid = await http('GET', `/api/payments/${sub.payment.id}`, { as: c });
    expect(paid.body.payment).toMatchObject({ status: 'paid', paidAt: new Date(t.clock.ms).toISOString() });
    expect((await http('GET', '/customers', { as: c })).body.user).toMatchObject({
      endSubcriptionDate: YEAR_LATER,
      hasMembership: true,
    });

    // SHKeeper resends until it sees 202, and once per transaction: every repeat is 202 and changes nothing.
    const notification = fake.notification(sub.payment.id);
    for (let i = 0; i < 10; i++) expect(await fake.deliver(notification)).toBe(202);
    expect((await membership(c)).endSubcriptionDate).toBe(YEAR_LATER);

    // A second membership starts where the first ends (the later of now and the current end).
    t.clock.advance(24 * 60 * 60_000);
    const second = (await subscribe(c, { planId: '2', criptoName: 'BTC' }, 'subscription'))
      .body as SubscriptionResponse;
    expect(second.paymentUrl).toMatch(/^data:image\/png/);
    expect(await fake.pay(second.payment.id)).toBe(202);
    expect((await membership(c)).endSubcriptionDate).toBe('2027-02-15T12:00:00.000Z');
  });

  it('leaves exactly one pending request when a customer asks twice at once (the newer wins)', async () => {
    const c = await signUp(t.server);
    const results = await Promise.all([
      subscribe(c, { planId: 1, criptoName: 'BTC' }),
      subscribe(c, { planId: 2, criptoName: 'ETH' }),
    ]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    const rows = await t.db.db
      .selectFrom('payments')
      .select(['id', 'status'])
      .where('user_id', '=', c.user.id)
      .execute();
    const pending = rows.filter((r) => r.status === 'pending');
    expect(pending).toHaveLength(1);
    expect(rows.filter((r) => r.status === 'superseded')).toHaveLength(1);
    expect((await membership(c)).pendingPayment?.id).toBe(pending[0]!.id);
  });

  it('applies 10 concurrent identical callbacks exactly once', async () => {
    const c = await signUp(t.server);
    const sub = (await subscribe(c, { planId: 2, criptoName: 'USDT' })).body as SubscriptionResponse;
    const invoice = fake.invoices.get(sub.payment.id)!;
    invoice.txs.push({
      txid: 'concurrent-tx',
      date: '2026-01-15 12:00:00',
      amount_crypto: '2.99',
      amount_fiat: '2.99',
      crypto: 'USDT',
    });
    invoice.status = 'PAID';
    const notification = fake.notification(sub.payment.id);
    const statuses = await Promise.all(Array.from({ length: 10 }, () => fake.deliver(notification)));
    expect(statuses).toEqual(Array(10).fill(202));
    expect((await membership(c)).endSubcriptionDate).toBe(monthsFromNow(1));
    const rows = await t.db.db
      .selectFrom('memberships')
      .selectAll()
      .where('user_id', '=', c.user.id)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('refuses forged, unsigned, stale or wrongly keyed callbacks (403), and accepts the legacy API-key header', async () => {
    const c = await signUp(t.server);
    const sub = (await subscribe(c, { planId: 2, criptoName: 'BTC' })).body as SubscriptionResponse;
    const invoice = fake.invoices.get(sub.payment.id)!;
    invoice.txs.push({
      txid: 'x',
      date: '2026-01-15 12:00:00',
      amount_crypto: '0.0001',
      amount_fiat: '2.99',
      crypto: 'BTC',
    });
    invoice.status = 'PAID';
    const good = fake.notification(sub.payment.id);
    const url = good.url;
    const attempts = [
      // unsigned
      { body: good.body, headers: { 'content-type': 'application/json' } },
      // signed with another key
      { body: good.body, headers: { ...good.headers, 'x-shkeeper-signature': 'ab'.repeat(32) } },
      // body changed after signing
      { body: good.body.replace('"paid":true', '"paid":true '), headers: good.headers },
      // right signature, but the API-key header does not save a wrong signature
      { body: `${good.body} `, headers: good.headers },
      // legacy header with a wrong key
      { body: good.body, headers: { 'content-type': 'application/json', 'x-shkeeper-api-key': 'guess' } },
      // a signature from more than 5 minutes ago
      (() => {
        const stale = new FakeShkeeper(API_KEY, DEFAULT_CRYPTOS, () => t.clock.ms - 6 * 60_000);
        stale.invoices.set(sub.payment.id, invoice);
        return stale.notification(sub.payment.id);
      })(),
    ];
    for (const attempt of attempts) {
      const res = await fetch(url, { method: 'POST', headers: attempt.headers, body: attempt.body });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('callback_invalid');
    }
    expect((await membership(c)).active).toBe(false);
    // Older SHKeeper versions only send the API key: accepted.
    expect(await fake.deliver(fake.notification(sub.payment.id, { legacy: true }))).toBe(202);
    expect((await membership(c)).active).toBe(true);
  });

  it('waits for the whole amount: a partial payment records the balance, the rest activates', async () => {
    const c = await signUp(t.server);
    const sub = (await subscribe(c, { planId: 1, criptoName: 'USDT' })).body as SubscriptionResponse;
    expect(await fake.pay(sub.payment.id, { amountFiat: 10 })).toBe(202);
    expect((await membership(c)).active).toBe(false);
    expect(
      (
        await t.db.db
          .selectFrom('payments')
          .select('balance_fiat')
          .where('id', '=', sub.payment.id)
          .executeTakeFirstOrThrow()
      ).balance_fiat,
    ).toBe('10.00');
    expect(await fake.pay(sub.payment.id)).toBe(202);
    expect((await membership(c)).endSubcriptionDate).toBe(monthsFromNow(12));
  });

  it('answers callbacks for unknown invoices with 404 (SHKeeper keeps retrying) and ignores unconfirmed notices', async () => {
    const ghost = fake.notification(
      await (async () => {
        const c = await signUp(t.server);
        return ((await subscribe(c, { planId: 2, criptoName: 'BTC' })).body as SubscriptionResponse).payment
          .id;
      })(),
    );
    const body = ghost.body.replace(/"external_id":"[^"]+"/, '"external_id":"no-such-payment"');
    const { createHmac } = await import('node:crypto');
    const ts = String(Math.floor(t.clock.ms / 1000));
    const headers = {
      'content-type': 'application/json',
      'x-shkeeper-timestamp': ts,
      'x-shkeeper-signature': createHmac('sha256', API_KEY).update(`${ts}.${body}`).digest('hex'),
    };
    expect((await fetch(ghost.url, { method: 'POST', headers, body })).status).toBe(404);
    const unconfirmed = JSON.stringify({
      status: 'unconfirmed',
      external_id: 'no-such-payment',
      crypto: 'BTC',
      addr: 'a',
      txid: 't',
      amount: '1',
    });
    const h2 = {
      'content-type': 'application/json',
      'x-shkeeper-timestamp': ts,
      'x-shkeeper-signature': createHmac('sha256', API_KEY).update(`${ts}.${unconfirmed}`).digest('hex'),
    };
    expect((await fetch(ghost.url, { method: 'POST', headers: h2, body: unconfirmed })).status).toBe(202);
  });

  it('validates the request with the older client’s messages and reports gateway failures', async () => {
    const c = await signUp(t.server);
    const noCrypto = await subscribe(c, { planId: 1, criptoName: null, code: null });
    expect(noCrypto.status).toBe(400);
    expect(noCrypto.body).toMatchObject({
      code: 'crypto_required',
      message: 'You have to select the cripto before starting payment process.',
    });
    expect((await subscribe(c, { planId: 9, criptoName: 'BTC' })).body.code).toBe('plan_not_found');
    const unknownCrypto = await subscribe(c, { planId: 1, criptoName: 'DOGE' });
    expect(unknownCrypto.status).toBe(502);
    expect(unknownCrypto.body).toMatchObject({
      code: 'payment_gateway_unavailable',
      message: 'Payment gateway: DOGE payment gateway is unavailable',
    });
    fake.broken = true;
    try {
      const down = await subscribe(c, { planId: 1, criptoName: 'BTC' });
      expect(down.status).toBe(503);
      expect(down.body.code).toBe('payment_gateway_unavailable');
      expect((await http('GET', '/shkeeper/list-cripto')).status).toBe(503);
    } finally {
      fake.broken = false;
    }
    const failed = await t.db.db
      .selectFrom('payments')
      .select('status')
      .where('user_id', '=', c.user.id)
      .execute();
    expect(failed.map((p) => p.status)).toEqual(['failed', 'failed']);
    expect((await subscribe(c, { planId: 1, criptoName: 'BTC' }, 'subscription')).status).toBe(200);
    // Only for yourself, only signed in.
    const other = await signUp(t.server);
    expect(
      (
        await http('POST', `/customers/${c.user.id}/suscription`, {
          as: other,
          body: { planId: 1, criptoName: 'BTC' },
        })
      ).status,
    ).toBe(403);
    expect(
      (await http('POST', `/customers/${c.user.id}/suscription`, { body: { planId: 1, criptoName: 'BTC' } }))
        .status,
    ).toBe(401);
    expect(
      (await http('GET', `/api/payments/${(await membership(c)).pendingPayment!.id}`, { as: other })).status,
    ).toBe(404);
    // The simulated gateway's shortcut does not exist with a real gateway.
    expect(
      (
        await http('POST', `/api/payments/${(await membership(c)).pendingPayment!.id}/simulate-paid`, {
          as: c,
        })
      ).status,
    ).toBe(404);
  });

  describe('promo codes', () => {
    it('admins create (rate default 10, empty = default) and list them; others get 403, anonymous 401', async () => {
      const plain = await newPromo();
      expect(plain).toMatchObject({ rate: 10, isUsed: false, isReserved: false, usedAt: null });
      expect(plain.code).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
      expect((await newPromo('')).rate).toBe(10);
      expect((await newPromo(null)).rate).toBe(10);
      const created = await http('POST', '/promos/create', { as: admin, body: { rate: 25 } });
      expect(created.body.created.rate).toBe(25);
      expect(created.body.codes.map((p: Promo) => p.code)).toContain(plain.code);
      for (const rate of [0, 101, 10.5, '10']) {
        expect(
          (await http('POST', '/promos/create', { as: admin, body: { rate } })).status,
          String(rate),
        ).toBe(400);
      }
      const list = await http('GET', '/promos', { as: admin, headers: { accept: 'application/json' } });
      expect(list.status).toBe(200);
      expect(list.body.codes.length).toBeGreaterThanOrEqual(4);

      const viewer = await signUp(t.server);
      const forbidden = await http('GET', '/promos', { as: viewer });
      expect(forbidden.status).toBe(403);
      expect(forbidden.body.code).toBe('forbidden');
      expect((await http('POST', '/promos/create', { as: viewer, body: { rate: 50 } })).status).toBe(403);
      expect((await http('GET', '/promos')).status).toBe(401);
      expect((await http('POST', '/promos/create', { body: { rate: 50 } })).status).toBe(401);
    });

    it('serves the web app for a browser navigation to /promos (signed in or not), the list to API calls', async () => {
      const navigation = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
      for (const headers of [
        { accept: navigation },
        { accept: navigation, authorization: `Bearer ${admin.token}` },
      ] as Record<string, string>[]) {
        const page = await http('GET', '/promos', { headers });
        expect(page.status).toBe(200);
        expect(page.headers.get('content-type')).toMatch(/^text\/html/);
        expect(page.text).toContain('marquee spa');
        expect(page.text).toContain('window.__MARQUEE_CONFIG__');
      }
      const api = await http('GET', '/promos', {
        as: admin,
        headers: { accept: 'application/json, text/plain, */*' },
      });
      expect(api.headers.get('content-type')).toMatch(/^application\/json/);
      expect(Array.isArray(api.body.codes)).toBe(true);
    });

    it('checks a code, discounts exactly one paid membership, then says "promo code already used"', async () => {
      const promo = await newPromo(10);
      const c = await signUp(t.server);
      const check = await http('GET', `/promos/${promo.code.toLowerCase()}`, { as: c });
      expect(check.body).toEqual({
        code: { code: promo.code, isUsed: false, rate: 10 },
        message: 'promo code applied: 10% off',
        error: false,
        errorCode: null,
      });
      expect((await http('GET', '/promos/NOPE2345', { as: c })).body).toEqual({
        code: null,
        message: 'promo code not found',
        error: true,
        errorCode: 'promo_not_found',
      });

      const sub = (await subscribe(c, { planId: 1, criptoName: 'USDT', code: promo.code }))
        .body as SubscriptionResponse;
      expect(sub.payment).toMatchObject({ amount: '27.00', discountRate: 10, promoCode: promo.code });
      expect(JSON.parse(fake.requests.at(-1)!.body).amount).toBe('27.00');
      // Held for this payment: another customer cannot apply it meanwhile.
      const other = await signUp(t.server);
      expect((await http('GET', `/promos/${promo.code}`, { as: other })).body).toMatchObject({
        error: true,
        errorCode: 'promo_reserved',
      });
      expect((await subscribe(other, { planId: 1, criptoName: 'BTC', code: promo.code })).body).toMatchObject(
        { code: 'promo_reserved' },
      );

      expect(await fake.pay(sub.payment.id)).toBe(202);
      expect((await membership(c)).active).toBe(true);
      const used = await http('GET', `/promos/${promo.code}`, { as: other });
      expect(used.body).toEqual({
        code: { code: promo.code, isUsed: true, rate: 10 },
        message: 'promo code already used',
        error: true,
        errorCode: 'promo_used',
      });
      const again = await subscribe(other, { planId: 1, criptoName: 'BTC', code: promo.code });
      expect(again.status).toBe(409);
      expect(again.body).toMatchObject({ code: 'promo_used', message: 'promo code already used' });
      const listed = ((await http('GET', '/promos', { as: admin })).body.codes as Promo[]).find(
        (p) => p.code === promo.code,
      )!;
      expect(listed).toMatchObject({
        isUsed: true,
        isReserved: false,
        usedAt: new Date(t.clock.ms).toISOString(),
      });
    });

    it('a newer payment request supersedes the older unpaid one, which keeps its code (it can still be paid)', async () => {
      const promo = await newPromo(20);
      const c = await signUp(t.server);
      const first = (await subscribe(c, { planId: 1, criptoName: 'BTC', code: promo.code }))
        .body as SubscriptionResponse;
      // One discount per account (decision 073): the same customer cannot put the code on a second request.
      const again = await subscribe(c, { planId: 2, criptoName: 'ETH', code: promo.code });
      expect(again.status).toBe(409);
      expect(again.body.code).toBe('promo_already_used');
      const second = (await subscribe(c, { planId: 2, criptoName: 'ETH' })).body as SubscriptionResponse;
      expect(second.payment.amount).toBe('2.99');
      expect((await http('GET', `/api/payments/${first.payment.id}`, { as: c })).body.payment.status).toBe(
        'superseded',
      );
      expect((await membership(c)).pendingPayment?.id).toBe(second.payment.id);
      // The superseded request may still be paid, so it still holds the code.
      const other = await signUp(t.server);
      expect((await http('GET', `/promos/${promo.code}`, { as: other })).body.errorCode).toBe(
        'promo_reserved',
      );
      // Money that still arrives for a superseded request is honoured, not lost, with its discount.
      expect(await fake.pay(first.payment.id)).toBe(202);
      expect((await membership(c)).endSubcriptionDate).toBe(monthsFromNow(12));
      expect((await membership(c)).pendingPayment?.id).toBe(second.payment.id);
      expect((await http('GET', `/promos/${promo.code}`, { as: other })).body.errorCode).toBe('promo_used');
    });

    it('lets exactly one of 50 concurrent payment requests use one code', async () => {
      const promo = await newPromo(50);
      const customers = await Promise.all(Array.from({ length: 50 }, () => signUp(t.server)));
      const results = await Promise.all(
        customers.map((c) => subscribe(c, { planId: 1, criptoName: 'BTC', code: promo.code })),
      );
      const winners = results.filter((r) => r.status === 200);
      expect(winners).toHaveLength(1);
      expect(results.filter((r) => r.status === 409 && r.body.code === 'promo_reserved')).toHaveLength(49);
      const winner = winners[0]!.body as SubscriptionResponse;
      expect(winner.payment.amount).toBe('15.00');
      const row = await t.db.db
        .selectFrom('promo_codes')
        .selectAll()
        .where('code', '=', promo.code)
        .executeTakeFirstOrThrow();
      expect(row.reserved_by).toBe(winner.payment.id);
    });

    it('concurrent paid callbacks of two payments holding one code consume it once', async () => {
      const promo = await newPromo(30);
      const a = await signUp(t.server);
      const subA = (await subscribe(a, { planId: 1, criptoName: 'BTC', code: promo.code }))
        .body as SubscriptionResponse;
      // The reservation lapses; someone else takes the code before A pays.
      t.clock.advance(3 * 60 * 60_000);
      const b = await signUp(t.server);
      const subB = (await subscribe(b, { planId: 1, criptoName: 'BTC', code: promo.code }))
        .body as SubscriptionResponse;
      expect(subB.payment.amount).toBe('21.00');
      const [ra, rb] = await Promise.all([fake.pay(subA.payment.id), fake.pay(subB.payment.id)]);
      expect([ra, rb]).toEqual([202, 202]);
      // Both paid, so both are members; the code itself was used once.
      expect((await membership(a)).active && (await membership(b)).active).toBe(true);
      const row = await t.db.db
        .selectFrom('promo_codes')
        .selectAll()
        .where('code', '=', promo.code)
        .executeTakeFirstOrThrow();
      expect(row.is_used).toBe(1);
      expect([subA.payment.id, subB.payment.id]).toContain(row.used_by_payment);
    });

    it('a 100 % code needs no payment: the membership starts at once', async () => {
      const promo = await newPromo(100);
      const c = await signUp(t.server);
      const before = fake.requests.length;
      const res = await subscribe(c, { planId: 2, criptoName: 'BTC', code: promo.code });
      expect(res.status, res.text).toBe(200);
      expect(res.body.payment).toMatchObject({ amount: '0.00', status: 'paid' });
      expect(res.body.user.hasMembership).toBe(true);
      expect(fake.requests.length).toBe(before);
      expect((await http('GET', `/promos/${promo.code}`, { as: c })).body.errorCode).toBe('promo_used');
    });
  });
});

describe(`memberships through the simulated gateway (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        AUTH_METHODS: 'email',
        PAYMENT_GATEWAY: 'simulated',
        ALLOW_SIMULATED_PAYMENTS: 'true',
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());

  it('runs the whole flow on a fresh instance: request → simulate-paid (signed callback) → membership, once', async () => {
    const c = await signUp(t.server);
    const cryptos = await t.server.inject({ method: 'GET', url: '/shkeeper/list-cripto' });
    expect(cryptos.json().crypto_list.map((x: { name: string }) => x.name)).toContain('BTC');
    const res = await t.server.inject({
      method: 'POST',
      url: `/customers/${c.user.id}/suscription`,
      headers: c.headers,
      payload: { planId: 2, criptoName: 'BTC', code: null },
    });
    expect(res.statusCode, res.body).toBe(200);
    const sub = res.json() as SubscriptionResponse;
    expect(sub.wallet).toMatch(/^sim-btc-/);
    expect(sub.payment).toMatchObject({
      gateway: 'simulated',
      cryptoAmount: '0.00004983',
      status: 'pending',
    });
    expect(sub.paymentUrl).toMatch(/^data:image\/png;base64,/);

    const paid = await t.server.inject({
      method: 'POST',
      url: `/api/payments/${sub.payment.id}/simulate-paid`,
      headers: c.headers,
    });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json()).toMatchObject({
      payment: { status: 'paid' },
      membership: { active: true, endSubcriptionDate: '2026-02-15T12:00:00.000Z' },
    });
    const again = await t.server.inject({
      method: 'POST',
      url: `/api/payments/${sub.payment.id}/simulate-paid`,
      headers: c.headers,
    });
    expect(again.json().membership.endSubcriptionDate).toBe('2026-02-15T12:00:00.000Z');
    const user = (await t.server.inject({ method: 'GET', url: '/customers', headers: c.headers })).json()
      .user as CustomerUser;
    expect(user).toMatchObject({ hasMembership: true, endSubcriptionDate: '2026-02-15T12:00:00.000Z' });

    const other = await signUp(t.server);
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url: `/api/payments/${sub.payment.id}/simulate-paid`,
          headers: other.headers,
        })
      ).statusCode,
    ).toBe(404);
    // The callback endpoint still wants the simulated gateway's signature.
    const forged = await t.server.inject({
      method: 'POST',
      url: '/api/payments/shkeeper/callback',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ external_id: sub.payment.id, paid: true }),
    });
    expect(forged.statusCode).toBe(403);
  });
});
