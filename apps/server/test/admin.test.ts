import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SelfTestResponse } from '@marquee/contract';
import { runAdminCommand } from '../src/cli/admin.ts';
import { NoCaptcha } from '../src/modules/captcha/captcha.service.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { signUp, registerCustomer, TEST_PASSWORD_COST } from './customer-harness.ts';
import { DEFAULT_CRYPTOS, FakeShkeeper } from './fake-shkeeper.ts';
import { FAKE_TMDB_READ_TOKEN, startFakeTmdbPair } from './fake-tmdb.ts';
import { register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect, testRedisUrl } from './test-database.ts';

const SECRET = 'captcha-secret-never-shown';
const byId = (r: SelfTestResponse, id: string) => r.checks.find((c) => c.id === id)!;

describe(`admin self-test (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        ALLOW_SIMULATED_PAYMENTS: 'true',
        AUTH_METHODS: 'email,passphrase',
        ADMIN_EMAILS: 'ops@example.org',
        CAPTCHA_PROVIDER: 'altcha',
        CAPTCHA_SECRET: SECRET,
      },
      // The captcha is configured (and reported), but these sign-ups need not solve it.
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST, captcha: new NoCaptcha() } },
    });
  });
  afterAll(async () => t.close());

  it('reports every check with pass/fail and a reason, and never a secret', async () => {
    const admin = await signUp(t.server, { email: 'ops@example.org' });
    const res = await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: admin.headers });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.body).not.toContain(SECRET);
    const report = res.json() as SelfTestResponse;
    expect(report.ok).toBe(true);
    for (const check of report.checks) {
      expect(['pass', 'fail', 'skip']).toContain(check.status);
      expect(check.reason.length).toBeGreaterThan(5);
    }
    expect(byId(report, 'config')).toMatchObject({ status: 'pass' });
    expect(byId(report, 'config').reason).toMatch(/payments are simulated/);
    expect(byId(report, 'database')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(testDialect === 'postgres' ? /^PostgreSQL answers/ : /^SQLite answers/),
    });
    // The one account signed up above, in the singular (not "1 accounts").
    expect(byId(report, 'database').reason).toMatch(/; 1 account$/);
    // ALTCHA: /meta tells existing clients there is no captcha they must solve (decision 015).
    expect(byId(report, 'account-backend').reason).toMatch(/version \d+\.\d+\.\d+$/);
    expect(byId(report, 'metadata')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(/^Embedded catalog loaded: \d{3} movies, \d+ shows/),
    });
    // No TMDB, no TMDB figures.
    expect(report.tmdb).toBeNull();
    expect(byId(report, 'redis').status).toBe(testRedisUrl ? 'pass' : 'skip');
    expect(byId(report, 'payment-gateway')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(/^Simulated gateway/),
    });
    expect(byId(report, 'source:sample')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(/^Answers: .* for The Matrix \(1999\)/),
    });
    expect(report.checks.filter((c) => c.id.startsWith('embed:')).every((c) => c.status === 'pass')).toBe(
      true,
    );
    expect(report.config).toMatchObject({
      variant: 'subscription',
      captchaProvider: 'altcha',
      captchaSecret: 'set',
      shkeeperApiKey: 'not set',
      paymentGateway: 'simulated',
    });
  });

  it('is for admins of either account kind: 401 anonymous, 403 others, passphrase admins by the operator command', async () => {
    expect((await t.server.inject({ method: 'GET', url: '/api/admin/self-test' })).statusCode).toBe(401);
    const viewer = await signUp(t.server);
    const refused = await t.server.inject({
      method: 'GET',
      url: '/api/admin/self-test',
      headers: viewer.headers,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('forbidden');
    const p = await register(t.server);
    expect(
      (await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: p.headers })).statusCode,
    ).toBe(403);
    const out: string[] = [];
    expect(await runAdminCommand(['grant', p.user.id], t.db.db, (l) => out.push(l))).toBe(0);
    expect(
      (await t.server.inject({ method: 'GET', url: '/api/admin/self-test', headers: p.headers })).statusCode,
    ).toBe(200);
    expect(
      (await t.server.inject({ method: 'GET', url: '/users/@me', headers: p.headers })).json().user.roles,
    ).toEqual(['admin']);
  });
});

describe(`self-test of SHKeeper and TMDB (${testDialect})`, () => {
  let fake: FakeShkeeper;
  let tmdb: Awaited<ReturnType<typeof startFakeTmdbPair>>;
  beforeAll(async () => {
    fake = new FakeShkeeper('right-key', DEFAULT_CRYPTOS);
    await fake.start();
    tmdb = await startFakeTmdbPair();
  });
  afterAll(async () => {
    await fake.stop();
    await tmdb.close();
  });

  async function report(env: Record<string, string>): Promise<SelfTestResponse> {
    const t = await startSyncApp({
      env: {
        VARIANT: 'subscription',
        AUTH_METHODS: 'email',
        ADMIN_EMAILS: 'ops@example.org',
        PAYMENT_GATEWAY: 'shkeeper',
        SHKEEPER_URL: fake.baseUrl,
        ...env,
      },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
    try {
      const admin = await signUp(t.server, { email: 'ops@example.org' });
      const res = await t.server.inject({
        method: 'GET',
        url: '/api/admin/self-test',
        headers: admin.headers,
      });
      expect(res.statusCode).toBe(200);
      return res.json() as SelfTestResponse;
    } finally {
      await t.close();
    }
  }

  it('passes a reachable SHKeeper with the right key and a valid TMDB key', async () => {
    const r = await report({
      SHKEEPER_API_KEY: 'right-key',
      TMDB_API_KEY: FAKE_TMDB_READ_TOKEN,
      TMDB_BASE_URL: tmdb.primary.url,
      TMDB_FALLBACK_URL: tmdb.fallback.url,
    });
    expect(byId(r, 'payment-gateway')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(/API key accepted, 3 cryptocurrencies: BTC, ETH, USDT/),
    });
    expect(byId(r, 'metadata')).toMatchObject({
      status: 'pass',
      reason: expect.stringMatching(/^TMDB accepted the API key/),
    });
    // The self-test's own call is among TMDB's recent calls (start-up asks nothing without a free movie).
    expect(r.tmdb).toMatchObject({ calls: 1, fallbackAnswers: 0, errors: {}, lastError: null });
    expect(r.tmdb?.p50Ms).toEqual(expect.any(Number));
    expect(r.tmdb?.p95Ms).toBeGreaterThanOrEqual(r.tmdb!.p50Ms!);
    expect(JSON.stringify(r)).not.toContain('right-key');
    expect(JSON.stringify(r)).not.toContain(FAKE_TMDB_READ_TOKEN);
  });

  it('fails a wrong SHKeeper key, an unreachable SHKeeper and a refused TMDB key, with the reason', async () => {
    const wrong = await report({
      SHKEEPER_API_KEY: 'wrong-key',
      TMDB_API_KEY: 'not-a-valid-token',
      TMDB_BASE_URL: tmdb.primary.url,
      TMDB_FALLBACK_URL: tmdb.fallback.url,
    });
    expect(wrong.ok).toBe(false);
    expect(byId(wrong, 'payment-gateway')).toMatchObject({
      status: 'fail',
      reason: 'SHKeeper refused the API key: Bad API key',
    });
    expect(byId(wrong, 'metadata').status).toBe('fail');
    expect(wrong.tmdb).toMatchObject({
      calls: 1,
      errors: { metadata_auth_failed: 1 },
      lastError: {
        code: 'metadata_auth_failed',
        message: '/genre/movie/list: primary: HTTP 401 (TMDB code 7)',
      },
    });
    fake.broken = true;
    try {
      const down = await report({ SHKEEPER_API_KEY: 'right-key' });
      expect(byId(down, 'payment-gateway')).toMatchObject({
        status: 'fail',
        reason: expect.stringMatching(/cannot be reached.*HTTP 500/),
      });
    } finally {
      fake.broken = false;
    }
  });
});

describe(`operator command: npm run admin (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({
      env: { AUTH_METHODS: 'email' },
      deps: { accounts: { rateLimits: false, passwordCost: TEST_PASSWORD_COST } },
    });
  });
  afterAll(async () => t.close());

  it('grants and revokes admin by email, lists admins, and explains mistakes', async () => {
    const { email, user } = await registerCustomer(t.server, { email: 'Helper@Example.org' });
    const out: string[] = [];
    const run = (...args: string[]) => runAdminCommand(args, t.db.db, (l) => out.push(l));
    expect(await run('grant', email.toUpperCase())).toBe(0);
    expect(out.at(-1)).toBe('helper@example.org is now an admin');
    expect(await run('grant', email)).toBe(0);
    expect(out.at(-1)).toBe('helper@example.org was already an admin');
    expect(await run('list')).toBe(0);
    expect(out.at(-1)).toBe(`${user.id}\thelper@example.org`);
    const admin = (
      await t.server.inject({
        method: 'POST',
        url: '/customers/auth',
        payload: { email, password: 'correct horse battery' },
      })
    ).json();
    expect(admin.user.isAdmin).toBe(true);
    expect(
      (
        await t.server.inject({
          method: 'GET',
          url: '/promos',
          headers: { authorization: `Bearer ${admin.token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(await run('revoke', email)).toBe(0);
    expect(out.at(-2)).toBe('helper@example.org is no longer an admin');
    expect(
      (
        await t.server.inject({
          method: 'GET',
          url: '/promos',
          headers: { authorization: `Bearer ${admin.token}` },
        })
      ).statusCode,
    ).toBe(403);
    expect(await run('grant', 'nobody@example.org')).toBe(1);
    expect(out.at(-1)).toMatch(/no account nobody@example.org/);
    expect(await run('promote', email)).toBe(2);
    expect(out.at(-1)).toMatch(/^usage: npm run admin -- grant/);
  });

  it('runs as a script against a database file (the operator command)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'marquee-admin-cli-'));
    try {
      const handle = await openDatabase({ dataDir: dir });
      await migrateToLatest(handle.db);
      await handle.db
        .insertInto('users')
        .values({
          id: 'u1',
          namespace: 'email',
          public_key: null,
          email: 'cli@example.org',
          password_hash: null,
          roles: '[]',
          profile: '{}',
          created_at: 1,
          last_logged_in: null,
          fullname: 'Cli',
        })
        .execute();
      await handle.destroy();
      const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
      const run = promisify(execFile);
      const { stdout } = await run(
        path.join(serverDir, 'node_modules/.bin/tsx'),
        ['src/cli/admin.ts', 'grant', 'cli@example.org'],
        {
          cwd: serverDir,
          env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '', LOG_LEVEL: 'silent' },
        },
      ).catch(() =>
        run('npx', ['tsx', 'src/cli/admin.ts', 'grant', 'cli@example.org'], {
          cwd: serverDir,
          env: { ...process.env, DATA_DIR: dir, DATABASE_URL: '' },
        }),
      );
      expect(stdout.trim()).toBe('cli@example.org is now an admin');
      const check = await openDatabase({ dataDir: dir });
      expect(
        (await check.db.selectFrom('users').select('roles').where('id', '=', 'u1').executeTakeFirstOrThrow())
          .roles,
      ).toBe('["admin"]');
      await check.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
