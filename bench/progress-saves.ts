/**
 * Saving progress, Marquee against movie-web backend 1.3.1 on the same PostgreSQL, interleaved.
 *
 * The player saves one position every few seconds; several tabs and devices of one household save to one
 * account. Cases (autocannon on 127.0.0.1, PUT /users/{id}/progress/{tmdbId} with the player's body):
 * - one account, 20 connections (`BENCH_CONNECTIONS`), `BENCH_SECONDS` (5) per run, `BENCH_ROUNDS` (3)
 *   rounds alternating the two servers; median req/s and p50/p99, and the load average around each run;
 * - high load: 200 connections over 20 accounts for 10 s; every save that is not answered 2xx is counted
 *   as refused (the family's clients drop a failed save, so its position is lost).
 *
 * movie-web backend is not part of this repository. Prepare a built copy once and point
 * `BENCH_MOVIE_WEB_DIR` at it (see bench/README.md); without it only Marquee's figures are printed.
 * Run: node --import tsx bench/progress-saves.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { registerAccount, type BenchAccount } from './support/accounts.ts';
import { ensureBuilt, freePort, median, startServer, waitUntilUp } from './support/server.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const HEAVY_CONNECTIONS = 200;
const HEAVY_ACCOUNTS = 20;
const pgAdminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const movieWebDir = process.env.BENCH_MOVIE_WEB_DIR;

interface Target {
  name: string;
  url: string;
  stop(): Promise<void>;
}

const admin = new pg.Client({ connectionString: pgAdminUrl });
await admin.connect();
const databases: string[] = [];
async function freshDatabase(): Promise<string> {
  const name = `mq_bench_${randomBytes(4).toString('hex')}`;
  await admin.query(`CREATE DATABASE ${name}`);
  databases.push(name);
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function startMarquee(): Promise<Target> {
  const server = await startServer({
    DATABASE_URL: await freshDatabase(),
    WEB_DIST_DIR: '/nonexistent',
    // Accounts are made from distinct addresses (X-Forwarded-For), as many households would.
    TRUST_PROXY: 'true',
  });
  return { name: 'marquee', url: server.url, stop: () => server.stop() };
}

async function startMovieWeb(dir: string): Promise<Target> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(dir, 'dist/main.js')], {
    cwd: dir,
    env: {
      ...process.env,
      MWB_POSTGRES__CONNECTION: await freshDatabase(),
      MWB_POSTGRES__MIGRATE_ON_BOOT: 'true',
      MWB_CRYPTO__SESSION_SECRET: randomBytes(24).toString('hex'),
      MWB_META__NAME: 'bench',
      MWB_SERVER__PORT: String(port),
      MWB_SERVER__TRUST_PROXY: 'true',
      MWB_LOGGING__FORMAT: 'json',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  await waitUntilUp(`${url}/meta`, child, performance.now(), 100);
  return {
    name: 'movie-web',
    url,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      if (child.exitCode === null) await exited;
      clearTimeout(timer);
    },
  };
}

interface Run {
  rps: number;
  p50: number;
  p99: number;
  refused: number;
  total: number;
  load: string;
}

/** PUTs of one episode's position, moving forward, rotating over `accounts`. */
async function saves(target: Target, accounts: BenchAccount[], connections: number, seconds: number) {
  let n = 0;
  const before = loadavg()[0]!;
  const result = await autocannon({
    url: target.url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (req) => {
          const a = accounts[n++ % accounts.length]!;
          return {
            ...req,
            method: 'PUT',
            path: `/users/${a.id}/progress/3000`,
            headers: {
              ...req.headers,
              authorization: `Bearer ${a.token}`,
              'content-type': 'application/json',
            },
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
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    refused: result.non2xx + result.errors + result.timeouts,
    total: result.requests.total,
    load: `${before.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`,
  } satisfies Run;
}

const line = (name: string, r: Run) =>
  `  ${name.padEnd(10)} ${r.rps.toFixed(0).padStart(6)} req/s   p50 ${String(r.p50).padStart(4)} ms   p99 ${String(r.p99).padStart(5)} ms   refused ${r.refused}/${r.total}   load ${r.load}`;

ensureBuilt();
const targets = [await startMarquee()];
if (movieWebDir) targets.push(await startMovieWeb(movieWebDir));
else console.log('BENCH_MOVIE_WEB_DIR is not set: Marquee only (see bench/README.md)');
try {
  const accounts = new Map<string, BenchAccount[]>();
  for (const t of targets)
    accounts.set(
      t.name,
      await Promise.all(Array.from({ length: HEAVY_ACCOUNTS }, (_, i) => registerAccount(t.url, i))),
    );

  console.log(
    `PUT progress, one account, ${CONNECTIONS} connections, ${SECONDS} s × ${ROUNDS} rounds (interleaved), PostgreSQL at ${new URL(pgAdminUrl).host}`,
  );
  const runs = new Map<string, Run[]>(targets.map((t) => [t.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const t of round % 2 ? [...targets].reverse() : targets) {
      const r = await saves(t, accounts.get(t.name)!.slice(0, 1), CONNECTIONS, SECONDS);
      runs.get(t.name)!.push(r);
      console.log(line(t.name, r));
    }
  }
  const rps = new Map([...runs].map(([name, rs]) => [name, median(rs.map((r) => r.rps))]));
  for (const [name, value] of rps) console.log(`  median ${name}: ${value.toFixed(0)} req/s`);
  if (rps.has('movie-web'))
    console.log(
      `  Marquee ÷ movie-web: ${(rps.get('marquee')! / rps.get('movie-web')!).toFixed(2)}× (target ≥ 4×)`,
    );

  console.log(`high load: ${HEAVY_CONNECTIONS} connections over ${HEAVY_ACCOUNTS} accounts, 10 s`);
  for (const t of targets)
    console.log(line(t.name, await saves(t, accounts.get(t.name)!, HEAVY_CONNECTIONS, 10)));
} finally {
  for (const t of targets) await t.stop();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
