// What each build reads and whether its output is current. No build tool is imported here, so the
// start script can check freshness without loading Vite or esbuild into the server's process.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '..');
const STAMP = '.build-hash';

/** Source files that never reach a build's output. */
const ignored = (file) => /\.(test|spec)\.tsx?$/.test(file) || file.includes(`${path.sep}e2e${path.sep}`);

/** The two builds: their inputs (folders and files, relative to the root) and output folder. */
export const TARGETS = {
  web: {
    out: 'apps/web/dist',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/first-view-chunks.ts',
      'apps/web/first-view-hints-plugin.ts',
      'apps/web/delivery-plugin.ts',
      'apps/web/catalogs-plugin.ts',
      'apps/web/package.json',
      'packages/contract/src',
      'packages/providers/src',
      'package-lock.json',
    ],
  },
  server: {
    out: 'apps/server/dist',
    inputs: [
      'apps/server/src',
      'apps/server/package.json',
      'packages/contract/src',
      'packages/providers/src',
      'scripts/build.mjs',
      'package-lock.json',
    ],
  },
};

function filesOf(relative) {
  const full = path.join(ROOT, relative);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [relative];
  return readdirSync(full, { recursive: true })
    .map((name) => path.join(relative, String(name)))
    .filter((file) => !ignored(file) && statSync(path.join(ROOT, file)).isFile());
}

/** A hash of every input file's path and content: the same sources give the same hash on any machine. */
export function inputsHash(target) {
  const hash = createHash('sha256');
  for (const file of target.inputs.flatMap(filesOf).sort()) {
    hash
      .update(file.split(path.sep).join('/'))
      .update('\0')
      .update(readFileSync(path.join(ROOT, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (target) => path.join(ROOT, target.out, STAMP);

/** True when the output exists and was built from exactly the current inputs. */
export function isCurrent(target) {
  const stamp = stampFile(target);
  return existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === inputsHash(target);
}

export const stampPath = stampFile;

/** The sources are present (a development checkout), not only a production tree of build output. */
export const hasSources = () => existsSync(path.join(ROOT, 'apps/server/src'));
