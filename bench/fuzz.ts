/**
 * The fuzz pass as an operator's figure: every contract route gets the test suite's hostile input
 * (apps/server/test/fuzz-cases.ts — malformed and deeply nested JSON up to 1 MiB of `[`, numbers past
 * every range, wrong types and shapes, bad paths and queries) and then its valid input under hostile
 * header values (`X-Client-Time` included). The app runs in this process, so the event loop that serves
 * the requests is the one measured (perf_hooks.monitorEventLoopDelay, 1 ms resolution).
 * Prints requests, answers by class, the longest event-loop stall and the slowest requests.
 * Budget: 0 × 5xx, no stall over 100 ms.
 * Run: node --import tsx bench/fuzz.ts   (PostgreSQL + Redis: BENCH_DATABASE_URL, BENCH_REDIS_URL)
 */
import { loadavg } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
if (process.env.BENCH_REDIS_URL) process.env.TEST_REDIS_URL = process.env.BENCH_REDIS_URL;
const { casesFor, hostileHeaders, send, specs, startFuzzTarget, validCase } =
  await import('../apps/server/test/fuzz-cases.ts');
const { testDialect } = await import('../apps/server/test/test-database.ts');

const { t, user } = await startFuzzTarget();
const byClass = new Map<string, number>();
const slowest: { ms: number; what: string }[] = [];
const stalls: { ms: number; what: string }[] = [];
let maxStall = 0;
const serverErrors: string[] = [];
let requests = 0;
const started = performance.now();
const load = loadavg()[0]!;
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
try {
  for (const spec of specs) {
    const runs = [
      ...casesFor(spec, user).map((c) => ({ c, headers: {} })),
      ...hostileHeaders.map((headers) => ({ c: validCase(spec, user), headers })),
    ];
    for (const { c, headers } of runs) {
      delay.reset();
      const at = performance.now();
      const res = await send(t, user, spec, c, headers);
      const ms = performance.now() - at;
      requests += 1;
      const cls = `${Math.floor(res.statusCode / 100)}xx`;
      byClass.set(cls, (byClass.get(cls) ?? 0) + 1);
      const what = `${spec.method} ${c.url.slice(0, 60)} body ${(c.payload ?? '').length} B ${JSON.stringify(headers).slice(0, 60)} → ${res.statusCode}`;
      if (res.statusCode >= 500) serverErrors.push(`${what} ${res.body.slice(0, 120)}`);
      // The stall a request caused shows in the samples taken while it ran (or just after it).
      await new Promise((r) => setTimeout(r, 2));
      const stall = delay.max / 1e6;
      maxStall = Math.max(maxStall, stall);
      stalls.push({ ms: stall, what });
      stalls.sort((a, b) => b.ms - a.ms).splice(5);
      slowest.push({ ms, what });
      slowest.sort((a, b) => b.ms - a.ms).splice(5);
    }
  }
} finally {
  delay.disable();
  await t.close();
}
console.log(
  `fuzz pass (${testDialect}): ${requests} requests over ${specs.length} routes in ${((performance.now() - started) / 1000).toFixed(1)} s, load ${load.toFixed(1)}→${loadavg()[0]!.toFixed(1)}`,
);
console.log(
  `  answers: ${[...byClass]
    .sort()
    .map(([c, n]) => `${c} ${n}`)
    .join(', ')}`,
);
console.log(
  `  5xx: ${serverErrors.length}${serverErrors.length ? `\n    ${serverErrors.slice(0, 10).join('\n    ')}` : ''}`,
);
console.log(`  longest event-loop stall: ${maxStall.toFixed(1)} ms (budget: ≤ 100 ms), during:`);
for (const s of stalls) console.log(`    ${s.ms.toFixed(1).padStart(7)} ms  ${s.what}`);
console.log('  slowest requests:');
for (const s of slowest) console.log(`    ${s.ms.toFixed(1).padStart(7)} ms  ${s.what}`);
