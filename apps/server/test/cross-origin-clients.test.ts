import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { solveChallenge } from 'altcha-lib/v1';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApiErrorBody } from '@marquee/contract';
import { loadConfig } from '../src/config.ts';
import { movieMeta, register, showMeta, startSyncApp, type SyncTestApp } from './sync-harness.ts';
import { testDialect } from './test-database.ts';

/*
 * What existing clients of the app family need from a Marquee server when they run, unchanged, on their
 * own origin (decision 015): CORS on the account/sync, customer and scrape APIs, registration on an
 * instance whose captcha they cannot solve, and bodiless requests that still say `application/json`.
 */

const CLIENT = 'https://client.example';
const body = <T = any>(res: LightMyRequestResponse) => JSON.parse(res.body) as T;
const headerList = (value: unknown) =>
  String(value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);

function preflight(
  t: SyncTestApp,
  url: string,
  method: string,
  headers = 'authorization,content-type',
  origin = CLIENT,
) {
  return t.server.inject({
    method: 'OPTIONS',
    url,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

/** A built web app with one hashed asset, so the page routes exist in the test app. */
function fakeWebDist(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'marquee-cors-web-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><title>Marquee</title><!--marquee-runtime-config-->',
  );
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  return dir;
}

const apps: SyncTestApp[] = [];
const start = async (...args: Parameters<typeof startSyncApp>) => {
  const app = await startSyncApp(...args);
  apps.push(app);
  return app;
};
const closeAll = async () => {
  while (apps.length) await apps.pop()!.close();
};

describe(`CORS for clients on other origins (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ env: { WEB_DIST_DIR: fakeWebDist() } });
  });
  afterAll(async () => {
    await t.close();
    await closeAll();
  });

  it('answers preflights of the account and sync API with 204, the methods and headers clients send', async () => {
    const res = await preflight(
      t,
      '/users/someone/bookmarks/603',
      'DELETE',
      'authorization,content-type,x-profile-id',
    );
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(headerList(res.headers['access-control-allow-methods'])).toEqual(
      expect.arrayContaining(['get', 'post', 'put', 'patch', 'delete']),
    );
    expect(headerList(res.headers['access-control-allow-headers'])).toEqual(
      expect.arrayContaining([
        'authorization',
        'content-type',
        'x-token',
        'x-profile-id',
        'x-auth-token',
        'x-request-id',
      ]),
    );
    expect(Number(res.headers['access-control-max-age'])).toBeGreaterThanOrEqual(600);
    // Bearer tokens, never cookies.
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it.each([
    ['/meta', 'GET'],
    ['/auth/register/start', 'POST'],
    ['/auth/login/complete', 'POST'],
    ['/users/@me', 'GET'],
    ['/users/someone/progress/603', 'PUT'],
    ['/users/someone/settings', 'PUT'],
    ['/sessions/0b7e1c9e-5b1f-4f55-9a55-2f0f7a8f5f10', 'PATCH'],
    ['/metrics/providers', 'POST'],
    ['/metrics/captcha', 'POST'],
    ['/customers', 'POST'],
    ['/customers/auth', 'POST'],
    ['/customers/someone/profiles/p1', 'DELETE'],
    ['/promos/SPRING', 'GET'],
    ['/shkeeper/list-cripto', 'GET'],
    ['/scrape?type=movie&title=x&tmdbId=603', 'GET'],
    ['/scrape/source', 'GET'],
    ['/scrape/embed', 'GET'],
    ['/metadata', 'GET'],
  ])('preflight of %s (%s) → 204 for any origin', async (url, method) => {
    const res = await preflight(t, url, method, 'x-token,authorization,content-type');
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(headerList(res.headers['access-control-allow-methods'])).toContain(method.toLowerCase());
  });

  it('puts the allow-origin header on answers, errors and 429s included, and exposes what scripts read', async () => {
    const meta = await t.server.inject({ url: '/meta', headers: { origin: CLIENT } });
    expect(meta.statusCode).toBe(200);
    expect(meta.headers['access-control-allow-origin']).toBe('*');
    expect(headerList(meta.headers['access-control-expose-headers'])).toEqual(
      expect.arrayContaining(['x-token', 'retry-after']),
    );

    // A client must be able to read a 401 to sign out locally (the app family's sync API).
    const anonymous = await t.server.inject({ url: '/users/@me', headers: { origin: CLIENT } });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['access-control-allow-origin']).toBe('*');

    const user = await register(t.server);
    const me = await t.server.inject({ url: '/users/@me', headers: { origin: CLIENT, ...user.headers } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['access-control-allow-origin']).toBe('*');

    const metadata = await t.server.inject({ url: '/metadata', headers: { origin: CLIENT } });
    expect(metadata.statusCode).toBe(200);
    expect(metadata.headers['access-control-allow-origin']).toBe('*');

    // A route this server does not have (a newer client's) is a 404 the client's script can read, so its
    // fallbacks run instead of the browser's "Failed to fetch".
    for (const url of [`/users/${user.user.id}/reviews`, `/users/${user.user.id}/a-future-route`]) {
      const missing = await t.server.inject({ url, headers: { origin: CLIENT, ...user.headers } });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.headers['access-control-allow-origin'], url).toBe('*');
      expect(body(missing), url).toMatchObject({ code: 'route_not_found' });
    }
  });

  it('leaves the web app’s pages and assets, our own /api and Prometheus’ /metrics without CORS headers', async () => {
    const html = { origin: CLIENT, accept: 'text/html' };
    for (const url of [
      '/',
      '/media/movie-603-the-matrix',
      '/assets/index-abc123.js',
      '/api/config',
      '/api/admin/self-test',
      '/metrics',
    ]) {
      const res = await t.server.inject({
        url,
        headers: url.startsWith('/api') || url === '/metrics' ? { origin: CLIENT } : html,
      });
      expect(res.statusCode, url).toBeLessThan(500);
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
      expect(res.headers['access-control-expose-headers'], url).toBeUndefined();
    }
    // The hashed assets and the home page carry no Vary: Origin either (their caches stay shared).
    for (const url of ['/', '/assets/index-abc123.js']) {
      const res = await t.server.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(200);
      expect(headerList(res.headers.vary), url).not.toContain('origin');
    }
    const pagePreflight = await preflight(t, '/api/config', 'GET');
    expect(pagePreflight.statusCode).toBe(404);
    expect(pagePreflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('CORS_ORIGINS lists exact origins: those are allowed, any other gets no allow-origin header', async () => {
    const app = await start({ env: { CORS_ORIGINS: `${CLIENT}, http://localhost:5173` } });
    const allowed = await preflight(
      app,
      '/auth/register/start',
      'POST',
      'content-type',
      'http://localhost:5173',
    );
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(headerList(allowed.headers.vary)).toContain('origin');
    const meta = await app.server.inject({ url: '/meta', headers: { origin: CLIENT } });
    expect(meta.headers['access-control-allow-origin']).toBe(CLIENT);

    const foreign = 'https://evil.example';
    expect(
      (await preflight(app, '/auth/register/start', 'POST', 'content-type', foreign)).headers[
        'access-control-allow-origin'
      ],
    ).toBeUndefined();
    for (const url of ['/meta', '/metadata', '/users/@me']) {
      const res = await app.server.inject({ url, headers: { origin: foreign } });
      expect(res.headers['access-control-allow-origin'], url).toBeUndefined();
    }
    // The scrape stream writes its own head: it carries the allowed origin, and never falls back to "*".
    const streamUrl = `/scrape/embed?id=sample-file&url=${encodeURIComponent('https://elsewhere.example/')}`;
    for (const [origin, expected] of [
      [CLIENT, CLIENT],
      [foreign, undefined],
    ] as const) {
      const stream = await app.server.inject({ url: streamUrl, headers: { origin } });
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(stream.headers['access-control-allow-origin'], origin).toBe(expected);
    }
  });

  it('CORS_ORIGINS=none switches CORS off: no headers, preflights are 404', async () => {
    const app = await start({ env: { CORS_ORIGINS: 'none' } });
    const res = await preflight(app, '/meta', 'GET');
    expect(res.statusCode).toBe(404);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const meta = await app.server.inject({ url: '/meta', headers: { origin: CLIENT } });
    expect(meta.statusCode).toBe(200);
    expect(meta.headers['access-control-allow-origin']).toBeUndefined();
    expect(
      (await app.server.inject({ url: '/metadata', headers: { origin: CLIENT } })).headers[
        'access-control-allow-origin'
      ],
    ).toBeUndefined();
  });

  it('CORS_ORIGINS is validated at start: origins only, `*` wins, empty means the default', () => {
    const env = { WEB_DIST_DIR: '/nonexistent' };
    expect(loadConfig({ ...env }).CORS_ORIGINS).toBe('*');
    expect(loadConfig({ ...env, CORS_ORIGINS: '' }).CORS_ORIGINS).toBe('*');
    expect(loadConfig({ ...env, CORS_ORIGINS: 'NONE' }).CORS_ORIGINS).toBe('none');
    expect(loadConfig({ ...env, CORS_ORIGINS: 'https://a.example,*' }).CORS_ORIGINS).toBe('*');
    expect(
      loadConfig({ ...env, CORS_ORIGINS: 'https://a.example , http://127.0.0.1:8080' }).CORS_ORIGINS,
    ).toEqual(['https://a.example', 'http://127.0.0.1:8080']);
    expect(() => loadConfig({ ...env, CORS_ORIGINS: 'https://a.example/' })).toThrow(
      /CORS_ORIGINS.*not an origin/,
    );
    expect(() => loadConfig({ ...env, CORS_ORIGINS: 'a.example' })).toThrow(/CORS_ORIGINS/);
  });
});

