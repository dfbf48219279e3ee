import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { loadConfig } from '../../config.ts';
import { createTestDatabase, testDialect } from '../../../test/test-database.ts';

/*
 * What the installed app (decision 078) needs from the server: the service worker and the manifest
 * revalidated on every use (a worker served stale would keep browsers on the old version), the right
 * types, and a policy that lets the page register the worker and read the manifest.
 */

const tmp = mkdtempSync(path.join(tmpdir(), 'marquee-web-'));
const dist = path.join(tmp, 'dist');
const worker = `self.addEventListener('fetch', () => {});${'//'.repeat(800)}`;
mkdirSync(path.join(dist, 'assets'), { recursive: true });
writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><!--marquee-runtime-config--></head><body><div id="root"><header></header><!--marquee-title-shell--></div></body></html>',
);
writeFileSync(path.join(dist, 'sw.js'), worker);
writeFileSync(path.join(dist, 'sw.js.br'), brotliCompressSync(worker));
writeFileSync(path.join(dist, 'sw.js.gz'), gzipSync(worker));
writeFileSync(path.join(dist, 'manifest.webmanifest'), JSON.stringify({ name: 'Marquee' }));
writeFileSync(path.join(dist, 'pwa-192.png'), Buffer.from('89504e470d0a1a0a', 'hex'));
writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), 'export {};');

let app: Awaited<ReturnType<typeof buildApp>>;
let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase(tmp);
  app = await buildApp(
    loadConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(tmp, 'data'),
      WEB_DIST_DIR: dist,
      CAPTCHA_PROVIDER: 'none',
    }),
    { database, logger: false },
  );
  await app.server.ready();
});
afterAll(async () => {
  await app.server.close();
  await database.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  app.server.inject({ method: 'GET', url, headers });

describe(`the installed app's files (${testDialect})`, () => {
  it('sends the service worker as JavaScript, precompressed, revalidated every time', async () => {
    const response = await get('/sw.js', { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/javascript/);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers.etag).toBeTruthy();
    const again = await get('/sw.js', {
      'accept-encoding': 'br, gzip',
      'if-none-match': response.headers.etag as string,
    });
    expect(again.statusCode).toBe(304);
  });

  it('sends the manifest and icons with their types, revalidated', async () => {
    const manifest = await get('/manifest.webmanifest');
    expect(manifest.headers['content-type']).toMatch(/^application\/manifest\+json/);
    expect(manifest.headers['cache-control']).toBe('no-cache');
    const icon = await get('/pwa-192.png');
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['cache-control']).toBe('no-cache');
    // Hashed build files stay immutable.
    const asset = await get('/assets/index-abc123.js');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it("lets the page register a same-origin worker and read its manifest under the page's policy", async () => {
    const page = await get('/mylist', { accept: 'text/html' });
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toMatch(/(?:^|;)\s*worker-src 'self'/);
    expect(csp).toMatch(/(?:^|;)\s*manifest-src 'self'/);
  });

  it('a missing worker is a 404, never the page (a registration must fail, not install HTML)', async () => {
    const response = await get('/sw-missing.js', { accept: '*/*' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe(`a title page's HTML (${testDialect})`, () => {
  const preloads = (html: string) =>
    [...html.matchAll(/<link rel="preload" as="image" href="([^"]+)"/g)].map((m) => m[1]);

  it('names its backdrop for the browser to fetch while the code loads (embedded catalog)', async () => {
    // The catalog is read on the first title anyone asks for (the page waits 40 ms at most, not for that).
    const details = await get('/api/media/movie/550?language=en&region=US');
    const backdrop = (details.json() as { backdrop: string | null }).backdrop;
    const page = await get('/media/tmdb-movie-550-fight-club', { accept: 'text/html' });
    expect(page.statusCode).toBe(200);
    expect(backdrop).toMatch(/^\/api\/images\//);
    expect(preloads(page.body)).toEqual([backdrop]);
    expect(page.body).toContain('fetchpriority="high"');
    // The page painted while the code loads shows it already, dimmed as the title page shows it.
    expect(page.body).toContain(`<header></header><div aria-hidden="true"`);
    expect(page.body).toContain(`<img src="${backdrop}" alt=""`);
    expect(page.body).not.toContain('<!--marquee-title-shell-->');
    // An episode's address of a show names the show's backdrop too.
    const episode = await get('/media/tmdb-tv-1396-breaking-bad/s1/e1', { accept: 'text/html' });
    expect(preloads(episode.body)).toHaveLength(1);
  });

  it('names nothing for other pages, titles the metadata does not have, or keys that are not a title', async () => {
    for (const url of [
      '/',
      '/discover',
      '/media/tmdb-movie-999999991-none',
      '/media/JW-movie-12',
      '/media/tmdb-movie-x',
    ])
      expect(preloads((await get(url, { accept: 'text/html' })).body), url).toEqual([]);
  });
});
