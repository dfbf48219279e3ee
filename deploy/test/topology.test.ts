import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKeys, newMnemonic } from '../../apps/server/test/passphrase-client.ts';
import { startNginx, type NginxProc } from './nginx.ts';
import {
  Cleanup,
  createPgDatabase,
  deleteRedisKeys,
  freePort,
  http,
  json,
  parseEvents,
  ROOT,
  startMarquee,
  type HttpResponse,
  type MarqueeProc,
} from './support.ts';

/*
 * compose.yaml's topology as plain processes (no Docker engine here): three `node apps/server/dist/main.js`
 * behind nginx running deploy/nginx.conf's rules, on one fresh PostgreSQL database and Redis. Everything
 * goes through nginx as a browser's requests would; the servers are also asked directly, to prove where
 * a request went. Needs the production build (npm run test:deploy builds it) and nginx.
 */
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const sampleMp4 = path.join(ROOT, 'apps/server/assets/samples/mp4/sample-360p.mp4');
const movieMeta = { title: 'The Matrix', year: 1999, poster: 'https://image.example/p.jpg', type: 'movie' };

const upstreamOf = (res: HttpResponse) => String(res.headers['x-upstream'] ?? '');
/** The server that finally answered (nginx lists every one it tried). */
const answeredBy = (res: HttpResponse) => upstreamOf(res).split(', ').at(-1)!;

