import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKeys, newMnemonic } from './passphrase-client.ts';
import { testDatabaseUrl, testRedisUrl } from './test-database.ts';

/*
 * Two real server processes (node src/main.ts) on one PostgreSQL database and one Redis, as a larger
 * instance runs behind a load balancer. This test always runs: it uses TEST_DATABASE_URL /
 * TEST_REDIS_URL when set, else the PostgreSQL and Redis that CI and developer machines run at
 * 127.0.0.1, and fails loudly if they are not there. It creates its own database.
 */
const adminUrl = testDatabaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = testRedisUrl ?? 'redis://127.0.0.1:6379';
const serverDir = path.resolve(import.meta.dirname, '..');

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

interface Proc {
  url: string;
  child: ChildProcess;
  output: string[];
}

async function startServer(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d: Buffer) => output.push(d.toString()));
  child.stderr!.on('data', (d: Buffer) => output.push(d.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited ${child.exitCode}: ${output.join('')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child, output };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${output.join('')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('two server processes on one PostgreSQL + Redis', () => {
  const dbName = `mq_mp_${randomBytes(5).toString('hex')}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-mp-'));
  let a: Proc;
  let b: Proc;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect().catch((error: unknown) => {
      throw new Error(`PostgreSQL is required at ${adminUrl} (CI runs it): ${String(error)}`);
    });
    await admin.query(`CREATE DATABASE ${dbName}`);
    await admin.end();
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${dbName}`;
    const env = {
      DATABASE_URL: databaseUrl.toString(),
      REDIS_URL: redisUrl,
      REDIS_PREFIX: `mp-${dbName}:`,
      // Behind a load balancer: the client address comes from X-Forwarded-For.
      TRUST_PROXY: 'true',
      DATA_DIR: dataDir,
      CAPTCHA_PROVIDER: 'none',
      WEB_DIST_DIR: path.join(dataDir, 'no-web'),
    };
    // Started one after the other: the first runs the migrations.
    a = await startServer(env);
    b = await startServer(env);
  }, 120_000);

  afterAll(async () => {
    for (const p of [a, b]) {
      if (!p) continue;
      p.child.kill('SIGTERM');
      await new Promise((r) => (p.child.exitCode !== null ? r(null) : p.child.once('exit', r)));
    }
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }, 60_000);

  const post = (base: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${base}${p}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('a bookmark written through one process is read through the other; sessions are shared', async () => {
    const keys = deriveKeys(newMnemonic());
    const { challenge } = (await (await post(a.url, '/auth/register/start', {})).json()) as {
      challenge: string;
    };
    // The challenge issued by A is completed through B.
    const done = await post(b.url, '/auth/register/complete', {
      namespace: 'movie-web',
      publicKey: keys.publicKey,
      challenge: { code: challenge, signature: keys.sign(challenge) },
      device: keys.encryptDevice('Phone'),
      profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
    });
    expect(done.status).toBe(200);
    const { user, session, token } = (await done.json()) as {
      user: { id: string };
      session: { id: string };
      token: string;
    };
    const auth = { authorization: `Bearer ${token}` };
    const add = await post(
      a.url,
      `/users/${user.id}/bookmarks/603`,
      { tmdbId: '603', meta: { title: 'The Matrix', year: 1999, type: 'movie' } },
      auth,
    );
    expect(add.status).toBe(200);
    const list = (await (await fetch(`${b.url}/users/${user.id}/bookmarks`, { headers: auth })).json()) as {
      tmdbId: string;
    }[];
    expect(list.map((x) => x.tmdbId)).toEqual(['603']);
    // Signing out through B ends the session on A too.
    expect((await fetch(`${b.url}/sessions/${session.id}`, { method: 'DELETE', headers: auth })).status).toBe(
      200,
    );
    expect((await fetch(`${a.url}/users/@me`, { headers: auth })).status).toBe(401);
  });

  it('a rate limit counts across both processes', async () => {
    const statuses: number[] = [];
    // register_challenge_tokens allows 10 per 10 minutes per client IP; alternate between the processes.
    // (One client address for this test: the servers trust X-Forwarded-For, as behind a load balancer.)
    const client = { 'x-forwarded-for': '203.0.113.7' };
    for (let i = 0; i < 12; i++)
      statuses.push((await post(i % 2 ? b.url : a.url, '/auth/register/start', {}, client)).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
  });
});
