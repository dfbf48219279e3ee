/**
 * First-view JavaScript of `/`: the entry script and every chunk index.html preloads, raw and gzip.
 * Budget: 150 KB gzip. Run after `npm run build`: node --import tsx bench/first-view.ts
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const BUDGET_GZIP = 150 * 1024;
const dist = path.resolve(import.meta.dirname, '../apps/web/dist');

export function firstView() {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1] as string);
  const rows = files.map((file) => {
    const body = readFileSync(path.join(dist, file));
    return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  const js = rows.filter((r) => r.file.endsWith('.js'));
  const total = { bytes: js.reduce((s, r) => s + r.bytes, 0), gzip: js.reduce((s, r) => s + r.gzip, 0) };
  return { rows, total };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { rows, total } = firstView();
  for (const r of rows) console.log(`${r.file.padEnd(48)} ${String(r.bytes).padStart(8)} B  ${String(r.gzip).padStart(7)} B gzip`);
  console.log(`first-view JS: ${(total.bytes / 1024).toFixed(1)} KB, ${(total.gzip / 1024).toFixed(1)} KB gzip (budget ${BUDGET_GZIP / 1024} KB gzip) → ${total.gzip <= BUDGET_GZIP ? 'within budget' : 'OVER BUDGET'}`);
}
