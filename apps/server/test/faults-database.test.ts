import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiErrorBody } from '@marquee/contract';
import { buildApp, type App } from '../src/app.ts';
import { migrateToLatest, openDatabase, SQLITE_FILE, type DatabaseHandle } from '../src/db/database.ts';
import { PASSWORD, registerCustomer, TEST_PASSWORD_COST, uniqueEmail } from './customer-harness.ts';
import { CuttableProxy, eventually, startServerProcess, type ServerProcess } from './faults-harness.ts';
import { testConfig } from './sync-harness.ts';
import { testDatabaseUrl } from './test-database.ts';

/*
 * Decision 070: one PostgreSQL connection reset made every server process exit, and while the database
 * refused connections routes answered 500. These tests always run: on PostgreSQL (TEST_DATABASE_URL, else
 * the one CI and developer machines run at 127.0.0.1, as multi-process.test.ts) and on SQLite.
 */
const adminUrl = testDatabaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Readiness {
  status: string;
  checks: Record<string, { status: string; reason?: string }>;
}

function expectUnavailable(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const body = JSON.parse(res.body) as ApiErrorBody;
  expect(body).toMatchObject({ errorType: 'message', code: 'database_unavailable' });
}

async function adminQuery(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect().catch((error: unknown) => {
    throw new Error(`PostgreSQL is required at ${adminUrl} (CI runs it): ${String(error)}`);
  });
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

describe('PostgreSQL connections reset under load (two server processes)', () => {
  const dbName = `mq_faults_${randomBytes(5).toString('hex')}`;
  // Our backends carry this name: only they are terminated, never other tests'.
  const appName = `marquee-faults-${randomBytes(4).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-faults-'));
  const servers: ServerProcess[] = [];

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${dbName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${dbName}`;
    url.searchParams.set('application_name', appName);
    const env = {
      DATABASE_URL: url.toString(),
      REDIS_URL: '',
      DATA_DIR: dataDir,
      AUTH_METHODS: 'email',
      CAPTCHA_PROVIDER: 'none',
      WEB_DIST_DIR: '/nonexistent',
    };
    // One after the other: both would run the migrations at once otherwise (safe, but slower).
    servers.push(await startServerProcess(env));
    servers.push(await startServerProcess(env));
  }, 120_000);

  afterAll(async () => {
    for (const s of servers) await s.stop();
    await adminQuery(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [dbName]);
    await adminQuery(`DROP DATABASE IF EXISTS ${dbName}`);
    rmSync(dataDir, { recursive: true, force: true });
  });

  const terminate = async () =>
    (
      await adminQuery(
        `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1`,
        [appName],
      )
    ).rowCount ?? 0;

  it('terminated backends leave every process serving: 503 with Retry-After meanwhile, never 500', async () => {
    const [a] = servers;
    const email = uniqueEmail();
    const registered = await fetch(`${a!.url}/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fullname: 'Ada', email, password: PASSWORD }),
    });
    expect(registered.status).toBe(200);
    const signIn = await fetch(`${a!.url}/customers/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: PASSWORD }),
    });
    const { token } = (await signIn.json()) as { token: string };
    const me = (url: string) => fetch(`${url}/customers`, { headers: { authorization: `Bearer ${token}` } });

    // Load on both processes (every request reads the session, user, profiles and membership)…
    const answers: { status: number; code?: string; retryAfter: string | null }[] = [];
    let stop = false;
    const workers = servers.flatMap((s) =>
      [0, 1, 2].map(async () => {
        while (!stop) {
          const res = await me(s.url);
          const body = (await res.json()) as { code?: string };
          answers.push({ status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') });
        }
      }),
    );
    // …while their backends are terminated, three times over.
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      const seen = answers.length;
      await eventually('requests between resets', async () =>
        answers.length >= seen + 30 ? true : undefined,
      );
      terminated += await terminate();
    }
    const seen = answers.length;
    await eventually('requests after the resets', async () =>
      answers.length >= seen + 60 ? true : undefined,
    );
    stop = true;
    await Promise.all(workers);

    expect(terminated).toBeGreaterThan(0);
    for (const s of servers) expect(s.alive(), s.output.join('')).toBe(true);
    const failed = answers.filter((x) => x.status !== 200);
    // A request whose query was cut answers 503 database_unavailable with Retry-After; nothing else fails.
    for (const f of failed)
      expect(f).toMatchObject({ status: 503, code: 'database_unavailable', retryAfter: '5' });
    expect(answers.slice(-30).every((x) => x.status === 200)).toBe(true);

    // Idle connections cut too (nothing running): the next requests get new ones.
    expect(await terminate()).toBeGreaterThan(0);
    for (const s of servers) {
      await eventually('a served request after an idle reset', async () =>
        (await me(s.url)).status === 200 ? true : undefined,
      );
      expect(s.alive()).toBe(true);
      expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    }
  });
});

