import { expect, test, type Locator, type Page } from '@playwright/test';
import { registerAccount } from './support/account.ts';
import { blockingViolations, visitAndCheck } from './support/axe.ts';
import { MATRIX, openSettings, pausedAt, player } from './support/player.ts';
import { loginInUi, registerByApi, uniqueEmail, ADMIN_EMAIL, adminToken } from './support/subscription.ts';

/**
 * axe-core on every screen of both sites, signed out and signed in, on a phone and a laptop, in the
 * default theme: no serious or critical violation anywhere (issue 15). Each test walks a set of screens
 * and reports every violation it found at once.
 */

// The instances of playwright.config.ts kept for this file: a discovery site and a subscription site.
const discovery = `http://127.0.0.1:${process.env.E2E_A11Y_PORT ?? 4183}`;
const sub = `http://127.0.0.1:${process.env.E2E_A11Y_SUB_PORT ?? 4184}`;

const SIZES = [
  { name: 'phone', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true } },
  { name: 'laptop', use: { viewport: { width: 1280, height: 800 } } },
] as const;

/** The discovery site's screens that need no account. */
const PUBLIC_SCREENS = [
  '/',
  '/discover',
  '/browse/matrix',
  '/browse/zzzzqqqq',
  '/media/tmdb-tv-1396-breaking-bad',
  '/mylist',
  '/history',
  '/import',
  '/settings',
  '/login',
  '/register',
  '/onboarding',
  '/onboarding/extension',
  '/onboarding/proxy',
  '/about',
  '/support',
  '/jip',
  '/dmca',
  '/no-such-page',
] as const;

async function checkAll(page: Page, screens: readonly string[], base = ''): Promise<string[]> {
  const found: string[] = [];
  for (const screen of screens) found.push(...(await visitAndCheck(page, `${base}${screen}`, screen)));
  return found;
}

/** The player of The Matrix, paused with its controls shown, then with its settings menu open. */
async function checkPlayer(page: Page, base = ''): Promise<string[]> {
  await page.goto(`${base}${MATRIX}`);
  await pausedAt(page, 0, 5);
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 220);
  await expect(page.getByTestId('player-controls')).toBeVisible();
  const found = await blockingViolations(page, 'player');
  await openSettings(page);
  found.push(...(await blockingViolations(page, 'player settings menu')));
  return found;
}

for (const size of SIZES) {
  test.describe(`axe on the discovery site, ${size.name}`, () => {
    test.use({ ...size.use, baseURL: discovery });

    // Every screen signed out, in two halves: one walk of all 19 took two minutes on a busy 2-core machine.
    test('signed out: browsing screens', async ({ page }) => {
      test.setTimeout(120_000);
      expect(await checkAll(page, PUBLIC_SCREENS.slice(0, 10))).toEqual([]);
    });

    test('signed out: the other screens, a title page and the player', async ({ page }) => {
      test.setTimeout(120_000);
      const found = await checkAll(page, PUBLIC_SCREENS.slice(10));
      await page.goto('/media/tmdb-movie-603-the-matrix');
      await expect(page.getByRole('heading', { level: 1, name: 'The Matrix' })).toBeVisible();
      found.push(...(await blockingViolations(page, 'title page')));
      found.push(...(await checkPlayer(page)));
      expect(found).toEqual([]);
    });

    test('signed in: home, My List, settings, the account menu', async ({ page }) => {
      test.setTimeout(90_000);
      await registerAccount(page);
      const found = await checkAll(page, ['/', '/discover', '/mylist', '/settings']);
      await page.getByTestId('account-menu-button').click();
      await expect(page.getByRole('menu')).toBeVisible();
      found.push(...(await blockingViolations(page, 'account menu')));
      expect(found).toEqual([]);
    });
  });

  test.describe(`axe on the subscription site, ${size.name}`, () => {
    test.use({ ...size.use, baseURL: sub });

    test('signed out: landing, sign in, register, the free movie, a members-only title', async ({ page }) => {
      test.setTimeout(90_000);
      const found = await checkAll(page, ['/', '/login', '/register', '/no-such-page']);
      found.push(...(await checkPlayer(page)));
      found.push(...(await visitAndCheck(page, '/media/tmdb-movie-27205-inception', 'members-only title')));
      expect(found).toEqual([]);
    });

    test('signed in: profiles, home, subscription, settings', async ({ page, request }) => {
      test.setTimeout(90_000);
      const email = uniqueEmail('axe');
      await registerByApi(request, email);
      await loginInUi(page, email, { chooseOwn: false });
      const found = await blockingViolations(page, 'profiles');
      await page.getByTestId('profile-tile').first().click();
      await expect(page.getByTestId('greeting')).toBeVisible();
      found.push(...(await checkAll(page, ['/', '/subscription', '/settings', '/mylist'])));
      expect(found).toEqual([]);
    });

    test('admin: promo codes', async ({ page, request }) => {
      await adminToken(request);
      await loginInUi(page, ADMIN_EMAIL);
      expect(await visitAndCheck(page, '/promos')).toEqual([]);
    });
  });
}

