import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CustomerAuthResponse } from '@marquee/contract';
import { MAX_SIGN_IN_DELAY_MS, signInDelayMs } from '../src/modules/customers/sign-in-throttle.ts';
import type { RateLimitOverrides } from '../src/plugins/rate-limit.ts';
import { PASSWORD, registerCustomer, TEST_PASSWORD_COST } from './customer-harness.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { createTestDatabase, testDialect, testRedisUrl, type TestDatabase } from './test-database.ts';

/*
 * Decision 070: ten wrong passwords from anywhere used to lock the owner out for ten minutes. Now the
 * failing address waits (exponentially), the owner's address never does, and the owner is told.
 */

// Small numbers so the suite stays quick; the shape of the rules is the production one.
const rules: RateLimitOverrides = {
  customer_login: { points: 1_000, durationMs: 60_000 },
  customer_login_address: { points: 6, durationMs: 60_000 },
  customer_login_email: { points: 3, durationMs: 60_000 },
  customer_login_account: { points: 8, durationMs: 60_000 },
};

const OWNER = '198.51.100.7';
const ATTACKER = '203.0.113.9';

function signIn(t: SyncTestApp, email: string, password: string, address: string) {
  return t.server.inject({
    method: 'POST',
    url: '/customers/auth',
    remoteAddress: address,
    headers: { 'user-agent': 'vitest' },
    payload: { email, password },
  });
}

const json = <T>(res: LightMyRequestResponse) => JSON.parse(res.body) as T;

