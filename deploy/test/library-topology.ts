/**
 * compose.yaml's topology with a media library, for the Playwright suite (apps/web/playwright.config.ts):
 * three production servers on a fresh PostgreSQL database and Redis, behind nginx with deploy/nginx.conf's
 * rules, all reading one MEDIA_LIBRARY_DIR and sharing one DATA_DIR (so TRANSCODE_DIR), as compose's
 * replicas share their volume. Runs until SIGTERM/SIGINT, then stops everything and drops what it made.
 *
 *   node --import tsx deploy/test/library-topology.ts <port> <library dir> [<data dir>]
 *
 * The data folder (made when not given) is the servers' DATA_DIR, so their conversions are under
 * `<data dir>/transcodes`: the suite looks there to see that one server converted for all.
 *
 * Needs the production build, nginx, PostgreSQL (TEST_DATABASE_URL or the local one) and Redis
 * (TEST_REDIS_URL or the local one).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx } from './nginx.ts';
import { freePort, ROOT, startMarquee } from './support.ts';
import { runTopology } from './topology.ts';

const [portArg, libraryDir, dataDir] = process.argv.slice(2);
const port = Number(portArg);
if (!Number.isInteger(port) || port <= 0 || !libraryDir) {
  console.error('usage: node --import tsx deploy/test/library-topology.ts <port> <library dir> [<data dir>]');
  process.exit(2);
}

void runTopology('library', async ({ cleanup, work, env: base, stopWhenAnyExits }) => {
  const env = {
    ...base,
    TRUST_PROXY: 'true',
    DATA_DIR: dataDir ? path.resolve(dataDir) : path.join(work, 'data'),
    MEDIA_LIBRARY_DIR: path.resolve(libraryDir),
    CAPTCHA_PROVIDER: 'none',
    DMCA_EMAIL: 'dmca@marquee.test',
    TMDB_API_KEY: '',
    JUSTWATCH_URL: 'http://127.0.0.1:9',
  };
  mkdirSync(env.DATA_DIR, { recursive: true });
  if (dataDir)
    cleanup.add('remove the data folder', () => rmSync(env.DATA_DIR, { recursive: true, force: true }));
  const ports = [await freePort(), await freePort(), await freePort()];
  const servers = await Promise.all(
    ports.map((p, i) =>
      startMarquee(`library-${i + 1}`, { cwd: ROOT, env, port: p }).then((s) => cleanup.proc(s)),
    ),
  );
  const nginxDir = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-nginx-'));
  cleanup.add('remove the nginx folder', () => rmSync(nginxDir, { recursive: true, force: true }));
  const nginx = cleanup.proc(await startNginx({ prefix: nginxDir, port, backends: ports }));
  console.log(`library topology: ${nginx.url} → ${servers.map((s) => s.url).join(', ')}`);
  stopWhenAnyExits([...servers, nginx]);
});
