import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  FAKE_TMDB_READ_TOKEN,
  startTitlesFakeTmdb,
  type FakeTmdb,
} from '../../../deploy/test/fake-tmdb-titles.ts';
import { Cleanup, ROOT, startMarquee, type MarqueeProc } from '../../../deploy/test/support.ts';
import { player } from './support/player.ts';
import { gradientFor } from './support/png.ts';

/*
 * Title pages as TMDB answers them (issue 14): a production server whose TMDB is a local fake answering in
 * TMDB's shapes — the embedded catalog, plus a complete recorded-shape answer for Inception (credits,
 * videos, certifications, watch providers, recommendations). Its image host serves real (generated) PNGs.
 * Screenshots of the page on a phone and a laptop go to test-results/titles/.
 */
const INCEPTION = '/media/tmdb-movie-27205-inception';
const SHOTS = path.join(import.meta.dirname, '..', 'test-results', 'titles');

/** Whether the element lies entirely within the first screen (no scrolling needed). */
async function aboveTheFold(page: Page, testId: string): Promise<boolean> {
  const box = await page.getByTestId(testId).boundingBox();
  const viewport = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.y + box.height <= viewport.height;
}

test.describe.configure({ mode: 'serial' });

test.describe('title pages from TMDB', () => {
  const cleanup = new Cleanup();
  let tmdb: FakeTmdb;
  let server: MarqueeProc;

  test.beforeAll(async () => {
    test.setTimeout(90_000);
    tmdb = await startTitlesFakeTmdb({
      image: (file) => ({ type: 'image/png', body: gradientFor(file, 60, 90) }),
    });
    cleanup.add('stop the fake TMDB', () => tmdb.close());
    const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-e2e-tmdb-'));
    cleanup.add('remove the data folder', () => rmSync(dataDir, { recursive: true, force: true }));
    server = await startMarquee('marquee-tmdb', {
      cwd: ROOT,
      env: {
        DATA_DIR: dataDir,
        CAPTCHA_PROVIDER: 'none',
        DATABASE_URL: '',
        REDIS_URL: '',
        TMDB_API_KEY: FAKE_TMDB_READ_TOKEN,
        TMDB_BASE_URL: tmdb.url,
        TMDB_FALLBACK_URL: tmdb.url,
        TMDB_IMAGE_URL: tmdb.imageUrl,
        JUSTWATCH_URL: 'http://127.0.0.1:9',
      },
    });
    cleanup.proc(server);
  });
  test.afterAll(() => cleanup.run());

  test('on a phone: title and Play above the fold, then backdrop, cast, rating and where to watch', async ({
    browser,
  }) => {
    const context = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      locale: 'en-US',
    });
    const page = await context.newPage();
    await page.goto(INCEPTION);
    await expect(page.getByRole('heading', { level: 1, name: 'Inception' })).toBeVisible();
    // The title page comes first on a phone: no player box in front of it.
    await expect(player(page)).toHaveCount(0);
    await expect(page.getByTestId('title-back')).toBeVisible();
    expect(await aboveTheFold(page, 'title-play')).toBe(true);
    expect(await aboveTheFold(page, 'title-rating')).toBe(true);
    await expect(page.getByTestId('title-backdrop')).toHaveAttribute('src', /^\/api\/images\/w1280\//);
    await expect(page.getByTestId('title-content-rating')).toContainText('PG-13');
    await expect(page.getByTestId('title-cast').getByRole('listitem').first()).toBeVisible();
    await expect(page.getByTestId('title-watch')).toContainText('Where to watch in United States');
    // Every image on the page decoded (through our image proxy): none is broken.
    await page.getByTestId('title-more').scrollIntoViewIfNeeded();
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.images].filter((img) => img.complete && img.naturalWidth === 0).map((img) => img.src),
        ),
      )
      .toEqual([]);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'phone-390-inception.png'), fullPage: true });

    // Play brings the player, which starts at once.
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
    await expect(player(page)).not.toHaveAttribute('data-status', 'idle');
    await context.close();
  });

  test('on a laptop: the title page first with Play (no player yet), the same sections; Play brings the player', async ({
    browser,
  }) => {
    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    await page.goto(INCEPTION);
    await expect(page.getByRole('heading', { level: 1, name: 'Inception' })).toBeVisible();
    await expect(page.getByTestId('title-play')).toBeVisible();
    await expect(player(page)).toHaveCount(0);
    for (const section of [
      'title-rating',
      'title-cast',
      'title-crew',
      'title-trailers',
      'title-watch',
      'title-more',
    ])
      await expect(page.getByTestId(section)).toBeVisible();
    // Trailers open the video site on demand; nothing is embedded.
    const trailer = page.getByTestId('title-trailers').getByRole('link').first();
    await expect(trailer).toHaveAttribute('href', /^https:\/\/(www\.youtube\.com|vimeo\.com)\//);
    await expect(trailer).toHaveAttribute('target', '_blank');
    await expect(page.locator('iframe')).toHaveCount(0);
    await page.getByTestId('media-page').screenshot({ path: path.join(SHOTS, 'laptop-1280-inception.png') });
    await page.getByTestId('title-play').click();
    await expect(player(page)).toBeVisible();
    await context.close();
  });

  test('a hung TMDB: search and a title page give their errors within 10 s', async ({ browser }) => {
    tmdb.inject({ delayMs: 120_000 });
    const context = await browser.newContext({ baseURL: server.url });
    const page = await context.newPage();
    try {
      // Never asked before: nothing cached to fall back on.
      const started = Date.now();
      await page.goto('/browse/godfather');
      await expect(page.getByText('Failed to find media, try again!')).toBeVisible({ timeout: 10_000 });
      expect(Date.now() - started).toBeLessThan(10_000);

      const opened = Date.now();
      await page.goto('/media/tmdb-movie-238-the-godfather');
      await expect(page.getByText('Failed to load metadata')).toBeVisible({ timeout: 10_000 });
      expect(Date.now() - opened).toBeLessThan(10_000);
    } finally {
      tmdb.reset();
      await context.close();
    }
  });
});

test('a link to an episode that has not aired shows when it airs, and no player', async ({
  page,
  request,
}) => {
  // Vision Quest season 1 at 21 November 2026: episodes 7 and 8 air later.
  const season = (await (await request.get('/api/media/tv/213375/season/1')).json()) as {
    id: string;
    episodes: { id: string; number: number; airDate: string | null }[];
  };
  const future = season.episodes.find((e) => e.number === 8)!;
  await page.goto(`/media/tmdb-tv-213375-vision-quest/${season.id}/${future.id}?now=2026-11-21T12:00:00Z`);
  await expect(page.getByRole('heading', { level: 1, name: 'Vision Quest' })).toBeVisible();
  await expect(page.getByText(/^Airs /).first()).toBeVisible();
  await expect(player(page)).toHaveCount(0);
  await expect(page.getByTestId('player-video')).toHaveCount(0);
});
