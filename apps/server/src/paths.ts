import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the server's own files are, in both layouts: this module runs as `src/paths.ts` under tsx and
 * bundled into `dist/main.js` in production — one folder below the server package either way.
 */
export const SERVER_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Files shipped with the server (catalog, sample media): outside `src`, so the production tree has them. */
export const ASSETS_DIR = path.join(SERVER_ROOT, 'assets');
/** The embedded catalog's JSON (movies.json, shows.json). */
export const CATALOG_DIR = path.join(ASSETS_DIR, 'catalog');
/** The committed sample media (scripts/make-samples.sh writes it). */
export const SAMPLES_DIR = path.join(ASSETS_DIR, 'samples');
/** The built web app, unless WEB_DIST_DIR says otherwise. */
export const DEFAULT_WEB_DIST_DIR = path.resolve(SERVER_ROOT, '../web/dist');
