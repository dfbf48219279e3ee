#!/usr/bin/env node
// node scripts/prod-tree.mjs <outDir> [--no-install]
// Assembles the production tree from the build output — the layout the Dockerfile's runtime stage has,
// and what a plain-node install copies to a server — then installs only the production dependencies in
// it (`npm ci --omit=dev`; --no-install leaves that to the caller, as the Dockerfile does):
//
//   package.json, package-lock.json, <every workspace>/package.json   (npm ci needs all of them)
//   apps/server/dist     the server bundle: main.js, admin.js, backup.js, migrate.js and their chunks
//   apps/server/assets   embedded catalog and sample media
//   apps/web/dist        the built web app (with its .br/.gz copies)
//   scripts/start.mjs, scripts/build-state.mjs   so `npm start`, `npm run admin|backup|db:migrate` work
//
// No sources, no tests, no build tools. Start it with `npm run serve` (cwd = the tree; decision 090).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { isCurrent, ROOT, TARGETS } from './build-state.mjs';

/** Build output and the files that run it, relative to the root. */
export const PRODUCTION_FILES = [
  'package.json',
  'package-lock.json',
  'scripts/start.mjs',
  'scripts/build-state.mjs',
  'apps/server/dist',
  'apps/server/assets',
  'apps/web/dist',
];

/** Every workspace's package.json (`packages/*`, `apps/*` in the root package.json). */
export function workspaceManifests(root = ROOT) {
  const { workspaces = [] } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [path.join(pattern, 'package.json')];
    const parent = pattern.slice(0, -2);
    return readdirSync(path.join(root, parent), { withFileTypes: true })
      .filter(
        (entry) => entry.isDirectory() && existsSync(path.join(root, parent, entry.name, 'package.json')),
      )
      .map((entry) => path.join(parent, entry.name, 'package.json'));
  });
}

export function assembleTree(outDir) {
  for (const [name, target] of Object.entries(TARGETS)) {
    if (!isCurrent(target))
      throw new Error(`${name} build is missing or stale (${target.out}): run npm run build`);
  }
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw new Error(`${outDir} exists and is not empty`);
  for (const relative of [...PRODUCTION_FILES, ...workspaceManifests()]) {
    const target = path.join(outDir, relative);
    mkdirSync(path.dirname(target), { recursive: true });
    cpSync(path.join(ROOT, relative), target, { recursive: true });
  }
}

export function installProductionDependencies(outDir) {
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const result = spawnSync(npm, ['ci', '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: outDir,
    stdio: 'inherit',
  });
  if (result.status !== 0) throw new Error(`npm ci --omit=dev failed in ${outDir} (exit ${result.status})`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const outDir = args.find((a) => !a.startsWith('--'));
  if (!outDir) {
    console.error('usage: node scripts/prod-tree.mjs <outDir> [--no-install]');
    process.exit(2);
  }
  const out = path.resolve(outDir);
  try {
    const started = performance.now();
    assembleTree(out);
    console.log(`production tree: assembled in ${out}`);
    if (!args.includes('--no-install')) {
      installProductionDependencies(out);
      console.log(
        `production tree: dependencies installed in ${Math.round((performance.now() - started) / 1000)} s`,
      );
    }
  } catch (error) {
    console.error(`production tree: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
