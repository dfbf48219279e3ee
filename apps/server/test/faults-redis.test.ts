import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CircuitBreaker, type BreakerState } from '../src/plugins/redis.ts';
import { PASSWORD, registerCustomer, TEST_PASSWORD_COST } from './customer-harness.ts';
import { eventually, percentile, RedisChild } from './faults-harness.ts';
import { startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * Decision 070: with Redis down, sign-in, registration, imports, promo look-ups and payments took ~15 s
 * each. Redis here is a redis-server of this test's own, killed (like a crash) and started again.
 */
describe(`Redis failing under load (${testDialect})`, () => {
  let redis: RedisChild;
  let t: SyncTestApp;
  let inspect: Redis;
  const prefix = `faults-${randomBytes(5).toString('hex')}:`;

  beforeAll(async () => {
    redis = await RedisChild.start();
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email', REDIS_URL: redis.url, REDIS_PREFIX: prefix },
      deps: {
        accounts: {
          passwordCost: TEST_PASSWORD_COST,
          rateLimits: {
            // Many sign-ins from one test address; the brute-force rules keep their shape.
            customer_login: { points: 100_000, durationMs: 60_000 },
            customer_login_email: { points: 3, durationMs: 60_000 },
            captcha_solves: { points: 1, durationMs: 60_000 },
          },
        },
      },
    });
    inspect = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false });
    inspect.on('error', () => undefined); // it loses Redis too, on purpose
  });
  afterAll(async () => {
    inspect?.disconnect();
    await t?.close();
    await redis?.stop();
  });

  const signIn = (email: string, password = PASSWORD, address = '198.51.100.1') =>
    t.server.inject({
      method: 'POST',
      url: '/customers/auth',
      remoteAddress: address,
      payload: { email, password },
    });

  /** `workers` sign-ins at a time until `count` are done: each one's duration and status. */
  async function load(email: string, count: number, workers = 4) {
    const results: { ms: number; status: number }[] = [];
    let started = 0;
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (started < count) {
          started++;
          const t0 = performance.now();
          const res = await signIn(email);
          results.push({ ms: performance.now() - t0, status: res.statusCode });
        }
      }),
    );
    return results;
  }

  const counters = async () => {
    if (inspect.status !== 'ready') await inspect.connect().catch(() => undefined);
    return inspect.keys(`${prefix}rl:*`);
  };
  const readiness = async () => {
    const res = await t.server.inject({ method: 'GET', url: '/readyz' });
    return {
      status: res.statusCode,
      body: JSON.parse(res.body) as { checks: Record<string, { status: string; reason?: string }> },
    };
  };

  it('stopping Redis adds < 200 ms to sign-in, limits go on in this process, and Redis is used again once back', async () => {
    const { email } = await registerCustomer(t.server);
    // Warm up, then the same load with Redis up and with Redis gone.
    await load(email, 8);
    expect(await counters()).not.toHaveLength(0);
    expect((await readiness()).status).toBe(200);
    const before = await load(email, 60);
    expect(before.every((r) => r.status === 200)).toBe(true);

    // Killed while sign-ins are running.
    const running = load(email, 60);
    await redis.stop();
    const during = await running;
    const after = await load(email, 60);
    expect([...during, ...after].filter((r) => r.status !== 200)).toEqual([]);
    const ms = (rs: { ms: number }[]) => rs.map((r) => r.ms);
    console.info(
      `sign-in p95 / max (ms): Redis up ${percentile(ms(before), 95).toFixed(1)} / ${Math.max(...ms(before)).toFixed(1)}, ` +
        `while it stopped ${percentile(ms(during), 95).toFixed(1)} / ${Math.max(...ms(during)).toFixed(1)}, ` +
        `Redis down ${percentile(ms(after), 95).toFixed(1)} / ${Math.max(...ms(after)).toFixed(1)}`,
    );
    expect(percentile(ms(after), 95)).toBeLessThan(percentile(ms(before), 95) + 200);
    // Not one request waited for a Redis timeout or reconnection (they took ~15 s).
    expect(Math.max(...ms(during), ...ms(after))).toBeLessThan(Math.max(...ms(before)) + 200);

    // Registration goes through the same limits: no wait either.
    for (let i = 0; i < 3; i++) {
      const t0 = performance.now();
      await registerCustomer(t.server, {
        email: `outage-${i}-${randomBytes(3).toString('hex')}@example.org`,
      });
      expect(performance.now() - t0).toBeLessThan(Math.max(...ms(before)) + 200);
    }

    // The readiness check says which dependency is down and why; the database is fine.
    const down = await readiness();
    expect(down.status).toBe(503);
    expect(down.body.checks.database).toEqual({ status: 'ok' });
    expect(down.body.checks.redis?.status).toBe('down');
    expect(down.body.checks.redis?.reason).toMatch(/\w/);

    // Fail closed for password guessing: this process's counters still make the failing address wait.
    const guesses: number[] = [];
    for (let i = 0; i < 5; i++) guesses.push((await signIn(email, `guess-${i}`, '203.0.113.66')).statusCode);
    expect(guesses).toEqual([401, 401, 401, 429, 429]);
    // Fail open for a capacity-only bucket (captcha solve reports, 1 allowed here): not counted.
    for (let i = 0; i < 3; i++) {
      const report = await t.server.inject({
        method: 'POST',
        url: '/metrics/captcha',
        payload: { success: true },
      });
      expect(report.statusCode).toBe(200);
    }

    // Redis comes back: without a restart of ours, counters are shared in Redis again.
    await redis.start();
    await eventually('rate limits back in Redis', async () => {
      expect((await signIn(email)).statusCode).toBe(200);
      return (await counters()).length > 0 ? true : undefined;
    });
    await eventually('readiness', async () => ((await readiness()).status === 200 ? true : undefined));
    const reports = [];
    for (let i = 0; i < 2; i++)
      reports.push(
        (await t.server.inject({ method: 'POST', url: '/metrics/captcha', payload: { success: true } }))
          .statusCode,
      );
    expect(reports).toEqual([200, 429]);
  });
});

