/**
 * One big library must not slow everyone else (issue 10, decision 072): the production server (built
 * first if needed) on SQLite and on PostgreSQL; one account holds 50,000 progress rows, and while it
 * reads its whole list (as existing clients do, ~15 MB of JSON) and imports 10,000 items, 20 other accounts
 * make small requests (their bookmarks, their progress, a progress save) at a steady rate. Prints the
 * other users' p50/p99 per phase — alone, during the big reads, during the big imports, during both —
 * and what the big operations took. Target: others' p99 < 50 ms. The big account runs in a process of
 * its own (building 3 MB imports and taking 15 MB answers would otherwise delay the others' clock).
 * Run: node --import tsx bench/big-library.ts   (PostgreSQL: BENCH_DATABASE_URL or 127.0.0.1:5432/test;
 * BENCH_DATABASES=postgres runs one of the two)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onEachDatabase } from './support/databases.ts';
import {
  DURATION_S,
  OTHERS,
  othersLoad,
  put,
  RATE,
  register,
  seedOthers,
  type Account,
  type Figures,
} from './support/others.ts';
import { ensureBuilt, startServer } from './support/server.ts';

const BIG_ROWS = 50_000;
const IMPORT_ITEMS = 10_000;
/** Seeding takes 5 imports; 2 phases × 6 stay under the 20 an account may make per 10 minutes. */
const IMPORTS_PER_PHASE = 6;

/** `count` episodes of shows with 100 episodes each, starting at episode `from`, changed at `at` (+1 ms each). */
function episodes(count: number, from: number, at: number) {
  return Array.from({ length: count }, (_, k) => {
    const i = from + k;
    return {
      tmdbId: String(10_000 + Math.floor(i / 100)),
      meta: {
        title: `Show ${Math.floor(i / 100)}`,
        year: 2010,
        poster: `/api/images/w342/s${Math.floor(i / 100)}.jpg`,
        type: 'show',
      },
      duration: 2700,
      watched: 60 + (i % 2600),
      seasonId: `s${Math.floor(i / 10)}`,
      episodeId: `e${i}`,
      seasonNumber: 1 + Math.floor((i % 100) / 10),
      episodeNumber: 1 + (i % 10),
      updatedAt: new Date(at + k).toISOString(),
    };
  });
}

async function seed(url: string): Promise<{ big: Account; others: Account[] }> {
  const big = await register(url, 0);
  const at = Date.now() - 60 * 60_000;
  for (let from = 0; from < BIG_ROWS; from += IMPORT_ITEMS) {
    await put(url, big, '/progress/import', JSON.stringify(episodes(IMPORT_ITEMS, from, at + from)));
  }
  const others = await seedOthers(url);
  return { big, others };
}

/**
 * Repeats `op` for `durationMs`: back to back, or at most `max` times spread over the phase (the
 * server allows an account 20 imports per 10 minutes). Returns how long each took (ms).
 */
async function loop(op: (n: number) => Promise<void>, durationMs: number, max = Infinity): Promise<number[]> {
  const spacing = Number.isFinite(max) ? durationMs / max : 0;
  const times: number[] = [];
  const start = performance.now();
  while (times.length < max) {
    const wait = start + times.length * spacing - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (performance.now() - start >= durationMs) break;
    const started = performance.now();
    await op(times.length);
    times.push(performance.now() - started);
  }
  return times;
}

type Mode = 'reads' | 'imports' | 'both';
interface DriverJob {
  url: string;
  big: Account;
  mode: Mode;
  durationMs: number;
  /** Distinguishes the change times of successive phases' imports. */
  round: number;
}
interface DriverResult {
  reads: number[];
  imports: number[];
  bytes: number;
}

