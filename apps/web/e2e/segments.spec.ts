import { expect, test, type Page } from '@playwright/test';
import { registerAccount } from './support/account.ts';
import { player, videoState } from './support/player.ts';

/*
 * Intros and credits (decision 111) on a library of one generated show (scripts/make-segments-show.ts:
 * episodes that share a 20 s intro at different places — 5 s into episode 2 — and end credits), served
 * by an instance of its own (playwright.config.ts): the server detects them, the player offers to skip.
 */

const origin = `http://127.0.0.1:${process.env.E2E_SEGMENTS_PORT ?? 4196}`;
test.use({ baseURL: origin });

/** Episode 2 of the show (Breaking Bad S01E02, with the embedded catalog's ids), from `t` seconds. */
const EPISODE_2 = (t: number) => `/media/tmdb-tv-1396-breaking-bad/1001396001/1001396001002?t=${t}`;
const INTRO = { start: 5, end: 25 };

const marker = (page: Page, type: string) =>
  page.locator(`[data-testid="segment-marker"][data-segment="${type}"]`);

/** Opens the player there and waits for the intro to be known (detection runs after the library scan). */
async function openWithSegments(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 30_000 });
  await expect(marker(page, 'intro')).toHaveCount(1, { timeout: 60_000 });
}

async function openSegmentsMenu(page: Page): Promise<void> {
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 220);
  await page.getByTestId('open-settings').click();
  await page.getByTestId('menu-segments').click();
  await expect(page.getByTestId('segments-menu')).toBeVisible();
}

test.describe('intros and credits', () => {
  test('the detected intro: Skip intro jumps to its end; skipped automatically when chosen', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await openWithSegments(page, EPISODE_2(7));
    await expect(marker(page, 'credits')).toHaveCount(1);
    const skip = page.getByRole('button', { name: 'Skip intro' });
    await expect(skip).toBeVisible();
    await skip.click();
    await expect.poll(async () => (await videoState(page)).time).toBeGreaterThanOrEqual(INTRO.end - 0.5);
    await expect(skip).toBeHidden();

    // Skip automatically: back into the intro, the player jumps out of it by itself.
    await openSegmentsMenu(page);
    await page.getByRole('menuitemradio', { name: 'Skip automatically' }).first().click();
    await page.keyboard.press('Escape');
    await page.goto(EPISODE_2(8));
    await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 30_000 });
    await expect
      .poll(async () => (await videoState(page)).time, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(INTRO.end - 0.5);
    await expect(page.getByRole('button', { name: 'Skip intro' })).toHaveCount(0);
  });

  test('a part a viewer marks is offered on another device', async ({ page, browser }) => {
    test.setTimeout(120_000);
    await registerAccount(page, 'Living room');
    await openWithSegments(page, EPISODE_2(30));
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 15_000 }).toBe(false);
    await page.mouse.move(200, 200);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('menu-segments').click();
    await page.getByTestId('segments-mark').click();
    await page.getByRole('radio', { name: 'Recap' }).check();
    await page.getByTestId('mark-start').click();
    const started = (await videoState(page)).time;
    await expect
      .poll(async () => (await videoState(page)).time, { timeout: 15_000 })
      .toBeGreaterThan(started + 10);
    await page.getByTestId('mark-end').click();
    await page.getByTestId('mark-save').click();
    await expect(page.getByText('Saved. Thank you!')).toBeVisible();
    await expect(marker(page, 'recap')).toHaveCount(1);

    // Another device, signed out, on the same episode: the recap is on its seek bar and offered to skip.
    const other = await (await browser.newContext({ baseURL: origin })).newPage();
    await openWithSegments(other, EPISODE_2(Math.ceil(started)));
    await expect(marker(other, 'recap')).toHaveCount(1);
    await expect(other.getByRole('button', { name: 'Skip recap' })).toBeVisible();
  });
});