describe('three servers behind nginx on PostgreSQL + Redis (compose.yaml as processes)', () => {
  const cleanup = new Cleanup();
  const work = mkdtempSync(path.join(tmpdir(), 'marquee-topology-'));
  const prefix = `deploy-${randomBytes(5).toString('hex')}:`;
  let databaseUrl: string;
  let servers: MarqueeProc[] = [];
  let nginx: NginxProc;
  let addresses: string[];

  const via = (p: string) => `${nginx.url}${p}`;

  beforeAll(async () => {
    cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
    const database = await createPgDatabase(adminUrl, 'mq_deploy');
    cleanup.add('drop the database', () => database.drop());
    databaseUrl = database.url;
    cleanup.add('delete the Redis keys', () => deleteRedisKeys(redisUrl, prefix));

    const env = {
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      // As compose.yaml: nginx alone reaches the servers and sets X-Forwarded-For itself.
      TRUST_PROXY: 'true',
      DATA_DIR: path.join(work, 'data'),
      CAPTCHA_PROVIDER: 'none',
      // Nothing listens there: the tests never leave this machine.
      JUSTWATCH_URL: 'http://127.0.0.1:9',
    };
    mkdirSync(env.DATA_DIR);
    const ports = [await freePort(), await freePort(), await freePort()];
    // Started together on the empty database, as compose starts replicas: all three migrate at once.
    servers = await Promise.all(
      ports.map((port, i) =>
        startMarquee(`marquee-${i + 1}`, { cwd: ROOT, env, port }).then((s) => cleanup.proc(s)),
      ),
    );
    addresses = ports.map((port) => `127.0.0.1:${port}`);
    // Its own folder under the system's temp folder: nginx's workers (an unprivileged user when the
    // tests run as root) must reach it, and the other temp folders are private.
    const nginxDir = mkdtempSync(path.join(tmpdir(), 'marquee-nginx-'));
    cleanup.add('remove the nginx folder', () => rmSync(nginxDir, { recursive: true, force: true }));
    nginx = cleanup.proc(await startNginx({ prefix: nginxDir, port: await freePort(), backends: ports }));
  }, 120_000);

  afterAll(async () => {
    await cleanup.run();
  }, 60_000);

  it('three servers started together on a fresh database all came up, and migrated it once', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ name: string }>(
        'select name from kysely_migration order by name',
      );
      expect(rows.length).toBeGreaterThanOrEqual(3);
      expect(new Set(rows.map((r) => r.name)).size).toBe(rows.length);
    } finally {
      await client.end();
    }
    for (const server of servers) expect((await http(`${server.url}/healthz`)).status).toBe(200);
  });

  it('serves the page and the API through nginx, from all three servers in turn', async () => {
    const page = await http(via('/'), { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text()).toContain('<div id="root"');

    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) {
      const res = await http(via('/api/media/movie/603'));
      expect(res.status).toBe(200);
      expect(res.json<{ title: string }>().title).toBe('The Matrix');
      seen.add(answeredBy(res));
    }
    expect([...seen].sort()).toEqual([...addresses].sort());

    // Precompressed assets pass through untouched.
    const script = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(page.text())?.[1];
    expect(script).toBeDefined();
    const asset = await http(via(script!), { headers: { 'accept-encoding': 'br' } });
    expect(asset.status).toBe(200);
    expect(asset.headers['content-encoding']).toBe('br');
  });

  it('a passphrase account registered through the balancer: what one server writes, the others read', async () => {
    const keys = deriveKeys(newMnemonic());
    const start = await http(via('/auth/register/start'), { method: 'POST', ...json({}) });
    expect(start.status).toBe(200);
    const { challenge } = start.json<{ challenge: string }>();
    // The next request goes to another server (round robin): the challenge is in the shared database.
    const done = await http(via('/auth/register/complete'), {
      method: 'POST',
      ...json({
        namespace: 'movie-web',
        publicKey: keys.publicKey,
        challenge: { code: challenge, signature: keys.sign(challenge) },
        device: keys.encryptDevice('Phone'),
        profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
      }),
    });
    expect(done.status, done.text()).toBe(200);
    expect(answeredBy(done)).not.toBe(answeredBy(start));
    const { user, token } = done.json<{ user: { id: string }; token: string }>();
    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const bookmark = await http(via(`/users/${user.id}/bookmarks/603`), {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ tmdbId: '603', meta: movieMeta }),
    });
    expect(bookmark.status).toBe(200);
    const progress = await http(via(`/users/${user.id}/progress/603`), {
      method: 'PUT',
      headers: auth,
      body: JSON.stringify({ tmdbId: '603', meta: movieMeta, duration: 8160, watched: 1200 }),
    });
    expect(progress.status).toBe(200);
    expect(answeredBy(progress)).not.toBe(answeredBy(bookmark));

    // Every server, asked directly, has both.
    for (const server of servers) {
      const bookmarks = await http(`${server.url}/users/${user.id}/bookmarks`, { headers: auth });
      expect(bookmarks.json<{ tmdbId: string }[]>().map((b) => b.tmdbId)).toEqual(['603']);
      const items = await http(`${server.url}/users/${user.id}/progress`, { headers: auth });
      expect(items.json<{ tmdbId: string; watched: string }[]>().map((p) => [p.tmdbId, p.watched])).toEqual([
        ['603', '1200'],
      ]);
    }
  });

  it('counts a rate limit across the three servers, per client address that nginx forwards', async () => {
    // register_challenge_tokens: 10 per 10 minutes per client. This client (127.0.0.3) also sends
    // made-up X-Forwarded-For addresses: nginx replaces them, so they change nothing.
    const statuses: number[] = [];
    const seen = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const res = await http(via('/auth/register/start'), {
        method: 'POST',
        localAddress: '127.0.0.3',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i}` },
        body: '{}',
      });
      statuses.push(res.status);
      seen.add(answeredBy(res));
    }
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429, 429]);
    expect(seen.size).toBe(3);
    // Another client, through the same nginx, is not limited: the servers see each client's address.
    const other = await http(via('/auth/register/start'), {
      method: 'POST',
      localAddress: '127.0.0.4',
      ...json({}),
    });
    expect(other.status).toBe(200);
  });

  it('streams scrape events through nginx as text/event-stream, with links to the public address', async () => {
    const res = await http(via('/scrape?type=movie&title=The%20Matrix&tmdbId=603&releaseYear=1999'), {
      headers: { accept: 'text/event-stream' },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    const events = parseEvents(res.text());
    expect(events[0]!.event).toBe('init');
    expect(events.map((e) => e.event)).toContain('start');
    expect(events.map((e) => e.event)).toContain('update');
    const completed = events.at(-1)!;
    expect(completed.event).toBe('completed');
    const output = completed.data as { sourceId: string; stream: { type: string; playlist?: string } };
    expect(output.sourceId).toBe('sample');
    // The server built the stream's URL from the Host nginx passed on: the viewer can reach it.
    expect(JSON.stringify(output.stream)).toContain(`${nginx.url}/api/sources/sample/`);
    expect(JSON.stringify(output.stream)).not.toMatch(
      new RegExp(addresses.map((a) => a.replace('.', '\\.')).join('|')),
    );
  });

  it('passes Range requests for media through (206 with the exact bytes)', async () => {
    const file = readFileSync(sampleMp4);
    // Media URLs are signed (decision 071): the sample's folder comes from a scrape's answer.
    const scrape = await http(via('/scrape/source?type=movie&title=Forrest%20Gump&tmdbId=13&id=sample'));
    const sampleFolder = /"embedId":"sample-file","url":"([^"]+)"/.exec(scrape.text())![1]!;
    const res = await http(`${sampleFolder}/mp4/sample-360p.mp4`, {
      headers: { range: 'bytes=1000-2999' },
    });
    expect(res.status).toBe(206);
    expect(res.headers['content-range']).toBe(`bytes 1000-2999/${file.length}`);
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.body.equals(file.subarray(1000, 3000))).toBe(true);
  });

  it('lets request bodies up to the server’s limit through and answers larger ones with the server’s error', async () => {
    const big = (bytes: number) => JSON.stringify({ captchaToken: 'x'.repeat(bytes) });
    const accepted = await http(via('/auth/register/start'), {
      method: 'POST',
      localAddress: '127.0.0.5',
      headers: { 'content-type': 'application/json' },
      body: big(1_000_000),
    });
    expect(accepted.status, nginx.errorLog()).not.toBe(413);
    expect(accepted.status, nginx.errorLog()).toBeLessThan(500);
    expect(answeredBy(accepted)).toMatch(/^127\.0\.0\.1:\d+$/);
    const tooLarge = await http(via('/auth/register/start'), {
      method: 'POST',
      localAddress: '127.0.0.5',
      headers: { 'content-type': 'application/json' },
      body: big(1_500_000),
    });
    expect(tooLarge.status).toBe(413);
    // The server's typed error (not nginx's HTML page), without bothering a server.
    expect(tooLarge.headers['content-type']).toMatch(/^application\/json/);
    expect(tooLarge.json()).toEqual({
      errorType: 'message',
      code: 'payload_too_large',
      message: 'Request body is too large',
    });
    expect(upstreamOf(tooLarge)).toBe('');
    // No server was taken out of rotation by it.
    const seen = new Set<string>();
    for (let i = 0; i < 6; i++) seen.add(answeredBy(await http(via('/api/media/movie/603'))));
    expect(seen.size).toBe(3);
  });

  /** Registers a passphrase account through nginx from `localAddress` (10 per address per 10 minutes). */
  async function registerVia(localAddress: string): Promise<{ id: string; token: string }> {
    const keys = deriveKeys(newMnemonic());
    const start = await http(via('/auth/register/start'), { method: 'POST', localAddress, ...json({}) });
    expect(start.status, start.text()).toBe(200);
    const { challenge } = start.json<{ challenge: string }>();
    const done = await http(via('/auth/register/complete'), {
      method: 'POST',
      localAddress,
      ...json({
        namespace: 'movie-web',
        publicKey: keys.publicKey,
        challenge: { code: challenge, signature: keys.sign(challenge) },
        device: keys.encryptDevice('Tab'),
        profile: { colorA: '#0A54FF', colorB: '#CF2E68', icon: 'couch' },
      }),
    });
    expect(done.status, done.text()).toBe(200);
    const { user, token } = done.json<{ user: { id: string }; token: string }>();
    return { id: user.id, token };
  }

  it('holds 2,000 open library streams (one per signed-in tab) and still answers', async () => {
    // nginx's default 1,024 connections per worker refused everyone at ~990 streams.
    const accounts = await Promise.all(
      Array.from({ length: 100 }, (_, i) => registerVia(`127.0.2.${1 + Math.floor(i / 10)}`)),
    );
    const sockets: Socket[] = [];
    /** Opens a library stream from `localAddress`: 'ready', or the status it was refused with. */
    const openStream = (account: { id: string; token: string }, localAddress: string) =>
      new Promise<'ready' | number>((resolve, reject) => {
        const socket = connect({ port: nginx.port, host: '127.0.0.1', localAddress });
        sockets.push(socket);
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => {
          text += chunk;
          if (text.includes('event: ready')) resolve('ready');
          else if (/^HTTP\/1\.1 (?!200)\d{3}/.test(text)) resolve(Number(text.slice(9, 12)));
        });
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`closed before ready: ${text.slice(0, 300)}`)));
        socket.write(
          `GET /users/${account.id}/events HTTP/1.1\r\nHost: ${nginx.url.slice(7)}\r\n` +
            `Authorization: Bearer ${account.token}\r\nAccept: text/event-stream\r\n\r\n`,
        );
      });
    try {
      // Households on 10 addresses (nginx allows 256 connections per address), 20 tabs per account.
      const opened = await Promise.all(
        accounts.flatMap((account, a) =>
          Array.from({ length: 20 }, (_, tab) => openStream(account, `127.0.4.${1 + ((a * 20 + tab) % 10)}`)),
        ),
      );
      expect(opened.filter((o) => o === 'ready')).toHaveLength(2000);
      // With all of them open, a viewer's page and API calls are served.
      expect((await http(via('/api/media/movie/603'))).status, nginx.errorLog().slice(-2000)).toBe(200);
      expect((await http(via('/'), { headers: { accept: 'text/html' } })).status).toBe(200);
      // One address holding more than its share is refused (429) past 256, without troubling others.
      const crowded = await Promise.all(
        Array.from({ length: 260 }, (_, i) => openStream(accounts[i % 100]!, '127.0.5.1')),
      );
      expect(crowded.filter((o) => o === 'ready')).toHaveLength(256);
      expect(crowded.filter((o) => o === 429)).toHaveLength(4);
      expect((await http(via('/healthz'), { localAddress: '127.0.5.2' })).status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  }, 180_000);

  it('takes a 10,000-row history import through nginx (8 MiB there, 1 MiB elsewhere)', async () => {
    const account = await registerVia('127.0.3.1');
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      tmdbId: String(100_000 + i),
      meta: { ...movieMeta, title: `Imported film number ${i}` },
      duration: 7200,
      watched: 60 + (i % 3000),
      updatedAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    }));
    const body = JSON.stringify(rows);
    expect(body.length).toBeGreaterThan(1024 * 1024);
    const res = await http(via(`/users/${account.id}/progress/import`), {
      method: 'PUT',
      localAddress: '127.0.3.1',
      headers: { authorization: `Bearer ${account.token}`, 'content-type': 'application/json' },
      body,
    });
    expect(res.status, res.text().slice(0, 300)).toBe(200);
    const listed = await http(via(`/users/${account.id}/progress`), {
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(listed.json<unknown[]>()).toHaveLength(10_000);
  }, 120_000);

  it('keeps answering with one server killed', async () => {
    const [dead, ...alive] = servers;
    dead!.child.kill('SIGKILL');
    await new Promise((r) =>
      dead!.child.exitCode !== null || dead!.child.signalCode !== null
        ? r(null)
        : dead!.child.once('exit', r),
    );
    const seen = new Set<string>();
    for (let i = 0; i < 9; i++) {
      const res = await http(via('/api/media/movie/603'));
      expect(res.status, upstreamOf(res)).toBe(200);
      seen.add(answeredBy(res));
    }
    expect([...seen].sort()).toEqual(alive.map((s) => `127.0.0.1:${s.port}`).sort());
    expect((await http(via('/healthz'))).status).toBe(200);
  });
});
