/**
 * A 50,000-play import must not slow everyone else (issue 27, decisions 072 and 095): the production
 * server (built first if needed) on SQLite and on PostgreSQL; one account imports a 50,000-row watch
 * history (a Letterboxd diary of years, say) the way the web app's import page sends it — ten `PUT
 * /users/:uid/watch-history/import` of 5,000 plays, one after another (lib/sync/file-import.ts) — from a process of its own,
 * while 20 other accounts make small requests at a steady rate. Then the same file again (it changes
 * nothing). Prints what each import took and the others' p50/p99 alone and meanwhile. Target: others'
 * p99 < 50 ms.
 * Run: node --import tsx bench/history-import.ts   (PostgreSQL: BENCH_DATABASE_URL or
 * 127.0.0.1:5432/test; BENCH_DATABASES=postgres runs one of the two)
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onEachDatabase } from './support/databases.ts';
import { startServer, ensureBuilt } from './support/server.ts';
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

const PLAYS = 50_000;
/** The import page's page of plays (HISTORY_PAGE_SIZE in apps/web/src/lib/sync/file-import.ts). */
const PER_REQUEST = 5_000;

/** Play `i` of the diary: 2,000 films watched about 25 times each over ten years, a few episodes. */
function play(i: number) {
  const film = i % 2000;
  const episode = i % 7 === 0;
  return {
    tmdbId: String(episode ? 50_000 + (film % 40) : 1000 + film),
    meta: { title: `Title ${film}`, year: 1970 + (film % 50), type: episode ? 'show' : 'movie' },
    duration: 6000,
    watched: 6000,
    watchedAt: new Date(Date.UTC(2016, 0, 1) + i * 6 * 60 * 60_000).toISOString(),
    completed: true,
    ...(episode
      ? {
          seasonId: `s${film % 5}`,
          episodeId: `e${film}`,
          seasonNumber: 1 + (film % 5),
          episodeNumber: 1 + (film % 10),
        }
      : {}),
  };
}

interface DriverJob {
  url: string;
  big: Account;
}
interface DriverResult {
  first: number[];
  again: number[];
}

/** The importing account, in a process of its own: the file twice, in requests of PER_REQUEST plays. */
async function driver({ url, big }: DriverJob): Promise<DriverResult> {
  const bodies = Array.from({ length: PLAYS / PER_REQUEST }, (_, n) =>
    JSON.stringify(Array.from({ length: PER_REQUEST }, (_, k) => play(n * PER_REQUEST + k))),
  );
  process.send!('ready');
  await new Promise((resolve) => process.once('message', resolve));
  const importAll = async () => {
    const times: number[] = [];
    for (const body of bodies) {
      const started = performance.now();
      await put(url, big, '/watch-history/import', body);
      times.push(performance.now() - started);
    }
    return times;
  };
  const first = await importAll();
  const again = await importAll();
  return { first, again };
}

async function runCase(label: string, env: Record<string, string>) {
  const server = await startServer({ TRUST_PROXY: 'true', ...env });
  const { url } = server;
  try {
    const big = await register(url, 0);
    const others = await seedOthers(url);
    const print = (name: string, f: Figures, text = '') =>
      console.log(
        `${label.padEnd(9)} ${name.padEnd(30)} others p50 ${String(f.p50).padStart(3)} ms  p99 ${String(f.p99).padStart(4)} ms  max ${String(f.max).padStart(4)} ms  ${f.rps.toFixed(0).padStart(5)} req/s${f.errors ? `  non-2xx/errors ${f.errors}` : ''}${text ? `   ${text}` : ''}`,
      );
    await othersLoad(url, others, 3);
    print('others alone', await othersLoad(url, others));

    const child = fork(fileURLToPath(import.meta.url), ['--driver'], {
      execArgv: ['--import', 'tsx'],
      stdio: 'inherit',
    });
    const result = new Promise<DriverResult>((resolve, reject) => {
      child.on('message', (m) => {
        if (m === 'ready') child.send('go');
        else resolve(m as DriverResult);
      });
      child.once('exit', (code) => reject(new Error(`driver exited with ${code}`)));
    });
    child.send({ url, big } satisfies DriverJob);
    // The others' load runs until both imports of the file are done.
    const loads: Figures[] = [];
    let done = false;
    void result.finally(() => (done = true));
    while (!done) loads.push(await othersLoad(url, others, 2));
    const { first, again } = await result;
    const total = (xs: number[]) => `${(xs.reduce((s, x) => s + x, 0) / 1000).toFixed(1)} s`;
    const each = (xs: number[]) => xs.map((x) => (x / 1000).toFixed(1)).join(' / ');
    const worst = loads.reduce((a, b) => (b.p99 > a.p99 ? b : a));
    const p50 = loads.map((f) => f.p50).sort((a, b) => a - b)[Math.floor(loads.length / 2)] ?? 0;
    print(`+ ${PLAYS.toLocaleString('en')}-play import, twice`, { ...worst, p50 }, '');
    console.log(
      `${label.padEnd(9)} import ${total(first)} (${each(first)} s per ${PER_REQUEST.toLocaleString('en-US')}), again (no change) ${total(again)} (${each(again)} s); others measured in ${loads.length} windows of 2 s, the worst p99 shown`,
    );
    const stored = await fetch(`${url}/users/${big.id}/watch-history?limit=1`, { headers: big.headers });
    if (!stored.ok) throw new Error(`history read: ${stored.status}`);
  } finally {
    await server.stop();
  }
}

async function main() {
  ensureBuilt();
  console.log(
    `history import: ${PLAYS.toLocaleString('en')} plays in requests of ${PER_REQUEST.toLocaleString('en')}, twice; ${OTHERS} other accounts at ${RATE} req/s (${DURATION_S} s alone)`,
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
