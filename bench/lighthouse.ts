/**
 * Lighthouse 12.8 on the pages a first visitor opens, against a real production server: mobile (the
 * default: Moto G Power emulation, simulated slow 4G and 4× CPU), desktop (the `--preset=desktop`
 * config) and, asked for with LIGHTHOUSE_FORM_FACTORS=tv, a TV in TV mode (docs/decisions/114-tv-mode.md:
 * desktop's network, a TV browser's user agent at 1920×1080, and 4× CPU as on mobile: a TV's chip is a
 * phone's, not a laptop's). Prints one row per page and form factor: performance and accessibility scores, LCP, TBT,
 * CLS and the bytes transferred. With several runs the row is the run with the median performance score.
 * Numbers, not a pass/fail test (budget: performance ≥ 95 and accessibility 100 on mobile).
 *
 *   node --import tsx bench/lighthouse.ts        (builds what is missing first, like npm run build)
 *   BENCH_URL=http://127.0.0.1:8123 node --import tsx bench/lighthouse.ts   (an already running server)
 *
 * The subscription site's landing page (`/` with VARIANT=subscription) is measured on a second production
 * server (`sub /`); LIGHTHOUSE_SUBSCRIPTION=0 leaves it out. The load average is printed with the table.
 *
 * Environment: LIGHTHOUSE_RUNS (runs per page and form factor, default 3), LIGHTHOUSE_FORM_FACTORS
 * (`mobile,desktop`), LIGHTHOUSE_PAGES (comma-separated paths), LIGHTHOUSE_REPORT_DIR (keeps each run's
 * JSON report there), CHROMIUM_PATH (default /usr/bin/chromium).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags, type Result } from 'lighthouse';
import { ensureBuilt, startServer, type RunningServer } from './support/server.ts';

type FormFactor = 'mobile' | 'desktop' | 'tv';
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const FORM_FACTORS = (process.env.LIGHTHOUSE_FORM_FACTORS ?? 'mobile,desktop')
  .split(',')
  .map((f) => f.trim()) as FormFactor[];
const PAGES = (process.env.LIGHTHOUSE_PAGES ?? '/,/discover,/media/tmdb-movie-550-fight-club,/browse/matrix')
  .split(',')
  .map((p) => p.trim());
const REPORT_DIR = process.env.LIGHTHOUSE_REPORT_DIR;
const SUBSCRIPTION = process.env.LIGHTHOUSE_SUBSCRIPTION !== '0' && !process.env.BENCH_URL;
/** The subscription site as e2e runs it (simulated payments allowed for a test instance). */
const SUBSCRIPTION_ENV = {
  LOG_LEVEL: 'warn',
  VARIANT: 'subscription',
  AUTH_METHODS: 'email',
  PAYMENT_GATEWAY: 'simulated',
  ALLOW_SIMULATED_PAYMENTS: 'true',
};
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Row {
  page: string;
  formFactor: FormFactor;
  performance: number;
  accessibility: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  bytes: number;
  /** Performance scores of every run, for the spread. */
  scores: number[];
}

const score = (lhr: Result, category: string) => Math.round((lhr.categories[category]?.score ?? 0) * 100);
const metric = (lhr: Result, audit: string) => lhr.audits[audit]?.numericValue ?? Number.NaN;

/** Audits that failed, so a low score says why (accessibility ones all, performance ones with savings). */
function problems(lhr: Result): string[] {
  const out: string[] = [];
  for (const ref of lhr.categories.accessibility?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (audit && audit.score !== null && audit.score < 1 && ref.weight > 0)
      out.push(`a11y: ${audit.id} (${audit.title})`);
  }
  for (const ref of lhr.categories.performance?.auditRefs ?? []) {
    const audit = lhr.audits[ref.id];
    if (!audit || ref.group === 'metrics' || audit.score === null || audit.score >= 0.9) continue;
    const savings = Object.entries(audit.metricSavings ?? {}).filter(([, v]) => (v ?? 0) > 0);
    if (savings.length === 0) continue;
    const detail = savings.map(([k, v]) => `${k} ${Math.round(v ?? 0)}`).join(', ');
    out.push(`perf: ${audit.id}${audit.displayValue ? ` — ${audit.displayValue}` : ''} (saves ${detail})`);
  }
  return out;
}

/** A TV: Samsung's browser (TV mode turns on by its user agent) on a 1080p screen, a phone's CPU. */
const tvConfig: Config = {
  ...desktopConfig,
  settings: {
    ...desktopConfig.settings,
    screenEmulation: { mobile: false, width: 1920, height: 1080, deviceScaleFactor: 1, disabled: false },
    emulatedUserAgent:
      'Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36',
    throttling: { ...desktopConfig.settings?.throttling, cpuSlowdownMultiplier: 4 },
  },
};