/** Polls (no fixed sleep) until `address` may try again. */
async function waitUntilFree(t: SyncTestApp, email: string, address: string, deadlineMs = 20_000) {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const res = await signIn(t, email, 'still-wrong', address);
    if (res.statusCode !== 429) return res;
    if (Date.now() > deadline) throw new Error(`${address} still refused: ${res.body}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('sign-in delays', () => {
  it('double from 2 s and stop at 15 minutes', () => {
    expect([1, 2, 3, 4].map(signInDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000]);
    expect(signInDelayMs(30)).toBe(MAX_SIGN_IN_DELAY_MS);
  });
});

describe(`email sign-in throttling (${testDialect}, ${testRedisUrl ? 'redis' : 'memory'})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email' },
      deps: { accounts: { passwordCost: TEST_PASSWORD_COST, rateLimits: rules } },
    });
  });
  afterAll(async () => t.close());

  it('the owner signs in with the right password while an attacker from another address keeps failing', async () => {
    const { email } = await registerCustomer(t.server);
    const attacker: number[] = [];
    for (let round = 0; round < 12; round++) {
      for (let i = 0; i < 3; i++)
        attacker.push((await signIn(t, email, `guess-${round}-${i}`, ATTACKER)).statusCode);
      const owner = await signIn(t, email, PASSWORD, OWNER);
      expect(owner.statusCode, owner.body).toBe(200);
    }
    // The attacker got its free failures, then mostly waits: 401 three times, then 429 (one more guess
    // each time a wait, 2 s then 4 s, is over — none on a quick machine).
    expect(attacker.slice(0, 4)).toEqual([401, 401, 401, 429]);
    expect(attacker.filter((s) => s === 401).length).toBeLessThanOrEqual(5);
    expect(attacker.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // Even the right password is refused from the failing address while it must wait.
    const held = await signIn(t, email, PASSWORD, ATTACKER);
    expect(held.statusCode).toBe(429);
    expect(json<{ code: string }>(held).code).toBe('rate_limited');
    expect(Number(held.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('each further failure from that address doubles its wait', async () => {
    const { email } = await registerCustomer(t.server);
    const address = '203.0.113.20';
    for (let i = 0; i < 3; i++) expect((await signIn(t, email, 'nope', address)).statusCode).toBe(401);
    const first = await signIn(t, email, 'nope', address);
    expect(first.statusCode).toBe(429);
    expect(Number(first.headers['retry-after'])).toBe(2);
    // Once the wait is over the next wrong password is answered (401) and the wait doubles.
    expect((await waitUntilFree(t, email, address)).statusCode).toBe(401);
    const second = await signIn(t, email, 'nope', address);
    expect(second.statusCode).toBe(429);
    expect(Number(second.headers['retry-after'])).toBe(4);
    // The owner, elsewhere, is not concerned.
    expect((await signIn(t, email, PASSWORD, OWNER)).statusCode).toBe(200);
  });

  it('tells the owner how many attempts failed since the last sign-in', async () => {
    const { email } = await registerCustomer(t.server);
    expect(json<CustomerAuthResponse>(await signIn(t, email, PASSWORD, OWNER)).failedSignIns).toBe(0);
    for (let i = 0; i < 2; i++)
      expect((await signIn(t, email, 'wrong', ATTACKER.replace(/\d+$/, `${40 + i}`))).statusCode).toBe(401);
    expect((await signIn(t, email.toUpperCase(), 'wrong', '203.0.113.50')).statusCode).toBe(401);
    const next = json<CustomerAuthResponse>(await signIn(t, email, PASSWORD, OWNER));
    expect(next.failedSignIns).toBe(3);
    expect(json<CustomerAuthResponse>(await signIn(t, email, PASSWORD, OWNER)).failedSignIns).toBe(0);
  });

  it("does not report the owner's own typo from the address they then sign in from", async () => {
    const { email } = await registerCustomer(t.server);
    expect((await signIn(t, email, 'wrong', ATTACKER)).statusCode).toBe(401);
    expect((await signIn(t, email, 'typo', OWNER)).statusCode).toBe(401);
    expect(json<CustomerAuthResponse>(await signIn(t, email, PASSWORD, OWNER)).failedSignIns).toBe(1);
  });

  it('from many addresses: each failing address is slowed at once, the owner never', async () => {
    const { email } = await registerCustomer(t.server);
    // Nine addresses fail once each: the account (threshold 8) is under attack from then on.
    for (let i = 0; i < 9; i++)
      expect((await signIn(t, email, 'wrong', `192.0.2.${i + 1}`)).statusCode).toBe(401);
    // An address's second try on this account must now wait (it had 3 free failures otherwise).
    expect((await signIn(t, email, 'wrong', '192.0.2.1')).statusCode).toBe(401);
    expect((await signIn(t, email, 'wrong', '192.0.2.1')).statusCode).toBe(429);
    expect((await signIn(t, email, 'wrong', '192.0.2.100')).statusCode).toBe(401);
    expect((await signIn(t, email, 'wrong', '192.0.2.100')).statusCode).toBe(429);
    const owner = await signIn(t, email, PASSWORD, OWNER);
    expect(owner.statusCode).toBe(200);
    expect(json<CustomerAuthResponse>(owner).failedSignIns).toBe(11);
  });

  it('an address failing on many accounts waits for all of them', async () => {
    const address = '203.0.113.77';
    const accounts = await Promise.all([1, 2, 3].map(() => registerCustomer(t.server)));
    const statuses: number[] = [];
    for (const { email } of accounts)
      for (let i = 0; i < 2; i++) statuses.push((await signIn(t, email, 'wrong', address)).statusCode);
    // Six failures (the address's free ones, two per account), then every account refuses it…
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401]);
    for (const { email } of accounts)
      expect((await signIn(t, email, PASSWORD, address)).statusCode).toBe(429);
    // …but not their owners.
    for (const { email } of accounts) expect((await signIn(t, email, PASSWORD, OWNER)).statusCode).toBe(200);
  });
});

describe(`email sign-in throttling across processes (${testDialect}, redis)`, () => {
  // Two apps on one database and one Redis, as two processes behind a balancer.
  const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';
  const env = {
    AUTH_METHODS: 'email',
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `test-${randomBytes(6).toString('hex')}:`,
  };
  let db: TestDatabase;
  let a: SyncTestApp;
  let b: SyncTestApp;
  beforeAll(async () => {
    db = await createTestDatabase();
    const deps = { accounts: { passwordCost: TEST_PASSWORD_COST, rateLimits: rules } };
    a = await startSyncApp({ env, deps, db });
    b = await startSyncApp({ env, deps, db });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.destroy();
  });

  it('failures counted by one process make the address wait at the other', async () => {
    const { email } = await registerCustomer(a.server);
    for (let i = 0; i < 3; i++)
      expect((await signIn(i % 2 ? a : b, email, 'wrong', ATTACKER)).statusCode).toBe(401);
    expect((await signIn(b, email, 'wrong', ATTACKER)).statusCode).toBe(429);
    expect((await signIn(a, email, 'wrong', ATTACKER)).statusCode).toBe(429);
    const owner = await signIn(b, email, PASSWORD, OWNER);
    expect(owner.statusCode).toBe(200);
    expect(json<CustomerAuthResponse>(owner).failedSignIns).toBe(3);
  });
});
