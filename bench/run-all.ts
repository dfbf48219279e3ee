/** Runs every benchmark in turn and prints their figures. */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
for (const file of readdirSync(here)
  .filter((f) => f.endsWith('.ts') && f !== 'run-all.ts')
  .sort()) {
  console.log(`\n## ${file}`);
  spawnSync(process.execPath, ['--import', 'tsx', path.join(here, file)], { stdio: 'inherit' });
}
