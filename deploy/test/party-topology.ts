/**
 * Two production servers on one fresh PostgreSQL database and one Redis, each behind an nginx of its own
 * (deploy/nginx.conf's rules, the other server as its backup), for the watch party suite
 * (apps/web/e2e/party.spec.ts): each browser is on a different server process, and a control port
 * restarts one of them while its members watch.
 *
 *   node --import tsx deploy/test/party-topology.ts <port A> <port B> <control port>
 *
 * `POST http://127.0.0.1:<control port>/restart/a` stops server A (SIGTERM, as an operator's restart
 * does) and starts it again on its port; it answers once A serves again. Runs until SIGTERM/SIGINT, then
 * stops everything and drops what it made. Needs the production build, nginx, PostgreSQL and Redis
 * (TEST_DATABASE_URL / TEST_REDIS_URL, or the local ones).
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startNginx } from './nginx.ts';
import { freePort, ROOT, startMarquee, stopProc, type MarqueeProc } from './support.ts';
import { runTopology } from './topology.ts';

const [portA, portB, controlPort] = process.argv.slice(2).map(Number);
if (![portA, portB, controlPort].every((p) => Number.isInteger(p) && p! > 0)) {
  console.error('usage: node --import tsx deploy/test/party-topology.ts <port A> <port B> <control port>');
  process.exit(2);
}

void runTopology('party', async ({ cleanup, work, env: base, stopWhenAnyExits }) => {
  const env = {
    ...base,
    TRUST_PROXY: 'true',
    DATA_DIR: path.join(work, 'data'),
    CAPTCHA_PROVIDER: 'none',
    WATCH_PARTY_GUESTS: 'true',
    TMDB_API_KEY: '',
    JUSTWATCH_URL: 'http://127.0.0.1:9',
  };
  const ports = [await freePort(), await freePort()] as const;
  const start = (which: 0 | 1) =>
    startMarquee(`party-${'ab'[which]}`, { cwd: ROOT, env, port: ports[which] });
  const servers: MarqueeProc[] = [await start(0), await start(1)];
  cleanup.add('stop the servers', async () => {
    for (const server of servers) await stopProc(server);
  });
  for (const [i, port] of [portA!, portB!].entries()) {
    const dir = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-party-nginx-'));
    cleanup.add('remove an nginx folder', () => rmSync(dir, { recursive: true, force: true }));
    stopWhenAnyExits([
      cleanup.proc(await startNginx({ prefix: dir, port, backends: [ports[i]!], backups: [ports[1 - i]!] })),
    ]);
  }
  // A restart stops the server (SIGTERM, as an operator's restart does) and starts it again on its port.
  const restart = async (which: 0 | 1) => {
    await stopProc(servers[which]);
    servers[which] = await start(which);
  };
  const control = createServer((request, response) => {
    const which =
      request.method === 'POST' ? { '/restart/a': 0, '/restart/b': 1 }[request.url ?? ''] : undefined;
    if (which === undefined) {
      response.writeHead(request.url === '/health' ? 200 : 404).end();
      return;
    }
    restart(which as 0 | 1).then(
      () => response.writeHead(200).end('restarted'),
      (error: unknown) => response.writeHead(500).end(String(error)),
    );
  });
  await new Promise<void>((resolve) => control.listen(controlPort, '127.0.0.1', resolve));
  cleanup.add('close the control port', () => new Promise<void>((resolve) => control.close(() => resolve())));
  console.log(
    `party topology: A http://127.0.0.1:${portA} → ${ports[0]}, B http://127.0.0.1:${portB} → ${ports[1]}`,
  );
});