describe('PostgreSQL unreachable, then back', () => {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  let proxy: CuttableProxy;
  let database: DatabaseHandle;
  let app: App;

  beforeAll(async () => {
    await adminQuery(`CREATE SCHEMA ${schema}`);
    const target = new URL(adminUrl);
    proxy = await CuttableProxy.start({ host: target.hostname, port: Number(target.port || 5432) });
    database = await openDatabase({
      databaseUrl: proxy.via(adminUrl),
      pgSchema: schema,
      dataDir: '/tmp',
      connectTimeoutMs: 1_000,
    });
    await migrateToLatest(database.db, { schema });
    app = await buildApp(testConfig({ AUTH_METHODS: 'email', REDIS_URL: '' }), {
      database,
      logger: false,
      accounts: { passwordCost: TEST_PASSWORD_COST },
    });
    await app.server.ready();
  });
  afterAll(async () => {
    await app?.server.close();
    await proxy?.restore();
    await database?.destroy();
    await adminQuery(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await proxy?.cut();
  });

  it('answers 503 with Retry-After (not 500), readiness says the database is down and why, and recovers by itself', async () => {
    const { email } = await registerCustomer(app.server);
    const signIn = () =>
      app.server.inject({ method: 'POST', url: '/customers/auth', payload: { email, password: PASSWORD } });
    const signedIn = await signIn();
    expect(signedIn.statusCode).toBe(200);
    const token = (JSON.parse(signedIn.body) as { token: string }).token;
    const me = () =>
      app.server.inject({ method: 'GET', url: '/customers', headers: { authorization: `Bearer ${token}` } });

    await proxy.cut();
    const started = performance.now();
    const answers: LightMyRequestResponse[] = [
      await me(),
      await signIn(),
      await app.server.inject({
        method: 'POST',
        url: '/customers',
        payload: { fullname: 'Bo', email: uniqueEmail(), password: PASSWORD },
      }),
      await app.server.inject({
        method: 'GET',
        url: `/users/${'x'.repeat(12)}/progress`,
        headers: { authorization: `Bearer ${token}` },
      }),
    ];
    for (const res of answers) expectUnavailable(res);
    // Failing fast: a refused connection is not waited for (connect timeout 1 s at most).
    expect(performance.now() - started).toBeLessThan(answers.length * 1_500);

    // Liveness stays up (restarting the process would not help); readiness names the database.
    expect((await app.server.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    const ready = await app.server.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(503);
    expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    const readiness = JSON.parse(ready.body) as Readiness;
    expect(readiness.status).toBe('unavailable');
    expect(readiness.checks.database).toEqual({ status: 'down', reason: 'ECONNREFUSED' });

    await proxy.restore();
    await eventually('the database back', async () => ((await me()).statusCode === 200 ? true : undefined));
    expect((await signIn()).statusCode).toBe(200);
    const back = JSON.parse((await app.server.inject({ method: 'GET', url: '/readyz' })).body) as Readiness;
    expect(back).toEqual({ status: 'ready', checks: { database: { status: 'ok' } } });
  });
});

describe('SQLite locked by another writer', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-faults-sqlite-'));
  let database: DatabaseHandle;
  let app: App;
  let other: SQLite.Database;

  beforeAll(async () => {
    database = await openDatabase({ dataDir, busyTimeoutMs: 100 });
    await migrateToLatest(database.db);
    app = await buildApp(testConfig({ AUTH_METHODS: 'email', REDIS_URL: '' }), {
      database,
      logger: false,
      accounts: { passwordCost: TEST_PASSWORD_COST },
    });
    await app.server.ready();
    other = new SQLite(path.join(dataDir, SQLITE_FILE));
  });
  afterAll(async () => {
    other?.close();
    await app?.server.close();
    await database?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a write that cannot get the lock in time answers 503 with Retry-After, and works once the lock is free', async () => {
    const { email } = await registerCustomer(app.server);
    const signIn = () =>
      app.server.inject({ method: 'POST', url: '/customers/auth', payload: { email, password: PASSWORD } });
    other.exec('BEGIN IMMEDIATE');
    other.prepare('DELETE FROM sessions WHERE 0').run();
    expectUnavailable(await signIn());
    other.exec('COMMIT');
    expect((await signIn()).statusCode).toBe(200);
    const ready = JSON.parse((await app.server.inject({ method: 'GET', url: '/readyz' })).body) as Readiness;
    expect(ready).toEqual({ status: 'ready', checks: { database: { status: 'ok' } } });
  });
});
