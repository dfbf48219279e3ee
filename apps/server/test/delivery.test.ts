import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createTestDatabase, testDialect } from './test-database.ts';

/*
 * How the production server delivers: precompressed built assets, compressed API JSON over 1 KB (never
 * event streams or media), ETags and revalidation, and the security headers of every answer — a CSP
 * that allows the page's one inline script by its hash, never by 'unsafe-inline'.
 */

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-delivery-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const dist = path.join(tmp, 'dist');
const bundle = `console.log(${JSON.stringify('marquee '.repeat(2000))});`;
mkdirSync(path.join(dist, 'assets'), { recursive: true });
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--marquee-runtime-config--></head><body><span><!--marquee-instance-name--></span></body></html>',
);
writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), bundle);
writeFileSync(path.join(dist, 'assets', 'app-abc123.js.br'), brotliCompressSync(bundle));
writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), gzipSync(bundle));
writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');

async function startApp(env: Record<string, string> = {}) {
  const database = await createTestDatabase(tmp);
  const app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(tmp, 'data'),
      WEB_DIST_DIR: dist,
      CAPTCHA_PROVIDER: 'none',
      ...env,
    }),
    { database, logger: false },
  );
  await app.server.ready();
  return {
    inject: app.server.inject.bind(app.server),
    async close() {
      await app.server.close();
      await database.destroy();
    },
  };
}

/** A directive's values ([] for a directive without any), or null when the policy lacks it. */
function directive(csp: string | undefined, name: string): string[] | null {
  const match = new RegExp(`(?:^|;)\\s*${name}(?: ([^;]*))?\\s*(?:;|$)`).exec(csp ?? '');
  if (!match) return null;
  return match[1] ? match[1].trim().split(/\s+/) : [];
}

describe(`delivery (${testDialect})`, () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp();
  });
  afterAll(async () => {
    await app.close();
  });
  const page = (headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/discover', headers: { accept: 'text/html', ...headers } });

  it('allows the inlined runtime configuration by its exact hash, and no other inline script', async () => {
    const response = await page();
    expect(response.statusCode).toBe(200);
    const inline = /<script>(.*?)<\/script>/s.exec(response.body)?.[1];
    expect(inline).toContain('window.__MARQUEE_CONFIG__=');
    const hash = `'sha256-${createHash('sha256').update(inline!).digest('base64')}'`;
    const scriptSrc = directive(response.headers['content-security-policy'] as string, 'script-src');
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toContain(hash);
    expect(scriptSrc).not.toContain("'unsafe-inline'");
    expect(scriptSrc).not.toContain("'unsafe-eval'");
  });

  it("names the instance, escaped, in the header painted before the app's code runs", async () => {
    const named = await startApp({ INSTANCE_NAME: 'Films & <Friends>' });
    try {
      const response = await named.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(response.body).toContain('<span>Films &#38; &#60;Friends&#62;</span>');
      expect(response.body).not.toContain('<Friends>');
    } finally {
      await named.close();
    }
  });

  it('sends the security headers on pages, assets and API answers alike', async () => {
    const answers = await Promise.all([
      page(),
      app.inject({ method: 'GET', url: '/assets/app-abc123.js' }),
      app.inject({ method: 'GET', url: '/api/config' }),
      app.inject({ method: 'GET', url: '/api/nope' }),
    ]);
    for (const response of answers) {
      const csp = response.headers['content-security-policy'] as string;
      expect(directive(csp, 'frame-ancestors')).toEqual(["'none'"]);
      expect(directive(csp, 'object-src')).toEqual(["'none'"]);
      expect(directive(csp, 'script-src')).not.toContain("'unsafe-inline'");
      // The ASS renderer's WebAssembly compiles (in its worker, under the asset's policy); eval does not.
      expect(directive(csp, 'script-src')).toContain("'wasm-unsafe-eval'");
      expect(directive(csp, 'script-src')).not.toContain("'unsafe-eval'");
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      expect(response.headers['referrer-policy']).toBe('no-referrer');
      expect(response.headers['x-frame-options']).toBe('DENY');
      // Plain http: no HSTS, and no upgrade of this origin's own http requests.
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(directive(csp, 'upgrade-insecure-requests')).toBeNull();
    }
  });

  it('revalidates the page: no-cache, an ETag, and 304 while it is unchanged', async () => {
    const first = await page({ 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe('no-cache');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/".+"$/);
    const again = await page({ 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const config = await app.inject({ method: 'GET', url: '/api/config' });
    expect(config.headers['cache-control']).toBe('no-cache');
    const configAgain = await app.inject({
      method: 'GET',
      url: '/api/config',
      headers: { 'if-none-match': config.headers.etag as string },
    });
    expect(configAgain.statusCode).toBe(304);
  });

  it('serves the build-time brotli or gzip copy of a hashed asset, immutable for a year', async () => {
    const br = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(bundle);
    const gz = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBe('gzip');
    const plain = await app.inject({
      method: 'GET',
      url: '/assets/app-abc123.js',
      headers: { 'accept-encoding': 'identity' },
    });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(bundle);
    const icon = await app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('no-cache');
    expect(icon.headers.etag).toBeTruthy();
  });

  it('compresses API JSON over 1 KB and leaves smaller answers as they are', async () => {
    const big = await app.inject({
      method: 'GET',
      url: '/api/lists/movie/popular?page=1',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(big.statusCode).toBe(200);
    expect(big.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString())).toHaveProperty('results');
    const small = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body)).toEqual({ status: 'ok' });
  });

  it('never compresses media (range requests) or event streams (they flush as they go)', async () => {
    const stream = await app.inject({
      method: 'GET',
      url: '/scrape?type=movie&title=The%20Matrix&tmdbId=603&releaseYear=1999',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(stream.headers['content-encoding']).toBeUndefined();
    expect(stream.body).toContain('event: ');
    // The sample playlist's signed URL (decision 071), from the scrape's answer.
    const playlist = /"playlist":"([^"]+)"/.exec(stream.body)![1]!;
    const media = await app.inject({
      method: 'GET',
      url: new URL(playlist).pathname,
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(media.statusCode).toBe(200);
    expect(media.headers['content-encoding']).toBeUndefined();
  });
});

describe('delivery on an https instance with Turnstile', () => {
  let app: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    app = await startApp({
      PUBLIC_URL: 'https://watch.example',
      CAPTCHA_PROVIDER: 'turnstile',
      CAPTCHA_SITE_KEY: 'site-key',
      CAPTCHA_SECRET: 'secret',
    });
  });
  afterAll(async () => {
    await app.close();
  });

  it('adds HSTS and upgrades insecure requests', async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    expect(
      directive(response.headers['content-security-policy'] as string, 'upgrade-insecure-requests'),
    ).toEqual([]);
  });

  it("allows the captcha provider's script and frame, and nothing more", async () => {
    const response = await app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
    const csp = response.headers['content-security-policy'] as string;
    expect(directive(csp, 'script-src')).toContain('https://challenges.cloudflare.com');
    expect(directive(csp, 'frame-src')).toEqual(['https://challenges.cloudflare.com']);
    expect(directive(csp, 'script-src')).not.toContain('https://www.google.com/recaptcha/');
  });
});