describe('circuit breaker', () => {
  it('opens after failures in a row, sends one probe after the cool-off, and closes when it succeeds', async () => {
    let now = 0;
    const changes: BreakerState[] = [];
    const breaker = new CircuitBreaker({
      failureThreshold: 3,
      coolOffMs: 1_000,
      now: () => now,
      onChange: (s) => changes.push(s),
    });
    let storeUp = false;
    const calls: string[] = [];
    const call = () => {
      calls.push('store');
      return storeUp ? Promise.resolve('store') : Promise.reject(new Error('down'));
    };
    const fallback = () => Promise.resolve('fallback');
    for (let i = 0; i < 3; i++) expect(await breaker.run(call, fallback)).toBe('fallback');
    expect(breaker.state).toBe('open');
    // Open: the store is not even tried.
    expect(await breaker.run(call, fallback)).toBe('fallback');
    expect(calls).toHaveLength(3);
    // After the cool-off one call probes; concurrent ones keep to the fallback.
    now = 1_000;
    storeUp = true;
    let release!: () => void;
    const slow = () => new Promise<string>((resolve) => (release = () => resolve('store')));
    const probe = breaker.run(slow, fallback);
    expect(breaker.state).toBe('half-open');
    expect(await breaker.run(call, fallback)).toBe('fallback');
    release();
    expect(await probe).toBe('store');
    expect(breaker.state).toBe('closed');
    expect(await breaker.run(call, fallback)).toBe('store');
    // A failed probe opens it for another cool-off; a store known to be down is not tried.
    storeUp = false;
    for (let i = 0; i < 3; i++) await breaker.run(call, fallback);
    now = 2_500;
    expect(await breaker.run(call, fallback, () => false)).toBe('fallback');
    expect(breaker.state).toBe('open');
    expect(changes).toEqual(['open', 'half-open', 'closed', 'open', 'half-open', 'open']);
  });
});
