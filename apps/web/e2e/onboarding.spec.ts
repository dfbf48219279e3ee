import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import {
  installFakeExtension,
  MATRIX,
  patchRuntimeConfig,
  player,
  setFakeHello,
  startPlayback,
  WORKING_EXTENSION,
} from './support/player.ts';
import { networkQuiet } from './support/network.ts';

/** A "simple proxy" (the app family's protocols): `?destination=` fetched and relayed, with permissive CORS. */
function proxyServer(): Server {
  return createServer(async (req, res) => {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': '*',
      'access-control-expose-headers': '*',
    };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors).end();
      return;
    }
    const destination = new URL(req.url ?? '/', 'http://x').searchParams.get('destination');
    if (!destination) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ message: 'Proxy is working as expected (v2.1.4)' }));
      return;
    }
    try {
      const upstream = await fetch(destination, { method: req.method ?? 'GET' });
      const body = Buffer.from(await upstream.arrayBuffer());
      res
        .writeHead(upstream.status, {
          ...cors,
          'content-type': upstream.headers.get('content-type') ?? 'text/plain',
          'x-final-destination': upstream.url,
        })
        .end(body);
    } catch {
      res.writeHead(502, cors).end();
    }
  });
}

/** A website: the same page whatever is asked. */
function websiteServer(): Server {
  return createServer((_req, res) => {
    res
      .writeHead(200, { 'content-type': 'text/html', 'access-control-allow-origin': '*' })
      .end('<!doctype html><title>My blog</title><h1>Welcome to my blog</h1>');
  });
}

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

let proxy: Server;
let website: Server;
let proxyUrl: string;
let websiteUrl: string;
let unreachableUrl: string;

test.beforeAll(async () => {
  proxy = proxyServer();
  website = websiteServer();
  proxyUrl = await listen(proxy);
  websiteUrl = await listen(website);
  // A port that was just free: nothing listens there.
  const closed = createServer();
  unreachableUrl = await listen(closed);
  await new Promise((r) => closed.close(r));
});

test.afterAll(async () => {
  await new Promise((r) => proxy.close(r));
  await new Promise((r) => website.close(r));
});

test.describe('onboarding', () => {
  test('without onboarding on the instance, Play opens the player directly', async ({ page }) => {
    await page.goto(MATRIX);
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${MATRIX}$`));
  });

  test('custom proxy: invalid, unreachable and website are refused; a proxy is kept and the player uses it', async ({
    page,
  }) => {
    await patchRuntimeConfig(page, { hasOnboarding: true });
    await page.goto(MATRIX);
    // The title page needs no setup; playing does.
    await page.getByTestId('title-play').click();
    await expect(page).toHaveURL(/\/onboarding\?redirect=%2Fmedia%2Ftmdb-movie-603-the-matrix$/);
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 1 of 2');
    await page.getByTestId('choose-proxy').click();
    await expect(page).toHaveURL(/\/onboarding\/proxy\?redirect=/);
    await expect(page.getByTestId('onboarding-step')).toHaveText('Step 2 of 2');

    const input = page.getByTestId('proxy-url');
    await input.fill('not a url');
    await page.getByTestId('proxy-submit').click();
    await expect(page.getByTestId('proxy-error')).toHaveText('Not a valid URL');
    await input.fill(unreachableUrl);
    await page.getByTestId('proxy-submit').click();
    await expect(page.getByTestId('proxy-error')).toHaveText('Could not connect to proxy');
    await input.fill(websiteUrl);
    await page.getByTestId('proxy-submit').click();
    await expect(page.getByTestId('proxy-error')).toHaveText('Expected a proxy but got a website');

    const metrics = page.waitForRequest((r) => r.url().endsWith('/metrics/providers'));
    await input.fill(proxyUrl);
    await page.getByTestId('proxy-submit').click();
    await expect(page).toHaveURL(new RegExp(`${MATRIX}$`));
    await startPlayback(page);
    expect(((await metrics).postDataJSON() as { tool: string }).tool).toBe('custom-proxy');
    const stored = await page.evaluate(
      () => JSON.parse(localStorage.getItem('marquee:account')!).state.proxyUrls,
    );
    expect(stored).toEqual([proxyUrl]);
    // Done once: the next title plays directly.
    await page.goto('/media/tmdb-movie-27205-inception');
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
    await expect(page).toHaveURL(/\/media\/tmdb-movie-27205-inception$/);
  });

  test('the default setup is offered because the instance has sources; confirming goes back', async ({
    page,
  }) => {
    await patchRuntimeConfig(page, { hasOnboarding: true });
    await page.goto(`/onboarding?redirect=${encodeURIComponent(MATRIX)}`);
    await page.getByTestId('use-default').click();
    await expect(page.getByRole('dialog')).toContainText('Use the default setup?');
    await page.getByTestId('confirm-default').click();
    await expect(page).toHaveURL(new RegExp(`${MATRIX}$`));
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
  });

  test('the default setup is not offered when the instance has no source', async ({ page }) => {
    await patchRuntimeConfig(page, { hasOnboarding: true });
    await page.route('**/metadata', (route) => route.fulfill({ json: [[], []] }));
    const sources = page.waitForResponse('**/metadata');
    await page.goto('/onboarding');
    await expect(page.getByTestId('choose-extension')).toBeVisible();
    // The instance's answer arrived (and nothing else is pending): the page has decided what to offer.
    await sources;
    await networkQuiet(page);
    await expect(page.getByTestId('use-default')).toHaveCount(0);
  });

  test('a fake extension drives every status; working completes onboarding to / without a redirect', async ({
    page,
  }) => {
    await installFakeExtension(page, null);
    await page.goto('/onboarding/extension');
    const status = page.getByTestId('extension-status');
    await expect(page.getByTestId('extension-onboarding')).toHaveAttribute('data-browser', 'chrome');
    await expect(status).toContainText('not enabled');
    await setFakeHello(page, { success: false, error: 'boom' });
    await expect(status).toContainText('failed to request status');
    await setFakeHello(page, { ...WORKING_EXTENSION, version: '1.0.0' });
    await expect(status).toContainText('outdated');
    await setFakeHello(page, { ...WORKING_EXTENSION, allowed: false });
    await expect(status).toContainText('Permission Missing for the extension');
    await expect(page.getByTestId('grant-permission')).toBeVisible();
    await setFakeHello(page, { ...WORKING_EXTENSION, hasPermission: false });
    await expect(status).toContainText('Permission Missing for the extension');
    await setFakeHello(page, WORKING_EXTENSION);
    await expect(status).toContainText('working');
    await page.getByTestId('extension-continue').click();
    await expect(page).toHaveURL(/\/$/);
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('marquee:onboarding')!).state.completed),
    ).toBe(true);
  });

  test('with a working extension the player does not ask for onboarding', async ({ page }) => {
    await patchRuntimeConfig(page, { hasOnboarding: true });
    await installFakeExtension(page, WORKING_EXTENSION);
    await page.goto(MATRIX);
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`${MATRIX}$`));
  });
});