async function measure(port: number, url: string, formFactor: FormFactor): Promise<Result> {
  const flags: Flags = {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  };
  // Mobile is Lighthouse's default config; desktop is what `--preset=desktop` loads.
  const config: Config | undefined =
    formFactor === 'desktop' ? desktopConfig : formFactor === 'tv' ? tvConfig : undefined;
  // A run whose trace Chrome failed to record (NO_NAVSTART, NO_FCP …) is run again, twice at most.
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(url, flags, config);
    const error = result ? result.lhr.runtimeError : { code: 'NO_RESULT', message: 'no Lighthouse result' };
    if (result && !error) return result.lhr;
    if (attempt === 3) throw new Error(`${url}: ${error?.code} ${error?.message}`);
    console.log(`  ${url} (${formFactor}): ${error?.code}, running it again`);
  }
}

const pad = (s: string | number, n: number) => String(s).padEnd(n);
const padStart = (s: string | number, n: number) => String(s).padStart(n);

function printTable(rows: Row[]) {
  const header = `${pad('page', 36)} ${pad('form', 8)} ${padStart('perf', 5)} ${padStart('a11y', 5)} ${padStart('LCP', 8)} ${padStart('TBT', 7)} ${padStart('CLS', 6)} ${padStart('bytes', 9)}  perf runs`;
  console.log(`\n${header}\n${'-'.repeat(header.length + 6)}`);
  for (const r of rows) {
    console.log(
      `${pad(r.page, 36)} ${pad(r.formFactor, 8)} ${padStart(r.performance, 5)} ${padStart(r.accessibility, 5)} ${padStart(`${(r.lcpMs / 1000).toFixed(2)} s`, 8)} ${padStart(`${Math.round(r.tbtMs)} ms`, 7)} ${padStart(r.cls.toFixed(3), 6)} ${padStart(`${(r.bytes / 1024).toFixed(0)} KB`, 9)}  ${r.scores.join(' ')}`,
    );
  }
}

async function main() {
  const servers: RunningServer[] = [];
  let base = process.env.BENCH_URL?.replace(/\/$/, '');
  if (!base || SUBSCRIPTION) ensureBuilt();
  if (!base) {
    // The production server as operators run it (`node apps/server/dist/main.js`), built first if needed.
    servers.push(await startServer({ LOG_LEVEL: 'warn' }));
    base = servers[0]!.url;
  }
  /** What is measured: the discovery site's pages, then the subscription site's landing page. */
  const targets = PAGES.map((page) => ({ label: page, url: `${base}${page}` }));
  if (SUBSCRIPTION) {
    const sub = await startServer(SUBSCRIPTION_ENV);
    servers.push(sub);
    targets.push({ label: 'sub /', url: `${sub.url}/` });
  }
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: CHROME_FLAGS,
  });
  const rows: Row[] = [];
  const loadBefore = loadavg()[0]!;
  try {
    // Warm the servers so the first measured run is not their cold start: one unmeasured visit of each
    // page loads everything it shows (catalog, caches, files, the catalog artwork ffmpeg draws once).
    for (const target of targets) await measure(chrome.port, target.url, 'mobile');
    for (const formFactor of FORM_FACTORS)
      for (const target of targets) {
        const page = target.label;
        const runs: Result[] = [];
        for (let i = 0; i < RUNS; i++) {
          const lhr = await measure(chrome.port, target.url, formFactor);
          runs.push(lhr);
          if (REPORT_DIR) {
            mkdirSync(REPORT_DIR, { recursive: true });
            const name = `${page.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'home'}-${formFactor}-${i + 1}.json`;
            writeFileSync(path.join(REPORT_DIR, name), JSON.stringify(lhr));
          }
        }
        const sorted = [...runs].sort((a, b) => score(a, 'performance') - score(b, 'performance'));
        const lhr = sorted[Math.floor((sorted.length - 1) / 2)]!;
        const row: Row = {
          page,
          formFactor,
          performance: score(lhr, 'performance'),
          accessibility: score(lhr, 'accessibility'),
          lcpMs: metric(lhr, 'largest-contentful-paint'),
          tbtMs: metric(lhr, 'total-blocking-time'),
          cls: metric(lhr, 'cumulative-layout-shift'),
          bytes: metric(lhr, 'total-byte-weight'),
          scores: runs.map((r) => score(r, 'performance')),
        };
        rows.push(row);
        console.log(
          `${page} (${formFactor}): performance ${row.performance}, accessibility ${row.accessibility}`,
        );
        for (const p of problems(lhr)) console.log(`  ${p}`);
      }
  } finally {
    chrome.kill();
    for (const server of servers) await server.stop();
  }
  const server = servers.length > 0;
  console.log(
    `\nLighthouse 12.8 ${RUNS === 1 ? '(1 run)' : `(the run with the median performance score of ${RUNS})`} on ${server ? 'node apps/server/dist/main.js' : base}; load average ${loadBefore.toFixed(2)} → ${loadavg()[0]!.toFixed(2)} on ${availableParallelism()} cores`,
  );
  printTable(rows);
}

await main();
