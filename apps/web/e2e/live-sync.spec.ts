import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { expect, test, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { startNginx, type NginxProc } from '../../../deploy/test/nginx.ts';
import {
  Cleanup,
  createPgDatabase,
  deleteRedisKeys,
  freePort,
  ROOT,
  startMarquee,
  stopProc,
  type MarqueeProc,
} from '../../../deploy/test/support.ts';
import {
  bookmarksSection,
  breakingBadProgress,
  login,
  outboxLength,
  putProgress,
  registerAccount,
  storedAccount,
  titleBookmark,
} from './support/account.ts';

/*
 * Live changes across server processes (issue 13): three production servers on one PostgreSQL database
 * and Redis. The laptop talks to the first server directly; the TV goes through nginx to the other two,
 * so every change crosses processes (Redis pub/sub). Then the TV is cut off while the laptop changes
 * things, and the server holding the TV's stream is killed: the TV must catch up with everything.
 */
const adminUrl = process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const redisUrl = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const MATRIX = '/media/tmdb-movie-603-the-matrix';

test.describe.configure({ mode: 'serial' });

test.describe('live changes between devices on different server processes', () => {
  const cleanup = new Cleanup();
  const prefix = `e2e-live-${randomBytes(5).toString('hex')}:`;
  let direct: MarqueeProc;
  let balanced: MarqueeProc[] = [];
  let nginx: NginxProc;
  let laptopContext: BrowserContext;
  let tvContext: BrowserContext;
  let laptop: Page;
  let tv: Page;
  /** The server (host:port) each of the TV's library streams was answered by, in order. */
  const tvStreams: string[] = [];

  test.beforeAll(async ({ browser }: { browser: Browser }) => {
    test.setTimeout(180_000);
    const work = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-live-'));
    cleanup.add('remove the temp folder', () => rmSync(work, { recursive: true, force: true }));
    const database = await createPgDatabase(adminUrl, 'mq_e2e_live');
    cleanup.add('drop the database', () => database.drop());
    cleanup.add('delete the Redis keys', () => deleteRedisKeys(redisUrl, prefix));
    const env = {
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      REDIS_PREFIX: prefix,
      TRUST_PROXY: 'true',
      DATA_DIR: path.join(work, 'data'),
      CAPTCHA_PROVIDER: 'none',
      TMDB_API_KEY: '',
      JUSTWATCH_URL: 'http://127.0.0.1:9',
    };
    mkdirSync(env.DATA_DIR);
    direct = await startMarquee('marquee-1', { cwd: ROOT, env });
    cleanup.proc(direct);
    balanced = await Promise.all(
      ['marquee-2', 'marquee-3'].map((name) => startMarquee(name, { cwd: ROOT, env })),
    );
    for (const proc of balanced) cleanup.proc(proc);
    const nginxDir = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-nginx-'));
    cleanup.add('remove the nginx folder', () => rmSync(nginxDir, { recursive: true, force: true }));
    nginx = await startNginx({
      prefix: nginxDir,
      port: await freePort(),
      backends: balanced.map((p) => p.port),
    });
    cleanup.proc(nginx);

    laptopContext = await browser.newContext({ baseURL: direct.url });
    tvContext = await browser.newContext({ baseURL: nginx.url });
    laptop = await laptopContext.newPage();
    tv = await tvContext.newPage();
    tv.on('response', (response) => {
      if (new URL(response.url()).pathname.endsWith('/events'))
        tvStreams.push((response.headers()['x-upstream'] ?? '').split(', ').at(-1)!);
    });
    const passphrase = await registerAccount(laptop, 'Laptop');
    await login(tv, passphrase, 'TV');
    await expect.poll(() => tvStreams.length).toBeGreaterThan(0);
  });

  test.afterAll(async () => {
    await laptopContext?.close();
    await tvContext?.close();
    await cleanup.run();
  });

  test('a bookmark and progress made on the laptop appear on the TV’s open home page within 2 s', async () => {
    expect(tvStreams.at(-1)).not.toContain(`:${direct.port}`);
    await expect(tv.getByTestId('bookmarks-section')).toHaveCount(0);
    await laptop.goto(MATRIX);
    await expect(laptop.getByRole('heading', { level: 1, name: 'The Matrix' })).toBeVisible();
    await titleBookmark(laptop).click();
    await expect(bookmarksSection(tv)).toContainText('The Matrix', { timeout: 2_000 });

    // Progress, as the laptop's player sends it (with its clock), to the laptop's server.
    const put = await putProgress(
      laptop.request,
      await storedAccount(laptop),
      '1396',
      { ...breakingBadProgress, updatedAt: new Date().toISOString() },
      { 'x-client-time': String(Date.now()) },
    );
    expect(put.status()).toBe(200);
    await expect(tv.getByTestId('continue-section')).toContainText('Breaking Bad', { timeout: 2_000 });
  });

  test('changes made while the TV was offline arrive when it reconnects, without a reload', async () => {
    await tvContext.setOffline(true);
    await expect(tv.getByTestId('offline-banner')).toBeVisible();
    await titleBookmark(laptop).click(); // removed on the laptop
    await expect(titleBookmark(laptop)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => outboxLength(laptop)).toBe(0);
    await expect(bookmarksSection(tv)).toContainText('The Matrix');
    await tvContext.setOffline(false);
    await expect(bookmarksSection(tv)).toHaveCount(0, { timeout: 10_000 });
  });

  test('killing the server holding the TV’s stream: it reconnects to the other and misses nothing', async () => {
    const holder = balanced.find((p) => tvStreams.at(-1)!.endsWith(`:${p.port}`));
    expect(holder, `stream answered by ${tvStreams.at(-1)}`).toBeDefined();
    const streamsBefore = tvStreams.length;
    await stopProc(holder!, 'SIGKILL');
    // Changed at once, before the TV could have reconnected.
    await laptop.goto('/media/tmdb-movie-27205-inception');
    await expect(laptop.getByRole('heading', { level: 1, name: 'Inception' })).toBeVisible();
    await titleBookmark(laptop).click();
    await expect(bookmarksSection(tv)).toContainText('Inception', { timeout: 15_000 });
    expect(tvStreams.length).toBeGreaterThan(streamsBefore);
    const survivor = balanced.find((p) => p !== holder)!;
    expect(tvStreams.at(-1)).toContain(`:${survivor.port}`);
  });
});
