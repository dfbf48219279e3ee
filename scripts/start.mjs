#!/usr/bin/env node
// npm start (and npm run admin/backup/db:migrate): build what is missing or changed, then run the
// compiled entry point in this same process — no tsx, no wrapper process beside the server.
//   node scripts/start.mjs [main|admin|…] [arguments…]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { hasSources, isCurrent, ROOT, TARGETS } from './build-state.mjs';

const [entry = 'main', ...args] = process.argv.slice(2);
const file = path.join(ROOT, TARGETS.server.out, `${entry}.js`);

// A production tree (build output without sources) has nothing to rebuild.
if (hasSources() && !Object.values(TARGETS).every(isCurrent)) {
  // The build runs in a child process, so Vite and esbuild never stay in the server's memory.
  const result = spawnSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs')], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}
if (!existsSync(file)) {
  console.error(`${path.relative(ROOT, file)} is missing: run npm run build`);
  process.exit(1);
}
// The entry point sees the command line it would see when run directly: node dist/<entry>.js …
process.argv = [process.argv[0], file, ...args];
await import(pathToFileURL(file).href);