test.describe('keyboard only', () => {
  test.use({ viewport: { width: 1280, height: 800 }, baseURL: discovery });

  /** Presses Tab (or Shift+Tab) until `target` has focus: the way a keyboard user reaches it. */
  async function tabTo(page: Page, target: Locator, options: { backward?: boolean; max?: number } = {}) {
    const key = options.backward ? 'Shift+Tab' : 'Tab';
    for (let i = 0; i < (options.max ?? 80); i++) {
      if (await target.evaluate((el) => el === document.activeElement).catch(() => false)) return;
      await page.keyboard.press(key);
    }
    throw new Error(`${target.toString()} cannot be reached with ${key}`);
  }

  /** Presses ArrowDown until `target` (an item of an open menu) has focus. */
  async function arrowTo(page: Page, target: Locator) {
    for (let i = 0; i < 12; i++) {
      if (await target.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press('ArrowDown');
    }
    throw new Error(`${target.toString()} cannot be reached with the arrow keys`);
  }

  test('search → title → play → captions → settings → sign out, without a mouse', async ({ page }) => {
    test.setTimeout(90_000);
    await registerAccount(page);
    await page.goto('/');
    await expect(page.getByTestId('account-menu-button')).toBeVisible();

    // Search: "/" focuses the search field from anywhere.
    await page.keyboard.press('/');
    await page.keyboard.type('the matrix');
    await expect(page).toHaveURL(/\/browse\/the%20matrix$/);
    const first = page.getByTestId('media-card').first();
    await expect(first).toContainText('The Matrix');
    await tabTo(page, first, { max: 10 });
    await page.keyboard.press('Enter');

    // The title page, then its Play; the player starts (or offers its own Play where autoplay is blocked).
    await expect(page.getByRole('heading', { level: 1, name: 'The Matrix' })).toBeVisible();
    await tabTo(page, page.getByTestId('title-play'));
    await page.keyboard.press('Enter');
    await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
    const big = page.getByTestId('big-play');
    await expect
      .poll(
        async () =>
          (await big.isVisible()) || !(await page.evaluate(() => document.querySelector('video')!.paused)),
        { timeout: 15_000 },
      )
      .toBe(true);
    if (await big.isVisible()) {
      await tabTo(page, big);
      await page.keyboard.press('Enter');
    }
    await expect
      .poll(() => page.evaluate(() => document.querySelector('video')!.currentTime))
      .toBeGreaterThan(0.5);

    // Captions: the menu opens on Enter, arrows move between languages, Enter picks one and closes it.
    await tabTo(page, page.getByTestId('open-captions'));
    await expect(page.getByTestId('player-controls')).toBeVisible();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('captions-menu')).toBeVisible();
    const english = page.locator('[data-testid="caption-option"][data-language="en"]');
    await arrowTo(page, english);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('captions-menu')).toHaveCount(0);
    await expect(page.getByTestId('open-captions')).toBeFocused();
    await expect(page.getByTestId('caption-cue').first()).toBeVisible({ timeout: 15_000 });

    // The player's settings: open, walk with arrows, Esc returns to the gear.
    await tabTo(page, page.getByTestId('open-settings'));
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('settings-menu')).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await expect(page.getByTestId('settings-menu').locator(':focus')).toHaveCount(1);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('settings-menu')).toHaveCount(0);
    await expect(page.getByTestId('open-settings')).toBeFocused();

    // Pause with the keyboard, leave the player by its Back link (the results again), and sign out from
    // the header's account menu.
    await page.keyboard.press('k');
    await tabTo(page, page.getByTestId('player-back'), { backward: true });
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/browse\/the%20matrix$/);
    await tabTo(page, page.getByTestId('account-menu-button'));
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await expect(menu).toBeVisible();
    const signOut = menu.getByRole('menuitem', { name: /log out|sign out/i });
    await arrowTo(page, signOut);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('account-menu-button')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /sign in/i }).first()).toBeVisible();
  });
});
