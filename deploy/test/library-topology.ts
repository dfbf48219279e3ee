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
import { randomBytes } from 'node:crypto';
import { startNginx } from './nginx.ts';
import { Cleanup, createPgDatabase, deleteRedisKeys, freePort, ROOT, startMarquee } from './support.ts';

const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

async function main(): Promise<void> {
  const [portArg, libraryDir, dataDir] = process.argv.slice(2);
  const port = Number(portArg);
  if (!Number.isInteger(port) || port <= 0 || !libraryDir) {
    console.error(
      'usage: node --import tsx deploy/test/library-topology.ts <port> <library dir> [<data dir>]',
    );
    process.exit(2);
  }
  const cleanup = new Cleanup();
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await cleanup.run().catch((error: unknown) => console.error(String(error)));
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.on('SIGINT', () => void stop(0));

  try {
    const work = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-topology-'));
    cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
    const database = await createPgDatabase(adminUrl, 'mq_e2e_library');
    cleanup.add('drop the database', () => database.drop());
    const prefix = `e2e-library-${randomBytes(5).toString('hex')}:`;
    cleanup.add('delete the Redis keys', () => deleteRedisKeys(redisUrl, prefix));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
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
    // A server that dies takes the topology down with it: the suite then fails instead of hanging.
    for (const proc of [...servers, nginx])
      proc.child.once('exit', (code, signal) => {
        if (stopping) return;
        console.error(`${proc.name} exited (${code ?? signal}):\n${proc.output().slice(-4000)}`);
        void stop(1);
      });
  } catch (error) {
    console.error(error);
    await stop(1);
  }
}

void main();
