import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody, errorCodes } from '@marquee/contract';
import { register, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * docs/security.md: answers given outside the routes (bad URLs, unknown routes, wrong content types, bodies
 * too large, requests Node cannot parse) use the app's `{errorType, code, message}` shape; /metrics
 * needs its token by default; an event stream honours `Connection: close`. Decision 073.
 */

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The server closed the connection. */
  closed: boolean;
}

/** Sends bytes as they are (fetch would refuse or repair most of these requests) and reads until the server closes. */
function raw(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
      const headers = Object.fromEntries(
        headerLines.map((line) => {
          const colon = line.indexOf(':');
          return [line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()];
        }),
      );
      resolve({
        status: Number(statusLine!.split(' ')[1]),
        headers,
        body: text.slice(split + 4),
        closed: true,
      });
    });
  });
}

const get = (path: string, headers = '') =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${headers}Connection: close\r\n\r\n`;

function expectAppError(
  answer: { status: number; body: string } | { statusCode: number; body: string },
  status: number,
  code?: string,
) {
  expect('status' in answer ? answer.status : answer.statusCode, answer.body).toBe(status);
  const body = JSON.parse(answer.body) as ApiErrorBody;
  expect(ApiErrorBody.safeParse(body).success, answer.body).toBe(true);
  expect(Object.keys(body).sort()).toEqual(
    body.issues ? ['code', 'errorType', 'issues', 'message'] : ['code', 'errorType', 'message'],
  );
  expect(errorCodes).toContain(body.code);
  if (code) expect(body.code).toBe(code);
}

describe(`errors outside the routes, in the app’s shape (${testDialect})`, () => {
  let t: SyncTestApp;
  let port: number;

  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
    port = Number(new URL(await t.server.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => t.close());

  it('a malformed URL (bad percent-encoding) is a 400', async () => {
    for (const path of ['/users/%E0%A4%A', '/api/%zz', '/api/media/movie/%']) {
      expectAppError(await raw(port, get(path)), 400, 'bad_request');
      expectAppError(await t.server.inject({ url: path }), 400, 'bad_request');
    }
  });

  it('an over-long route parameter is a 414', async () => {
    expectAppError(await raw(port, get(`/users/${'x'.repeat(200)}`)), 414, 'bad_request');
  });

  it('an unknown route is a 404 (any method, bodiless or not)', async () => {
    expectAppError(await raw(port, get('/api/nope')), 404, 'route_not_found');
    expectAppError(
      await raw(
        port,
        'DELETE /api/nope HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n',
      ),
      404,
      'route_not_found',
    );
  });

  it('a body of a type the server does not read is a 415', async () => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/login/start',
      headers: { 'content-type': 'application/xml' },
      payload: '<publicKey>x</publicKey>',
    });
    expectAppError(res, 415, 'unsupported_media_type');
    expectAppError(
      await raw(
        port,
        'POST /auth/login/start HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nConnection: close\r\n\r\na=b',
      ),
      415,
      'unsupported_media_type',
    );
  });

  it('a body over the limit is a 413, whether announced or streamed', async () => {
    expectAppError(
      await raw(
        port,
        'POST /auth/login/start HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\nConnection: close\r\n\r\n{',
      ),
      413,
      'payload_too_large',
    );
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/login/start',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ publicKey: 'x'.repeat(1024 * 1024 + 10) }),
    });
    expectAppError(res, 413, 'payload_too_large');
  });

  it('JSON nested past any body the API takes is refused before it is parsed, with a short answer', async () => {
    // 1 MiB of `[`…`]` used to cost seconds of CPU and answer a 2 MB error; no account needed.
    const deep = `${'['.repeat(500_000)}${']'.repeat(500_000)}`;
    const res = await t.server.inject({
      method: 'POST',
      url: '/auth/login/start',
      headers: { 'content-type': 'application/json' },
      payload: deep,
    });
    expectAppError(res, 400, 'bad_request');
    expect(res.body.length).toBeLessThan(500);
    expect(JSON.parse(res.body).message).toMatch(/nested/);
    // Objects count too; brackets inside strings (escaped quotes included) do not.
    const objects = `${'{"a":'.repeat(100)}1${'}'.repeat(100)}`;
    expectAppError(
      await t.server.inject({
        method: 'POST',
        url: '/auth/login/start',
        headers: { 'content-type': 'application/json' },
        payload: objects,
      }),
      400,
      'bad_request',
    );
    const inString = await t.server.inject({
      method: 'POST',
      url: '/auth/login/start',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ publicKey: `\\"${'[{'.repeat(200)}` }),
    });
    expect(inString.statusCode).not.toBe(500);
    expect(JSON.parse(inString.body).message ?? '').not.toMatch(/nested/);
  });

  it('answers that belong to one viewer are never stored by the browser (Cache-Control: no-store)', async () => {
    // A shared computer kept the previous viewer's library, email and token in its HTTP cache.
    const start = await t.server.inject({ method: 'POST', url: '/auth/register/start', payload: {} });
    expect(start.headers['cache-control']).toBe('no-store');
    const viewer = await register(t.server);
    for (const url of [
      `/users/${viewer.user.id}/bookmarks`,
      `/users/${viewer.user.id}/progress`,
      '/users/@me',
    ]) {
      const res = await t.server.inject({ url, headers: viewer.headers });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    // Refused for want of a session: nothing personal, but not worth keeping either.
    const refused = await t.server.inject({ url: `/users/${viewer.user.id}/bookmarks` });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['cache-control']).toBe('no-store');
    // What is the same for everyone keeps its own rules.
    const meta = await t.server.inject({ url: '/meta' });
    expect(meta.statusCode).toBe(200);
    expect(meta.headers['cache-control']).toBeUndefined();
  });

  it('caps the connections one address holds open; other addresses and trusted proxies are not held back', async () => {
    const capped = await startSyncApp({
      env: { MAX_CONNECTIONS_PER_ADDRESS: '3', TRUST_PROXY: '127.0.0.9' },
    });
    const cappedPort = Number(new URL(await capped.server.listen({ port: 0, host: '0.0.0.0' })).port);
    const sockets: Socket[] = [];
    /** Opens a connection from `from` and says whether the server kept it (answers a request on it). */
    const keeps = (from: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ port: cappedPort, host: '127.0.0.1', localAddress: from }, () =>
          socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'),
        );
        sockets.push(socket);
        socket.once('data', () => resolve(true));
        socket.once('close', () => resolve(false));
        socket.once('error', () => resolve(false));
      });
    try {
      for (let i = 0; i < 3; i++) expect(await keeps('127.0.0.7')).toBe(true);
      expect(await keeps('127.0.0.7')).toBe(false);
      expect(await keeps('127.0.0.8')).toBe(true);
      for (let i = 0; i < 5; i++) expect(await keeps('127.0.0.9')).toBe(true);
      // A connection closed makes room again.
      sockets[0]!.destroy();
      await expect.poll(() => keeps('127.0.0.7')).toBe(true);
    } finally {
      for (const socket of sockets) socket.destroy();
      await capped.close();
    }
  });

  it('a large invalid body answers its first issues only', async () => {
    const res = await t.server.inject({
      method: 'POST',
      url: '/metrics/providers',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ items: Array.from({ length: 10 }, () => ({})) }),
    });
    expectAppError(res, 400, 'validation_failed');
    expect(JSON.parse(res.body).issues).toHaveLength(20);
    expect(res.body.length).toBeLessThan(10_000);
  });

  it('requests Node cannot parse get the app’s shape too (and the connection is closed)', async () => {
    for (const [request, status] of [
      ['GARBAGE\r\n\r\n', 400],
      ['GET /a b HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
      ['GET /api/config HTTP/1.1\r\nHost: localhost\r\nX-Bad: a\u0000b\r\n\r\n', 400],
      ['FOO /api/config HTTP/1.1\r\nHost: localhost\r\n\r\n', 400],
      [`GET /api/config HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
      ['GET /api/config HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
    ] as const) {
      const answer = await raw(port, request);
      expect(answer.closed).toBe(true);
      expectAppError(answer, status, 'bad_request');
    }
    // (HTTP/1.0 needs no Host.)
    expect((await raw(port, 'GET /api/config HTTP/1.0\r\n\r\n')).status).toBe(200);
  });
});

describe(`GET /metrics needs its token by default (${testDialect})`, () => {
  const apps: SyncTestApp[] = [];
  const start = async (env: Record<string, string>) => {
    const app = await startSyncApp({ env });
    apps.push(app);
    return app;
  };
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('refuses without METRICS_TOKEN unless METRICS_PUBLIC=true; with a token, only that token', async () => {
    const closed = await start({});
    expectAppError(await closed.server.inject({ url: '/metrics' }), 401, 'unauthorized');
    expectAppError(
      await closed.server.inject({ url: '/metrics', headers: { authorization: 'Bearer ' } }),
      401,
      'unauthorized',
    );

    const open = await start({ METRICS_PUBLIC: 'true' });
    const scraped = await open.server.inject({ url: '/metrics' });
    expect(scraped.statusCode).toBe(200);
    expect(scraped.body).toContain('http_request_duration_seconds');

    const tokened = await start({ METRICS_TOKEN: 'scrape-me', METRICS_PUBLIC: 'true' });
    expectAppError(await tokened.server.inject({ url: '/metrics' }), 401, 'unauthorized');
    expectAppError(
      await tokened.server.inject({ url: '/metrics', headers: { authorization: 'Bearer scrape-m' } }),
      401,
      'unauthorized',
    );
    const ok = await tokened.server.inject({
      url: '/metrics',
      headers: { authorization: 'Bearer scrape-me' },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toMatch(/^text\/plain/);
  });
});

describe(`event streams and Connection: close (${testDialect})`, () => {
  let t: SyncTestApp;
  let port: number;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
    port = Number(new URL(await t.server.listen({ port: 0, host: '127.0.0.1' })).port);
  });
  afterAll(async () => t.close());

  // A released title of the embedded catalog (the scrape API refuses media the metadata does not have).
  const scrape = '/scrape?type=movie&title=Forrest%20Gump&releaseYear=1994&tmdbId=13';

  it('closes the socket once the stream has ended when the client asked for Connection: close', async () => {
    const answer = await raw(port, get(scrape));
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(answer.headers.connection).toBe('close');
    // The whole stream arrived before the server closed: its terminal event is there.
    expect(answer.body).toMatch(/event: (completed|noOutput|error)\n/);
    expect(answer.closed).toBe(true);
  });

  it('keeps the connection alive for clients that did not ask to close it', async () => {
    const res = await fetch(`http://127.0.0.1:${port}${scrape}`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('connection')).toBe('keep-alive');
    await res.text();
  });
});
