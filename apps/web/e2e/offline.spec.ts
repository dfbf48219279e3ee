import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { expect, test as base, type Page } from '@playwright/test';
import { Cleanup, ROOT, startMarquee } from '../../../deploy/test/support.ts';
import {
  bookmarksSection,
  breakingBadProgress,
  openTitle,
  outboxLength,
  putProgress,
  registerAccount,
  serverBookmarks,
  storedAccount,
  titleBookmark,
} from './support/account.ts';
import { loginInUi, registerByApi, storedEmailAccount, uniqueEmail } from './support/subscription.ts';

/*
 * The installed app: service worker, offline start, manifest, update notice (decision 078). On a server
 * of its own: the account registered here would take the shared instance past its registration limit
 * (10 per address in 10 minutes, which library.spec.ts and settings.spec.ts use up).
 */

/** A production server of its own for the worker (`name` for its log, `env` on top of the shared one). */
function ownServer(
  name: string,
  env: Record<string, string> = {},
): [
  (args: object, provide: (server: { url: string }) => Promise<void>) => Promise<void>,
  { scope: 'worker' },
] {
  return [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern
    async ({}, provide: (server: { url: string }) => Promise<void>) => {
      const cleanup = new Cleanup();
      const dataDir = mkdtempSync(path.join(tmpdir(), `${name}-`));
      cleanup.add('remove the data folder', () => rmSync(dataDir, { recursive: true, force: true }));
      try {
        const server = cleanup.proc(
          await startMarquee(name, {
            cwd: ROOT,
            env: {
              DATA_DIR: dataDir,
              CAPTCHA_PROVIDER: 'none',
              TMDB_API_KEY: '',
              JUSTWATCH_URL: 'http://127.0.0.1:9',
              ...env,
            },
          }),
        );
        await provide(server);
      } finally {
        await cleanup.run();
      }
    },
    { scope: 'worker' },
  ];
}

const test = base.extend<object, { server: { url: string } }>({
  server: ownServer('marquee-offline'),
  baseURL: async ({ server }, provide) => provide(server.url),
  serviceWorkers: 'allow',
});

/**
 * A subscription site of its own (email accounts, simulated payments) for what its installed app does
 * offline: its sign-ups do not use up the registration limit subscription.spec.ts shares.
 */
const subTest = test.extend<object, { subServer: { url: string } }>({
  subServer: ownServer('marquee-offline-sub', {
    VARIANT: 'subscription',
    AUTH_METHODS: 'email',
    PAYMENT_GATEWAY: 'simulated',
    ALLOW_SIMULATED_PAYMENTS: 'true',
  }),
  baseURL: async ({ subServer }, provide) => provide(subServer.url),
});

const MATRIX = '/media/tmdb-movie-603-the-matrix';
const INCEPTION = '/media/tmdb-movie-27205-inception';

/** Waits until /sw.js is active and controls the page. */
async function workerControls(page: Page): Promise<void> {
  await expect
    .poll(() =>
      page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        return navigator.serviceWorker.controller?.scriptURL ?? null;
      }),
    )
    .toMatch(/\/sw\.js$/);
}

/**
 * Replaces the built worker (and its precompressed copies, which the server prefers) with a changed
 * one, as a new deploy would; returns what puts the original back.
 */
function deployChangedWorker(): () => void {
  const dist = fileURLToPath(new URL('../dist/', import.meta.url));
  const script = path.join(dist, 'sw.js');
  const files = [script, `${script}.br`, `${script}.gz`].filter((file) => existsSync(file));
  const originals = files.map((file) => readFileSync(file));
  const changed = Buffer.concat([readFileSync(script), Buffer.from('\n// the next build\n')]);
  for (const file of files)
    writeFileSync(
      file,
      file.endsWith('.br') ? brotliCompressSync(changed) : file.endsWith('.gz') ? gzipSync(changed) : changed,
    );
  return () => files.forEach((file, i) => writeFileSync(file, originals[i]!));
}

/** The hashed build files this page used that the worker has not cached (empty once all are). */
const uncachedAssets = (page: Page) =>
  page.evaluate(async () => {
    const used = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name))
      .filter((url) => url.origin === location.origin && url.pathname.startsWith('/assets/'));
    const missing: string[] = [];
    for (const url of used) if (!(await caches.match(url.href))) missing.push(url.pathname);
    return missing;
  });

/** Every request the worker's caches hold (paths). */
const cachedPaths = (page: Page) =>
  page.evaluate(async () => {
    const all: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) all.push(new URL(request.url).pathname);
    }
    return all;
  });

