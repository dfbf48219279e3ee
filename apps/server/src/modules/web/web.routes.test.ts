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
// What the web build writes for the pages a first visit opens (apps/web/first-view-hints-plugin.ts).
writeFileSync(
  path.join(dist, 'first-view.json'),
  JSON.stringify({
    layout: { en: 'assets/en-1.js', ja: 'assets/ja-1.js', fr: 'assets/../../etc/passwd.js' },
    pages: [
      {
        path: '/discover',
        prefix: false,
        variant: null,
        code: [],
        catalogs: { en: ['assets/discover-en.js'], ja: ['assets/discover-ja.js'] },
      },
      {
        path: '/media/',
        prefix: true,
        variant: null,
        code: ['assets/media-route-1.js', 'assets/session-1.js'],
        catalogs: { en: ['assets/player-en.js'], ja: ['assets/player-ja.js'] },
      },
      {
        path: '/',
        prefix: false,
        variant: 'subscription',
        code: ['assets/landing-page-1.js'],
        catalogs: { en: ['assets/landing-en.js'] },
      },
    ],
  }),
);

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

describe(`the files a first view loads on demand, named in the page (${testDialect})`, () => {
  const modulePreloads = (html: string) =>
    [...html.matchAll(/<link rel="modulepreload" crossorigin fetchpriority="low" href="([^"]+)">/g)].map(
      (m) => m[1],
    );
  const page = async (url: string, language?: string) =>
    modulePreloads(
      (await get(url, { accept: 'text/html', ...(language ? { 'accept-language': language } : {}) })).body,
    );

  it("names the page's catalogs in the language the app will start in, beside the layout's", async () => {
    expect(await page('/discover', 'ja-JP,ja;q=0.9,en;q=0.5')).toEqual(
      ['assets/ja-1.js', 'assets/discover-ja.js'].map((f) => `/${f}`),
    );
    // No language asked for, or one the app does not speak: English, as the app starts.
    expect(await page('/discover')).toEqual(['/assets/en-1.js', '/assets/discover-en.js']);
    expect(await page('/discover?now=2026-01-01', 'xx')).toEqual([
      '/assets/en-1.js',
      '/assets/discover-en.js',
    ]);
  });

  it("names a title page's code with its catalogs, for every address under /media/", async () => {
    expect(await page('/media/tmdb-tv-1396-breaking-bad/s1/e1')).toEqual([
      '/assets/en-1.js',
      '/assets/media-route-1.js',
      '/assets/session-1.js',
      '/assets/player-en.js',
    ]);
  });

  it("names only the layout's catalogs for other pages, and the landing only on a subscription site", async () => {
    expect(await page('/about')).toEqual(['/assets/en-1.js']);
    expect(await page('/')).toEqual(['/assets/en-1.js']);
  });

  it('names nothing that is not a built file (a name out of the assets folder is left out)', async () => {
    expect(await page('/about', 'fr')).toEqual([]);
  });
});
