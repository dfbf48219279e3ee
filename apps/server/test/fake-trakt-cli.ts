import { createServer } from 'node:http';
import { startFakeTrakt } from './fake-trakt.ts';

/*
 * The local Trakt (fake-trakt.ts) as a process, for the browser tests (apps/web/e2e/trakt.spec.ts):
 * Trakt's API on the first port, and on the second a small control API for the test, doing what a
 * viewer does at trakt.tv and reading what Trakt holds:
 *   GET  /health
 *   POST /approve {userCode, username}      the viewer entered the code and allowed Marquee
 *   GET  /state?username=…                  {history, watchlist, scrobbles, activeTokens}
 *   POST /watchlist {username, type, tmdbId} a title added to the watchlist at trakt.tv
 * Usage: node --import tsx apps/server/test/fake-trakt-cli.ts <api port> <control port>
 */
const [apiPort, controlPort] = process.argv.slice(2).map(Number);
if (!apiPort || !controlPort) {
  console.error('usage: fake-trakt-cli.ts <api port> <control port>');
  process.exit(2);
}
const trakt = await startFakeTrakt({
  port: apiPort,
  clientId: 'e2e-trakt-client',
  clientSecret: 'e2e-trakt-secret',
});

async function bodyOf(req: import('node:http').IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const answer = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  void (async () => {
    try {
      if (url.pathname === '/health') return answer(200, { ok: true });
      if (url.pathname === '/approve' && req.method === 'POST') {
        const { userCode, username } = await bodyOf(req);
        trakt.approve(String(userCode), String(username));
        return answer(200, { ok: true });
      }
      if (url.pathname === '/watchlist' && req.method === 'POST') {
        const { username, type, tmdbId } = await bodyOf(req);
        trakt.addToWatchlist(String(username), {
          type: type === 'show' ? 'show' : 'movie',
          tmdbId: Number(tmdbId),
        });
        return answer(200, { ok: true });
      }
      if (url.pathname === '/state') {
        const username = url.searchParams.get('username') ?? '';
        return answer(200, {
          history: trakt.history(username),
          watchlist: trakt.watchlist(username),
          scrobbles: trakt.scrobbles(username),
          activeTokens: trakt.activeTokens(username),
        });
      }
      return answer(404, { error: 'not found' });
    } catch (error) {
      return answer(400, { error: String(error) });
    }
  })();
});
control.listen(controlPort, '127.0.0.1');

for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.on(signal, () => {
    control.close();
    void trakt.close().then(() => process.exit(0));
  });