test.describe('offline: the installed app', () => {
  test('a signed-in library starts offline from the cache, and a change made offline reaches the server', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    // The cached page runs under the CSP it was sent with: its inline configuration's hash still matches.
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (event) => {
        console.error(`Content Security Policy violation: ${event.violatedDirective} ${event.blockedURI}`);
      });
    });
    await registerAccount(page, 'Laptop');
    await workerControls(page);
    const account = await storedAccount(page);
    // Something to continue watching, saved from another device.
    const progress = await putProgress(request, account, '1396', breakingBadProgress);
    expect(progress.status()).toBe(200);

    for (const [path, title] of [
      [MATRIX, 'The Matrix'],
      [INCEPTION, 'Inception'],
    ] as const) {
      await openTitle(page, path, title);
      await titleBookmark(page).click();
      await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'true');
    }
    await expect.poll(() => outboxLength(page)).toBe(0);

    // Online once: My List and home, each with every file it used in the worker's cache.
    await page.goto('/mylist');
    await expect(page.getByRole('heading', { level: 1, name: 'My List' })).toBeVisible();
    await expect(bookmarksSection(page).getByTestId('media-card')).toHaveCount(2);
    await expect.poll(() => uncachedAssets(page)).toEqual([]);
    await page.goto('/');
    await expect(page.getByTestId('continue-section')).toContainText('Breaking Bad');
    await expect.poll(() => uncachedAssets(page)).toEqual([]);

    // What is cached: the page (one key), build files and the app's images; never the API, accounts or sync.
    const cached = await cachedPaths(page);
    expect(cached).toContain('/');
    expect(cached).toContain('/favicon.svg');
    expect(cached.some((p) => p.startsWith('/assets/'))).toBe(true);
    expect(
      cached.filter(
        (p) => !['/', '/favicon.svg', '/placeholder.svg'].includes(p) && !p.startsWith('/assets/'),
      ),
    ).toEqual([]);

    await context.setOffline(true);
    // The worker's own request for the page fails (the network is really gone for it too)…
    const workerRequestFailed = page
      .context()
      .waitForEvent('requestfailed', (r) => !!r.serviceWorker() && new URL(r.url()).pathname === '/');
    const reloaded = await page.reload();
    await workerRequestFailed;
    // …and the page comes from its cache.
    expect(reloaded?.fromServiceWorker()).toBe(true);
    await expect(page.getByTestId('greeting')).toBeVisible();
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await expect(page.getByTestId('continue-section')).toContainText('Breaking Bad');
    await expect(bookmarksSection(page).getByTestId('media-card')).toHaveCount(2);
    await expect(bookmarksSection(page)).toContainText('The Matrix');
    await expect(bookmarksSection(page)).toContainText('Inception');

    // A page never opened in this tab starts offline too (every page is the same document).
    await page.goto('/mylist');
    await expect(page.getByRole('heading', { level: 1, name: 'My List' })).toBeVisible();
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await expect(bookmarksSection(page).getByTestId('media-card')).toHaveCount(2);

    expect(violations).toEqual([]);
    // The restore that failed offline says nothing more than the offline banner (no second banner).
    await expect(page.getByRole('status').filter({ hasText: /\S/ })).toHaveCount(1);
    await expect(page.getByTestId('profile-load-notice')).toHaveCount(0);

    // A change made offline waits in the outbox…
    await page.getByRole('button', { name: 'Remove from My List: Inception' }).click();
    await expect(bookmarksSection(page).getByTestId('media-card')).toHaveCount(1);
    await expect.poll(() => outboxLength(page)).toBe(1);
    expect(await serverBookmarks(request, account)).toEqual(['27205:movie', '603:movie']);

    // …and reaches the server once the browser is back online.
    await context.setOffline(false);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    expect(await serverBookmarks(request, account)).toEqual(['603:movie']);
    // Back online the profile loads again: still no notice.
    await expect(page.getByTestId('profile-load-notice')).toHaveCount(0);
  });

  test('a shared computer: after sign-out a new page reads nothing of the previous viewer from Cache Storage, the HTTP cache, IndexedDB or localStorage', async ({
    page,
    context,
    request,
  }) => {
    test.setTimeout(90_000);
    // Every private answer the app fetched while signed in (what another user of the computer would ask for).
    const privateGets = new Set<string>();
    context.on('request', (r) => {
      const url = new URL(r.url());
      if (r.method() === 'GET' && /^\/(users|auth|sessions|customers)\b/.test(url.pathname))
        privateGets.add(url.href);
    });
    const device = 'Shared laptop 4821';
    await registerAccount(page, device);
    await workerControls(page);
    const account = await storedAccount(page);
    expect((await putProgress(request, account, '1396', breakingBadProgress)).status()).toBe(200);
    await openTitle(page, MATRIX, 'The Matrix');
    await titleBookmark(page).click();
    await expect.poll(() => outboxLength(page)).toBe(0);
    await page.goto('/');
    await expect(page.getByTestId('continue-section')).toContainText('Breaking Bad');
    await page.goto('/settings');
    await expect(page.getByText(device).first()).toBeVisible();
    expect([...privateGets].some((u) => u.includes(`/users/${account.userId}/progress`))).toBe(true);

    await page.getByTestId('account-menu-button').click();
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(page.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    await page.close();

    // The next person opens the app in the same browser profile.
    const next = await context.newPage();
    await next.goto('/');
    await expect(next.getByRole('link', { name: 'Sign in' }).first()).toBeVisible();
    const left = await next.evaluate(
      async (urls) => {
        const found: Record<string, string> = {};
        for (let i = 0; i < localStorage.length; i++) {
          const key = localStorage.key(i)!;
          found[`localStorage ${key}`] = localStorage.getItem(key) ?? '';
        }
        for (const { name } of await indexedDB.databases()) {
          if (!name) continue;
          const db = await new Promise<IDBDatabase>((resolve, reject) => {
            const open = indexedDB.open(name);
            open.onsuccess = () => resolve(open.result);
            open.onerror = () => reject(open.error);
          });
          for (const store of db.objectStoreNames) {
            const all = await new Promise<unknown[]>((resolve, reject) => {
              const get = db.transaction(store).objectStore(store).getAll();
              get.onsuccess = () => resolve(get.result);
              get.onerror = () => reject(get.error);
            });
            const keys = await new Promise<unknown[]>((resolve, reject) => {
              const get = db.transaction(store).objectStore(store).getAllKeys();
              get.onsuccess = () => resolve(get.result);
              get.onerror = () => reject(get.error);
            });
            found[`IndexedDB ${name}/${store}`] = JSON.stringify([keys, all]);
          }
          db.close();
        }
        for (const name of await caches.keys()) {
          const cache = await caches.open(name);
          for (const req of await cache.keys()) {
            const res = await cache.match(req);
            const type = res?.headers.get('content-type') ?? '';
            found[`Cache Storage ${name} ${req.url}`] = /json|text|javascript/.test(type)
              ? await res!.text()
              : type;
          }
        }
        // The HTTP cache: what the browser would give for the same address without asking the server.
        for (const url of urls) {
          try {
            const res = await fetch(url, { cache: 'only-if-cached', mode: 'same-origin' });
            found[`HTTP cache ${url}`] = `${res.status} ${await res.text()}`;
          } catch {
            // Not in the cache: the browser refuses to answer from it.
          }
        }
        return found;
      },
      [...privateGets],
    );
    const secrets = [account.token, account.userId, account.sessionId, device, 'Breaking Bad'];
    const leaks = Object.entries(left).flatMap(([where, value]) =>
      secrets
        .filter((s) => value.includes(s) || where.includes(s))
        .map((s) => `${where} holds ${s.slice(0, 12)}…`),
    );
    expect(leaks).toEqual([]);
    expect(Object.keys(left).filter((where) => where.startsWith('HTTP cache'))).toEqual([]);
  });

  test('installable: manifest linked and fetched, icons and worker served with their types and cache rules', async ({
    playwright,
    request,
    baseURL,
  }, testInfo) => {
    // Chrome never offers to install from an incognito profile, which every new browser context is: this
    // check runs in a profile on disk.
    const profile = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-profile-'));
    const { launchOptions } = testInfo.project.use;
    const context = await playwright.chromium.launchPersistentContext(profile, {
      ...launchOptions,
      baseURL,
      serviceWorkers: 'allow',
    });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto('/');
      await expect(page.getByTestId('greeting')).toBeVisible();
      await expect(page.locator('link[rel="manifest"]')).toHaveAttribute('href', '/manifest.webmanifest');
      await expect(page.locator('link[rel="apple-touch-icon"]')).toHaveAttribute(
        'href',
        '/apple-touch-icon.png',
      );
      await workerControls(page);

      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
      expect(manifest.errors).toEqual([]);
      expect(JSON.parse(manifest.data ?? '{}')).toMatchObject({
        name: 'Marquee',
        start_url: '/',
        scope: '/',
        display: 'standalone',
      });
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      expect(installabilityErrors).toEqual([]);
    } finally {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    }

    const files = {
      '/manifest.webmanifest': /^application\/manifest\+json/,
      '/pwa-192.png': /^image\/png/,
      '/pwa-512.png': /^image\/png/,
      '/pwa-maskable-512.png': /^image\/png/,
      '/apple-touch-icon.png': /^image\/png/,
      '/sw.js': /^(?:application|text)\/javascript/,
    };
    for (const [file, type] of Object.entries(files)) {
      const response = await request.get(file);
      expect(response.status(), file).toBe(200);
      expect(response.headers()['content-type'], file).toMatch(type);
      // Not hashed: revalidated every time (a worker script must be, for updates to reach browsers).
      expect(response.headers()['cache-control'], file).toBe('no-cache');
      expect(response.headers().etag, file).toBeTruthy();
    }
  });

  test('a new version waits for the viewer: the notice reloads into it, or is dismissed', async ({
    page,
  }) => {
    await page.goto('/');
    await workerControls(page);
    // Registered from a controlled page, as on every visit after the first.
    await page.reload();
    await expect(page.getByTestId('greeting')).toBeVisible();
    await workerControls(page);

    // A new build is deployed: the server now sends a changed worker, which the browser installs beside
    // the running one when it checks (on navigations, or when asked, as the page does hourly).
    const restore = deployChangedWorker();
    const checkForUpdate = () =>
      page.evaluate(async () => {
        const registration = await navigator.serviceWorker.getRegistration();
        await registration?.update();
      });
    try {
      await checkForUpdate();
      const notice = page.getByTestId('update-notice');
      await expect(notice).toContainText('A new version is available.');
      await expect(page.getByRole('status').filter({ has: notice })).toBeVisible();
      // Not now: the notice goes, the new version keeps waiting.
      await notice.getByRole('button', { name: 'Not now' }).click();
      await expect(notice).toHaveCount(0);
      expect(
        await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting),
      ).toBe(true);

      // Next start: asked again; Reload lets the new worker in and reloads the page once it controls it.
      await page.reload();
      await expect(notice).toBeVisible();
      await page.evaluate(() => Object.assign(window, { beforeUpdate: true }));
      const reloaded = page.waitForEvent('load');
      await notice.getByRole('button', { name: 'Reload' }).focus();
      await page.keyboard.press('Enter');
      await reloaded;
      await expect(page.getByTestId('greeting')).toBeVisible();
      await workerControls(page);
      expect(
        await page.evaluate(async () => {
          const registration = await navigator.serviceWorker.getRegistration();
          return { waiting: !!registration?.waiting, active: registration?.active?.state };
        }),
      ).toEqual({ waiting: false, active: 'activated' });
      expect(await page.evaluate(() => 'beforeUpdate' in window)).toBe(false);
      await expect(notice).toHaveCount(0);
    } finally {
      restore();
    }
  });

  subTest(
    'on a subscription site, signing out offline lands on the landing page, not an error, and the session ends once back online',
    async ({ page, context, request }) => {
      const email = uniqueEmail('offline-out');
      await registerByApi(request, email, 'Ada Offline');
      await loginInUi(page, email);
      const token = (await storedEmailAccount(page)).token;
      // Signed in, the app fetches the landing page's code ahead (the service worker keeps it).
      await expect
        .poll(
          () =>
            page.evaluate(async () => {
              const landing = performance
                .getEntriesByType('resource')
                .map((e) => e.name)
                .find((name) => /\/assets\/landing-page-[^/]*\.js$/.test(name));
              return landing !== undefined && (await caches.match(landing)) !== undefined;
            }),
          { timeout: 20_000 },
        )
        .toBe(true);

      await context.setOffline(true);
      await expect(page.getByTestId('offline-banner')).toBeVisible();
      await page.getByTestId('account-menu-button').click();
      await page.getByRole('menuitem', { name: 'Log out' }).click();
      await expect(page.getByTestId('landing')).toBeVisible();
      await expect(
        page.getByRole('heading', { level: 1, name: 'Movies and shows for the whole household' }),
      ).toBeVisible();
      await expect(page.getByText('We encountered an error!')).toHaveCount(0);
      // Only one banner says the device is offline.
      await expect(page.getByRole('status').filter({ hasText: /offline|internet/i })).toHaveCount(1);
      expect((await request.get('/customers', { headers: { 'x-auth-token': token } })).status()).toBe(200);

      await context.setOffline(false);
      await expect
        .poll(
          async () => (await request.get('/customers', { headers: { 'x-auth-token': token } })).status(),
          {
            timeout: 15_000,
          },
        )
        .toBe(401);
    },
  );
});
