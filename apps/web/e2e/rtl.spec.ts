import { expect, test, type Page } from '@playwright/test';
import { clipped } from './support/layout.ts';
import { MATRIX, startPlayback } from './support/player.ts';

/*
 * Right to left: home, discover, a title, the player and settings in Arabic and Hebrew, on a phone and a
 * laptop. Each screen is photographed (attached to the report) and checked: the page runs right to left,
 * its headings read right to left, nothing sticks out of the viewport (no sideways scrolling, no text
 * cut at the screen's edge outside a scrolling row, no control pushed off the screen), and the player's time reads elapsed / duration.
 */

const SCREENS = [
  { name: 'home', path: '/' },
  { name: 'discover', path: '/discover' },
  { name: 'title', path: '/media/tmdb-tv-1399-game-of-thrones' },
  { name: 'settings', path: '/settings' },
] as const;

async function checkScreen(page: Page, language: string, screen: string, width: number) {
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.locator('html')).toHaveAttribute('lang', language);
  const heading = page.locator('h1, h2').first();
  await expect(heading).toBeVisible();
  expect(await heading.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  expect(await clipped(page), `${screen} at ${width}px in ${language}`).toEqual([]);
  await test.info().attach(`${language}-${screen}-${width}`, {
    body: await page.screenshot({ fullPage: true }),
    contentType: 'image/png',
  });
}

for (const { language, locale } of [
  { language: 'ar', locale: 'ar-EG' },
  { language: 'he', locale: 'he-IL' },
]) {
  for (const width of [390, 1280]) {
    test.describe(`${language} at ${width}px`, () => {
      test.use({ locale, viewport: { width, height: width < 500 ? 844 : 800 } });

      test('home, discover, a title and settings read right to left, nothing clipped', async ({ page }) => {
        for (const { name, path } of SCREENS) {
          await page.goto(path);
          if (name === 'discover') await expect(page.getByTestId('media-card').first()).toBeVisible();
          if (name === 'title') await expect(page.getByTestId('episode-list')).toBeVisible();
          await checkScreen(page, language, name, width);
        }
      });

      test('the player: controls mirrored, time elapsed first, nothing clipped', async ({ page }) => {
        await page.goto(MATRIX);
        await startPlayback(page);
        await page.mouse.move(200, 200);
        await page.mouse.move(220, 220);
        const time = page.getByTestId('time');
        await expect(time).toBeVisible();
        // Elapsed first, in a left-to-right run of its own.
        await expect(time).toHaveText(/^\d+:\d\d \/ \d+:\d\d/);
        const elapsed = await page.getByTestId('time-elapsed').boundingBox();
        const whole = await time.boundingBox();
        expect(elapsed && whole && elapsed.x - whole.x).toBeLessThan((whole?.width ?? 0) / 2);
        // The play button sits at the right end of the bar, the fullscreen button at the left.
        const play = await page.getByTestId('play-pause').boundingBox();
        const fullscreen = await page.getByTestId('fullscreen').boundingBox();
        expect(play!.x).toBeGreaterThan(fullscreen!.x);
        await checkScreen(page, language, 'player', width);
      });
    });
  }
}