describe(`registration by clients that cannot solve our captcha (${testDialect})`, () => {
  afterEach(closeAll);

  const registerStart = (t: SyncTestApp, payload: unknown, remoteAddress = '198.51.100.7') =>
    t.server.inject({
      method: 'POST',
      url: '/auth/register/start',
      payload: payload as object,
      remoteAddress,
      headers: { origin: CLIENT },
    });

  async function solvedAltcha(t: SyncTestApp): Promise<string> {
    const challenge = body(await t.server.inject({ url: '/auth/captcha/challenge' }));
    const solution = await solveChallenge(
      challenge.challenge,
      challenge.salt,
      challenge.algorithm,
      challenge.maxnumber,
    ).promise;
    return Buffer.from(JSON.stringify({ ...challenge, number: solution!.number })).toString('base64');
  }

  it('GET /meta says hasCaptcha only when those clients can solve it (reCAPTCHA with a site key)', async () => {
    const cases: [Record<string, string>, object][] = [
      [{ CAPTCHA_PROVIDER: 'none' }, { hasCaptcha: false }],
      [{ CAPTCHA_PROVIDER: 'altcha' }, { hasCaptcha: false }],
      [
        { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'ts-site' },
        { hasCaptcha: false },
      ],
      [
        { CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'rc-site' },
        { hasCaptcha: true, captchaClientKey: 'rc-site' },
      ],
    ];
    for (const [env, expected] of cases) {
      const t = await start({ env });
      const meta = body(await t.server.inject({ url: '/meta' }));
      expect(
        {
          hasCaptcha: meta.hasCaptcha,
          ...(meta.captchaClientKey ? { captchaClientKey: meta.captchaClientKey } : {}),
        },
        env.CAPTCHA_PROVIDER,
      ).toEqual(expected);
    }
  });

  it('ALTCHA instance: register/start without a token works, under a tighter per-address limit than a solved captcha', async () => {
    const t = await start({ env: { CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' } });
    // The whole flow, as a client that never saw a captcha (no token field at all, or an empty one).
    const user = await register(t.server);
    expect(user.user.namespace).toBe('movie-web');
    expect((await registerStart(t, { captchaToken: '' })).statusCode).toBe(200);
    expect((await registerStart(t, null)).statusCode).toBe(200);
    expect((await registerStart(t, {})).statusCode).toBe(200);
    const refused = await registerStart(t, {});
    expect(refused.statusCode).toBe(429);
    expect(ApiErrorBody.parse(body(refused))).toEqual({
      errorType: 'message',
      code: 'rate_limited',
      message: 'Ratelimited',
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Readable by the client on its own origin.
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    // Another address has its own budget; a solved ALTCHA (our web app) is not held by that limit.
    expect((await registerStart(t, {}, '198.51.100.8')).statusCode).toBe(200);
    expect((await registerStart(t, { captchaToken: await solvedAltcha(t) })).statusCode).toBe(200);
  });

  it('a captcha token that is sent is still checked: a bad one is refused, not waved through', async () => {
    const t = await start({ env: { CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' } });
    const bad = await registerStart(t, { captchaToken: 'bm90IGEgc29sdXRpb24=' });
    expect(bad.statusCode).toBe(400);
    expect(body(bad)).toMatchObject({ errorType: 'message', code: 'captcha_invalid' });
    const token = await solvedAltcha(t);
    expect((await registerStart(t, { captchaToken: token })).statusCode).toBe(200);
    expect(body(await registerStart(t, { captchaToken: token })).code).toBe('captcha_invalid'); // replay
  });

  it('an instance-wide ceiling holds captcha-less accounts made from many addresses; starts alone spend nothing', async () => {
    const t = await start({
      env: { CAPTCHA_PROVIDER: 'altcha', ALTCHA_MAX_NUMBER: '1000' },
      deps: {
        accounts: {
          rateLimits: { register_without_captcha_instance: { points: 2, durationMs: 60 * 60_000 } },
        },
      },
    });
    // Starts that go nowhere, from many addresses (30 of them used to close registration for an hour).
    for (let i = 0; i < 12; i++)
      expect((await registerStart(t, {}, `203.0.113.${100 + i}`)).statusCode).toBe(200);
    // Accounts made without a captcha spend the budget: two, then the ceiling.
    const completeFrom = (address: string) =>
      register(t.server, { remoteAddress: address }).then(
        () => 200,
        (error: Error) => Number(/register\/(?:start|complete) (\d{3})/.exec(error.message)?.[1] ?? 0),
      );
    expect(await completeFrom('203.0.113.1')).toBe(200);
    expect(await completeFrom('203.0.113.2')).toBe(200);
    expect(await completeFrom('203.0.113.3')).toBe(429);
    // Once it is spent, a start without a captcha is refused at once, with when to come back.
    const refused = await registerStart(t, {}, '203.0.113.4');
    expect(refused.statusCode).toBe(429);
    expect(body(refused)).toMatchObject({ errorType: 'message', code: 'rate_limited' });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // Solving the captcha still works for everyone.
    expect((await registerStart(t, { captchaToken: await solvedAltcha(t) }, '203.0.113.5')).statusCode).toBe(
      200,
    );
  });

  it('Turnstile instance: no token is accepted (limited), a token is verified; reCAPTCHA with a site key still requires one', async () => {
    let success = false;
    const fakeFetch = (async () =>
      new Response(JSON.stringify({ success }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      })) as unknown as typeof fetch;
    const turnstile = await start({
      env: { CAPTCHA_PROVIDER: 'turnstile', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'k' },
      deps: { fetch: fakeFetch },
    });
    expect((await registerStart(turnstile, {})).statusCode).toBe(200);
    expect(body(await registerStart(turnstile, { captchaToken: 'forged' })).code).toBe('captcha_invalid');
    success = true;
    expect((await registerStart(turnstile, { captchaToken: 'good' })).statusCode).toBe(200);

    const recaptcha = await start({
      env: { CAPTCHA_PROVIDER: 'recaptcha', CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'k' },
      deps: { fetch: fakeFetch },
    });
    const missing = await registerStart(recaptcha, {});
    expect(missing.statusCode).toBe(400);
    expect(body(missing).code).toBe('captcha_required');
  });

  it('without any captcha (CAPTCHA_PROVIDER=none) only the usual registration limit applies', async () => {
    const t = await start();
    for (let i = 0; i < 5; i++) expect((await registerStart(t, {})).statusCode).toBe(200);
  });
});

describe(`bodiless requests that say Content-Type: application/json (${testDialect})`, () => {
  let t: SyncTestApp;
  beforeAll(async () => {
    t = await startSyncApp({ deps: { accounts: { rateLimits: false } } });
  });
  afterAll(async () => t.close());

  const json = { 'content-type': 'application/json' };

  it('DELETE of a bookmark with a JSON content type and no body removes it', async () => {
    const u = await register(t.server);
    const url = `/users/${u.user.id}/bookmarks/603`;
    expect(
      (
        await t.server.inject({
          method: 'POST',
          url,
          headers: u.headers,
          payload: { tmdbId: '603', meta: movieMeta() },
        })
      ).statusCode,
    ).toBe(200);
    for (const headers of [
      json,
      { ...json, 'content-length': '0' },
      { 'content-type': 'application/json; charset=utf-8' },
    ]) {
      const res = await t.server.inject({
        method: 'DELETE',
        url,
        headers: { ...u.headers, ...headers },
        payload: '',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(body(res)).toEqual({ tmdbId: '603' });
    }
    expect(body(await t.server.inject({ url: `/users/${u.user.id}/bookmarks`, headers: u.headers }))).toEqual(
      [],
    );
  });

  it('DELETE of progress with a JSON content type and no body removes the title (like `{}`)', async () => {
    const u = await register(t.server);
    const put = (tmdbId: string, payload: object) =>
      t.server.inject({
        method: 'PUT',
        url: `/users/${u.user.id}/progress/${tmdbId}`,
        headers: u.headers,
        payload,
      });
    expect(
      (await put('603', { tmdbId: '603', meta: movieMeta(), duration: 8160, watched: 600 })).statusCode,
    ).toBe(200);
    const episode = {
      tmdbId: '1396',
      meta: showMeta(),
      duration: 2700,
      watched: 300,
      seasonId: 's1',
      episodeId: 'e1',
      seasonNumber: 1,
      episodeNumber: 1,
    };
    expect((await put('1396', episode)).statusCode).toBe(200);
    const res = await t.server.inject({
      method: 'DELETE',
      url: `/users/${u.user.id}/progress/603`,
      headers: { ...u.headers, ...json },
      payload: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(body(res)).toMatchObject({ count: 1, tmdbId: '603' });
    const left = body<{ tmdbId: string }[]>(
      await t.server.inject({ url: `/users/${u.user.id}/progress`, headers: u.headers }),
    );
    expect(left.map((p) => p.tmdbId)).toEqual(['1396']);
  });

  it('a route that needs a body answers an empty one with a validation error, not a parser error', async () => {
    const u = await register(t.server);
    const res = await t.server.inject({
      method: 'POST',
      url: `/users/${u.user.id}/bookmarks/603`,
      headers: { ...u.headers, ...json },
      payload: '',
    });
    expect(res.statusCode).toBe(400);
    expect(body(res)).toMatchObject({ errorType: 'validation', code: 'validation_failed' });
  });

  it('malformed JSON in a body is still a 400 with a code; prototype poisoning too', async () => {
    const u = await register(t.server);
    for (const payload of ['{"tmdbId":', ' ', '{"__proto__":{"x":1}}']) {
      const res = await t.server.inject({
        method: 'DELETE',
        url: `/users/${u.user.id}/progress/603`,
        headers: { ...u.headers, ...json },
        payload,
      });
      expect(res.statusCode, payload).toBe(400);
      expect(ApiErrorBody.parse(body(res)), payload).toMatchObject({
        errorType: 'message',
        code: 'bad_request',
      });
      expect(body(res).message, payload).toMatch(/JSON/);
    }
    const tooBig = await t.server.inject({
      method: 'PUT',
      url: `/users/${u.user.id}/bookmarks`,
      headers: { ...u.headers, ...json },
      // Imports take up to 8 MiB (decision 072); every other route 1 MiB.
      payload: JSON.stringify([
        { tmdbId: '1', meta: { ...movieMeta(), title: 'x'.repeat(9 * 1024 * 1024) } },
      ]),
    });
    expect(tooBig.statusCode).toBe(413);
    expect(body(tooBig).code).toBe('payload_too_large');
  });
});
