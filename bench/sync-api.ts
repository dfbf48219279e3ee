/**
 * Sync API throughput: the production server (node apps/server/dist/main.js, built first if needed) on SQLite and on PostgreSQL, loaded on
 * 127.0.0.1 with autocannon for GET /users/{id}/bookmarks, PUT /users/{id}/progress/{tmdbId} and
 * GET /users/{id}/progress. Requests rotate over 20 accounts (50 bookmarks and 100 progress rows each).
 * Prints req/s, p50/p99 latency and the server's peak RSS under load. ~5 s per case.
 * Run: node --import tsx bench/sync-api.ts   (PostgreSQL: BENCH_DATABASE_URL or 127.0.0.1:5432/test)
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { registerAccount } from './support/accounts.ts';
import { ensureBuilt, ROOT, SERVER_COMMAND } from './support/server.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const USERS = 20;
const pgAdminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

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

async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(SERVER_COMMAND[0]!, SERVER_COMMAND.slice(1), {
    cwd: ROOT,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      CAPTCHA_PROVIDER: 'none',
      TRUST_PROXY: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

const rssMb = (pid: number) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
};

interface Account {
  id: string;
  token: string;
}

async function seed(url: string): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let u = 0; u < USERS; u++) {
    const done = await registerAccount(url, u);
    const headers = { authorization: `Bearer ${done.token}`, 'content-type': 'application/json' };
    const bookmarks = Array.from({ length: 50 }, (_, i) => ({
      tmdbId: String(1000 + i),
      meta: {
        title: `Movie ${i}`,
        year: 2000 + (i % 25),
        poster: `/api/images/w342/p${i}.jpg`,
        type: i % 3 ? 'movie' : 'show',
      },
    }));
    await fetch(`${url}/users/${done.id}/bookmarks`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(bookmarks),
    });
    const progress = Array.from({ length: 100 }, (_, i) => ({
      tmdbId: String(2000 + (i % 10)),
      meta: { title: `Show ${i % 10}`, year: 2010, type: 'show' },
      duration: 2700,
      watched: 60 * (i % 40),
      seasonId: `s${Math.floor(i / 10)}`,
      episodeId: `e${i}`,
      seasonNumber: 1 + Math.floor(i / 10),
      episodeNumber: 1 + (i % 10),
      updatedAt: new Date(Date.now() - i * 60_000).toISOString(),
    }));
    await fetch(`${url}/users/${done.id}/progress/import`, {
      method: 'PUT',
      headers,
      body: JSON.stringify(progress),
    });
    accounts.push(done);
  }
  return accounts;
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  rss: number;
}

async function load(
  url: string,
  pid: number,
  accounts: Account[],
  kind: 'bookmarks' | 'put-progress' | 'progress',
): Promise<Figures> {
  let n = 0;
  let peak = rssMb(pid);
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 100);
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: DURATION_S,
    requests: [
      {
        setupRequest: (req) => {
          const a = accounts[n++ % accounts.length]!;
          const headers = {
            ...req.headers,
            authorization: `Bearer ${a.token}`,
            'content-type': 'application/json',
          };
          if (kind === 'bookmarks')
            return { ...req, method: 'GET', path: `/users/${a.id}/bookmarks`, headers };
          if (kind === 'progress') return { ...req, method: 'GET', path: `/users/${a.id}/progress`, headers };
          // The player saves every few seconds: one episode's position, moving forward.
          return {
            ...req,
            method: 'PUT',
            path: `/users/${a.id}/progress/3000`,
            headers,
            body: JSON.stringify({
              tmdbId: '3000',
              meta: { title: 'Bench show', year: 2020, type: 'show' },
              duration: 2700,
              watched: n % 2700,
              seasonId: 's1',
              episodeId: `e${n % 5}`,
              seasonNumber: 1,
              episodeNumber: 1 + (n % 5),
            }),
          };
        },
      },
    ],
  });
  clearInterval(sampler);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.non2xx + result.errors + result.timeouts,
    rss: peak,
  };
}

async function runCase(label: string, env: Record<string, string>, cleanup: () => Promise<void>) {
  const { url, child } = await startServer(env);
  try {
    const accounts = await seed(url);
    for (const kind of ['bookmarks', 'put-progress', 'progress'] as const) {
      const f = await load(url, child.pid!, accounts, kind);
      const name = {
        bookmarks: 'GET  /users/{id}/bookmarks',
        'put-progress': 'PUT  /users/{id}/progress/{tmdbId}',
        progress: 'GET  /users/{id}/progress',
      }[kind];
      console.log(
        `${label.padEnd(10)} ${name.padEnd(36)} ${f.rps.toFixed(0).padStart(7)} req/s   p50 ${String(f.p50).padStart(3)} ms   p99 ${String(f.p99).padStart(3)} ms   RSS ${f.rss.toFixed(0)} MB${f.errors ? `   non-2xx/errors ${f.errors}` : ''}`,
      );
    }
  } finally {
    // The bench's own keep-alive connections can hold a graceful close for its full 10 s grace period.
    child.kill('SIGTERM');
    const exited = new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    await exited;
    clearTimeout(timer);
    await cleanup();
  }
}

ensureBuilt();
console.log(
  `sync API, ${CONNECTIONS} connections, ${DURATION_S} s per case, ${USERS} accounts (50 bookmarks, 100 progress rows each)`,
);
const sqliteDir = mkdtempSync(path.join(tmpdir(), 'marquee-bench-'));
await runCase('sqlite', { DATA_DIR: sqliteDir, WEB_DIST_DIR: path.join(sqliteDir, 'none') }, async () =>
  rmSync(sqliteDir, { recursive: true, force: true }),
);

const dbName = `mq_bench_${randomBytes(4).toString('hex')}`;
const admin = new pg.Client({ connectionString: pgAdminUrl });
try {
  await admin.connect();
} catch (error) {
  console.log(`postgres   skipped: no PostgreSQL at ${pgAdminUrl} (${String(error)})`);
  process.exit(0);
}
await admin.query(`CREATE DATABASE ${dbName}`);
const pgUrl = new URL(pgAdminUrl);
pgUrl.pathname = `/${dbName}`;
const pgDir = mkdtempSync(path.join(tmpdir(), 'marquee-bench-'));
await runCase(
  'postgres',
  { DATABASE_URL: pgUrl.toString(), DATA_DIR: pgDir, WEB_DIST_DIR: path.join(pgDir, 'none') },
  async () => {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
    rmSync(pgDir, { recursive: true, force: true });
  },
);
