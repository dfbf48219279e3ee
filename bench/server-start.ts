/**
 * Cold start and idle memory of the server, the production way and the way it started before the
 * compiled build, side by side in one run. For each way: time from spawn to the first 200 from /healthz
 * (median of BENCH_RUNS, default 5), then — median of BENCH_IDLE_RUNS more starts (default 3) — the resident memory of the server process
 * once it has been idle long enough for V8 to give back its start-up garbage (sampled every second until
 * it holds still for 10 s, at most 60 s), and every process left running beside it.
 * SQLite, the embedded catalog, no Redis. Budgets (plain node): ready ≤ 1 s, idle RSS ≤ 80 MiB.
 * Also, as an operator measures it: the RSS of the listening process 15 s after its first page (`/` opened
 * in Debian Chromium, every file and call of that page answered), the figure issue 25 found over budget.
 *   node --import tsx bench/server-start.ts
 */
import path from 'node:path';
import { chromium } from '@playwright/test';
import {
  commandOf,
  descendants,
  ensureBuilt,
  median,
  ROOT,
  rssMiB,
  SERVER_COMMAND,
  SERVER_ENTRY,
  startServer,
} from './support/server.ts';
import { SERVER_NODE_FLAGS } from '../deploy/test/node-flags.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
/** Idle RSS varies by 2–3 MiB from one start to the next (which pages of the binary got touched): median of these. */
const IDLE_RUNS = Number(process.env.BENCH_IDLE_RUNS ?? 3);
const READY_BUDGET_MS = 1_000;
const RSS_BUDGET_MIB = 80;
const npm = process.env.npm_execpath ? [process.execPath, process.env.npm_execpath] : ['npm'];

const WAYS: { name: string; command: string[] }[] = [
  { name: `node ${SERVER_NODE_FLAGS.join(' ')} apps/server/dist/main.js`, command: [...SERVER_COMMAND] },
  // The same without the production flags (decision 090).
  { name: 'node apps/server/dist/main.js', command: [process.execPath, SERVER_ENTRY] },
  { name: 'npm start', command: [...npm, 'start', '--silent'] },
  // How `npm start` ran the server before the compiled build (the web build step left out).
  {
    name: 'before: npm exec tsx src/main.ts',
    command: [...npm, 'exec', '--', 'tsx', path.join(ROOT, 'apps/server/src/main.ts')],
  },
];

/** The process that serves: the deepest descendant running node (npm and sh wrap it). */
function serverPid(root: number): number {
  const tree = [root, ...descendants(root)];
  const nodes = tree.filter(
    (pid) => /(^|\/)node /.test(`${commandOf(pid)} `) && !/npm(-cli)?\.js|\/npm /.test(commandOf(pid)),
  );
  return nodes.at(-1) ?? root;
}

async function idleMemory(command: string[]) {
  const server = await startServer({}, command);
  const root = server.child.pid!;
  const pid = serverPid(root);
  const samples: number[] = [];
  for (let s = 0; s < 60; s++) {
    await new Promise((r) => setTimeout(r, 1_000));
    samples.push(rssMiB(pid));
    const last = samples.slice(-10);
    if (s >= 15 && Math.max(...last) - Math.min(...last) < 0.5) break;
  }
  const others = [root, ...descendants(root)].filter((p) => p !== pid);
  // Then the first page, the way an operator checks a fresh instance: a browser opens it.
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForLoadState('networkidle');
  } finally {
    await browser.close();
  }
  await new Promise((r) => setTimeout(r, 15_000));
  const result = {
    atReady: samples[0]!,
    idle: samples.at(-1)!,
    afterFirstPage: rssMiB(pid),
    others: others.map((p) => ({ command: commandOf(p).slice(0, 60), rss: rssMiB(p) })),
  };
  await server.stop();
  return result;
}

async function main() {
  ensureBuilt();
  console.log(`server start (SQLite, embedded catalog), ${RUNS} cold starts per way\n`);
  const rows: string[] = [];
  for (const way of WAYS) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const server = await startServer({}, way.command);
      times.push(server.readyMs);
      await server.stop();
    }
    const idles: Awaited<ReturnType<typeof idleMemory>>[] = [];
    for (let i = 0; i < IDLE_RUNS; i++) idles.push(await idleMemory(way.command));
    const idle = median(idles.map((m) => m.idle));
    const memory = idles.find((m) => m.idle === idle) ?? idles[0]!;
    const afterPage = median(idles.map((m) => m.afterFirstPage));
    const beside = memory.others.reduce((sum, o) => sum + o.rss, 0);
    rows.push(
      `| ${way.name} | ${Math.round(median(times))} ms (${times.map(Math.round).join(', ')}) | ${memory.atReady.toFixed(0)} MiB | ${idle.toFixed(1)} MiB (${idles.map((m) => m.idle.toFixed(1)).join(', ')}) | ${afterPage.toFixed(1)} MiB (${idles.map((m) => m.afterFirstPage.toFixed(1)).join(', ')}) | ${memory.others.length ? `${memory.others.length}: ${beside.toFixed(0)} MiB (${memory.others.map((o) => o.command.split(' ').slice(0, 3).join(' ')).join('; ')})` : 'none'} |`,
    );
    if (way === WAYS[0]) {
      const ready = median(times);
      console.log(
        `production start: ready ${Math.round(ready)} ms (budget ${READY_BUDGET_MS} ms) ${ready <= READY_BUDGET_MS ? 'within' : 'OVER'}; idle RSS ${idle.toFixed(1)} MiB, median of ${IDLE_RUNS} (budget ${RSS_BUDGET_MIB} MiB) ${idle <= RSS_BUDGET_MIB ? 'within' : 'OVER'}; 15 s after the first page ${afterPage.toFixed(1)} MiB ${afterPage <= RSS_BUDGET_MIB ? 'within' : 'OVER'}\n`,
      );
    }
  }
  console.log(
    '| start | ready (/healthz 200), median (runs) | RSS at ready | idle RSS of the server process, median (runs) | 15 s after its first page, median (runs) | processes beside it |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
}

await main();