/** The big account (in its own process): reads its whole list and/or imports, for the phase. */
async function driver(job: DriverJob): Promise<DriverResult> {
  const { url, big } = job;
  let bytes = 0;
  // As existing clients read it: the whole list, compressed as a browser would ask for it.
  const readAll = async () => {
    const res = await fetch(`${url}/users/${big.id}/progress`, { headers: big.headers });
    if (!res.ok) throw new Error(`GET progress: ${res.status}`);
    bytes = (await res.arrayBuffer()).byteLength;
  };
  // A device signing in imports its library: 10,000 rows (new the first time, then changed again).
  const payloads = Array.from({ length: IMPORTS_PER_PHASE }, (_, n) =>
    JSON.stringify(episodes(IMPORT_ITEMS, BIG_ROWS, Date.now() - 60_000 + job.round * 100 + n)),
  );
  const importOnce = async (n: number) => void (await put(url, big, '/progress/import', payloads[n]!));
  process.send!('ready');
  await new Promise((resolve) => process.once('message', resolve));
  const [reads, imports] = await Promise.all([
    job.mode === 'imports' ? [] : loop(readAll, job.durationMs),
    job.mode === 'reads' ? [] : loop(importOnce, job.durationMs, IMPORTS_PER_PHASE),
  ]);
  return { reads, imports, bytes };
}

/** Runs one phase: the others' load, and the big account's `mode` in a process of its own. */
async function phase(job: DriverJob, others: Account[]): Promise<{ others: Figures; big: DriverResult }> {
  const child = fork(fileURLToPath(import.meta.url), ['--driver'], {
    execArgv: ['--import', 'tsx'],
    stdio: 'inherit',
  });
  const result = new Promise<DriverResult>((resolve, reject) => {
    child.on('message', (m) => {
      if (m === 'ready') {
        child.send('go');
        return;
      }
      resolve(m as DriverResult);
    });
    child.once('exit', (code) => reject(new Error(`driver exited with ${code}`)));
  });
  child.send(job);
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  const load = await othersLoad(job.url, others);
  const big = await result;
  return { others: load, big };
}

const ms = (xs: number[]) =>
  xs.length ? `${xs.length} × ${(xs.reduce((s, x) => s + x, 0) / xs.length).toFixed(0)} ms` : 'none';

async function runCase(label: string, env: Record<string, string>) {
  const server = await startServer({ TRUST_PROXY: 'true', ...env });
  const { url } = server;
  try {
    const { big, others } = await seed(url);
    const print = (name: string, f: Figures, bigText = '') =>
      console.log(
        `${label.padEnd(9)} ${name.padEnd(28)} others p50 ${String(f.p50).padStart(3)} ms  p99 ${String(f.p99).padStart(4)} ms  max ${String(f.max).padStart(4)} ms  ${f.rps.toFixed(0).padStart(5)} req/s${f.errors ? `  non-2xx/errors ${f.errors}` : ''}${bigText ? `   big: ${bigText}` : ''}`,
      );
    // Warm-up: connections (HTTP keep-alive, the database pool) opened, code paths compiled.
    await othersLoad(url, others, 3);
    print('others alone', await othersLoad(url, others));
    const durationMs = DURATION_S * 1000;
    const reads = await phase({ url, big, mode: 'reads', durationMs, round: 0 }, others);
    print(
      '+ big full-list reads',
      reads.others,
      `reads ${ms(reads.big.reads)} (${(reads.big.bytes / 1e6).toFixed(1)} MB)`,
    );
    const imports = await phase({ url, big, mode: 'imports', durationMs, round: 1 }, others);
    print('+ big 10,000-item imports', imports.others, `imports ${ms(imports.big.imports)}`);
    const both = await phase({ url, big, mode: 'both', durationMs, round: 2 }, others);
    print('+ both at once', both.others, `reads ${ms(both.big.reads)}, imports ${ms(both.big.imports)}`);
  } finally {
    await server.stop();
  }
}

async function main() {
  ensureBuilt();
  console.log(
    `big library: ${BIG_ROWS.toLocaleString('en')} progress rows in one account, ${IMPORT_ITEMS.toLocaleString('en')}-item imports; ${OTHERS} other accounts at ${RATE} req/s, ${DURATION_S} s per phase`,
  );
  await onEachDatabase(runCase);
}

if (process.argv.includes('--driver')) {
  const job = await new Promise<DriverJob>((resolve) =>
    process.once('message', (m) => resolve(m as DriverJob)),
  );
  const result = await driver(job);
  process.send!(result, () => process.exit(0));
} else {
  await main();
}
