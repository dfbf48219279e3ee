import { expect, test, type Page } from '@playwright/test';
import { registerAccount } from './support/account.ts';
import { clipped, smallTargets } from './support/layout.ts';
import { MATRIX, pausedAt } from './support/player.ts';

/*
 * The smallest phones and phones held sideways: at 360 × 740 and 844 × 390 (touch), every screen fits
 * (no sideways scrolling, nothing cut at the screen's edge), its controls are 44 px touch targets, and
 * the player keeps play, time, captions, settings and fullscreen on the screen.
 */

// The discovery instance kept for e2e/a11y.spec.ts and this file (registration limits, see playwright.config.ts).
const discovery = `http://127.0.0.1:${process.env.E2E_A11Y_PORT ?? 4183}`;

const SIZES = [
  { name: 'small phone', viewport: { width: 360, height: 740 } },
  { name: 'phone sideways', viewport: { width: 844, height: 390 } },
] as const;

const SCREENS = [
  { name: 'home', path: '/' },
  { name: 'discover', path: '/discover' },
  { name: 'search', path: '/browse/star' },
  { name: 'title', path: '/media/tmdb-tv-1399-game-of-thrones' },
  { name: 'My List', path: '/mylist' },
  { name: 'settings', path: '/settings' },
] as const;

async function ready(page: Page, name: string) {
  if (name === 'discover' || name === 'search')
    await expect(page.getByTestId('media-card').first()).toBeVisible();
  if (name === 'title') await expect(page.getByTestId('episode-list')).toBeVisible();
  await expect(page.locator('h1').first()).toBeVisible();
}

for (const size of SIZES) {
  test.describe(`${size.name} (${size.viewport.width}×${size.viewport.height})`, () => {
    test.use({ viewport: size.viewport, isMobile: true, hasTouch: true, baseURL: discovery });

    test('every screen fits and its controls are touch-sized, signed in', async ({ page }) => {
      test.setTimeout(90_000);
      await registerAccount(page, 'Phone');
      const found: string[] = [];
      for (const { name, path } of SCREENS) {
        await page.goto(path);
        await ready(page, name);
        found.push(...(await clipped(page)).map((c) => `${name}: ${c}`));
        found.push(...(await smallTargets(page)).map((c) => `${name}: small target ${c}`));
      }
      expect(found).toEqual([]);
    });

    test('the player keeps its essential controls on the screen', async ({ page }) => {
      await page.goto(MATRIX);
      await pausedAt(page, 0, 5);
      await page.mouse.move(100, 100);
      await page.mouse.move(120, 120);
      await expect(page.getByTestId('player-controls')).toBeVisible();
      const viewport = page.viewportSize()!;
      for (const id of ['play-pause', 'time', 'open-captions', 'open-settings', 'fullscreen']) {
        const box = await page.getByTestId(id).boundingBox();
        expect(box, id).not.toBeNull();
        expect(box!.x, id).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, id).toBeLessThanOrEqual(viewport.width);
        expect(box!.y + box!.height, id).toBeLessThanOrEqual(viewport.height);
        expect(box!.height, id).toBeGreaterThanOrEqual(44);
      }
      // The time reads on one line.
      const time = await page.getByTestId('time').boundingBox();
      expect(time!.height).toBeLessThan(48);
      expect(await clipped(page)).toEqual([]);
      expect(await smallTargets(page, '[data-testid="player-controls"]')).toEqual([]);
      if (size.viewport.width < 400) {
        // The volume left the bar for the settings menu, with a slider wide enough to use.
        await page.getByTestId('open-settings').click();
        const slider = page.getByTestId('menu-volume-slider');
        await expect(slider).toBeVisible();
        expect((await slider.boundingBox())!.width).toBeGreaterThan(150);
      }
    });
  });
}
