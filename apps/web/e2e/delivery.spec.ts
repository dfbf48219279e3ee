import { expect, test, type Page } from '@playwright/test';

/** The first view of `/` may move at most this much JavaScript over the wire (issue 9, also checked at build). */
const FIRST_VIEW_JS_BUDGET = 150 * 1024;

/** Collects every CSP violation the page reports, from its first script on. */
async function watchCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
    });
  });
  return violations;
}

test.describe('delivery of the production build', () => {
  test('the first view of / moves at most 150 KB of JavaScript, compressed', async ({ page }) => {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    const scripts = new Map<string, { url: string; encoding: string; headerBytes: number }>();
    const wire = new Map<string, number>();
    cdp.on('Network.responseReceived', (event) => {
      if (event.type === 'Script') {
        const { url, headers, encodedDataLength } = event.response;
        scripts.set(event.requestId, {
          url,
          encoding: String(headers['content-encoding'] ?? ''),
          headerBytes: encodedDataLength,
        });
      }
    });
    // Bytes received for the response, headers included; the JavaScript is what follows the headers.
    cdp.on('Network.loadingFinished', (event) => wire.set(event.requestId, event.encodedDataLength));

    await page.goto('/', { waitUntil: 'networkidle' });
    await expect(page.getByTestId('greeting')).toBeVisible();

    // Every script of the first view, the chunks its routes load lazily included.
    const loaded = [...scripts].map(([id, s]) => ({ ...s, bytes: (wire.get(id) ?? 0) - s.headerBytes }));
    const total = loaded.reduce((sum, s) => sum + s.bytes, 0);
    expect(loaded.length).toBeGreaterThan(0);
    for (const script of loaded.filter((s) => s.bytes > 1024)) expect(script.encoding, script.url).toBe('br');
    expect(total, `first view JavaScript on the wire: ${(total / 1024).toFixed(1)} KB`).toBeLessThanOrEqual(
      FIRST_VIEW_JS_BUDGET,
    );
  });

  test('every page runs under the Content-Security-Policy without a violation', async ({ page }) => {
    const violations = await watchCspViolations(page);
    await page.goto('/');
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.goto('/discover');
    await expect(page.getByTestId('media-card').first()).toBeVisible();
    await page.goto('/browse/matrix');
    await expect(page.getByTestId('media-card').first()).toContainText('Matrix');
    await page.goto('/media/tmdb-movie-603-the-matrix');
    await expect(page.getByRole('heading', { level: 1, name: 'The Matrix' })).toBeVisible();
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });

  test('headers: strict CSP with the inline configuration hashed, long-lived assets, revalidated page', async ({
    request,
  }) => {
    const page = await request.get('/', { headers: { accept: 'text/html', 'accept-encoding': 'br, gzip' } });
    expect(page.status()).toBe(200);
    const headers = page.headers();
    const scriptSrc = /script-src ([^;]*)/.exec(headers['content-security-policy'] ?? '')?.[1] ?? '';
    expect(scriptSrc).toContain("'self'");
    expect(scriptSrc).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
    expect(scriptSrc).not.toContain('unsafe-inline');
    expect(scriptSrc).not.toContain("'unsafe-eval'");
    // Only WebAssembly may compile (the player's ASS renderer, decision 085).
    expect(scriptSrc).toContain("'wasm-unsafe-eval'");
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['referrer-policy']).toBe('no-referrer');
    expect(headers['cache-control']).toBe('no-cache');
    expect(headers['content-encoding']).toBe('br');
    // Served over plain http (no https PUBLIC_URL): no HSTS.
    expect(headers['strict-transport-security']).toBeUndefined();

    const again = await request.get('/', {
      headers: { accept: 'text/html', 'if-none-match': headers.etag! },
    });
    expect(again.status()).toBe(304);

    const html = await page.text();
    const entry = /<script type="module"[^>]*src="([^"]+)"/.exec(html)?.[1];
    expect(entry).toMatch(/^\/assets\/.+\.js$/);
    const asset = await request.get(entry!, { headers: { 'accept-encoding': 'gzip' } });
    expect(asset.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers()['content-encoding']).toBe('gzip');
    expect(asset.headers()['x-content-type-options']).toBe('nosniff');

    const config = await request.get('/api/config');
    expect(config.headers()['cache-control']).toBe('no-cache');
    expect(config.headers().etag).toBeTruthy();
  });
});
