import { expect, test } from '@playwright/test';
import {
  bookmarksSection,
  headerSignIn,
  breakingBadProgress,
  login,
  openTitle,
  outboxLength,
  putProgress,
  registerAccount,
  serverBookmarks,
  storedAccount,
  titleBookmark,
} from './support/account.ts';
import { replaceStoredLibrary, storedEntries, storedLibrary } from './support/stored-library.ts';

const MATRIX = '/media/tmdb-movie-603-the-matrix';
const INCEPTION = '/media/tmdb-movie-27205-inception';

test.describe('library without an account', () => {
  test('bookmark from a card and from the title page, reload, still there; My List', async ({ page }) => {
    await page.goto('/browse/the matrix');
    const card = page.getByTestId('media-card').filter({ hasText: 'The Matrix' }).first();
    await expect(card).toBeVisible();
    // Each bookmark is saved on the device (IndexedDB) before the page goes: a full navigation can abort
    // a write still in flight, which a busy machine sometimes shows.
    const savedOnDevice = (key: string) =>
      expect
        .poll(async () => Object.keys((await storedLibrary(page)).bookmarks), { timeout: 10_000 })
        .toContain(key);
    await page.getByRole('button', { name: 'Add to My List: The Matrix' }).first().click();
    await savedOnDevice('movie:603');
    await openTitle(page, INCEPTION, 'Inception');
    await titleBookmark(page).click();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'true');
    await savedOnDevice('movie:27205');
    await page.goto('/');
    await page.reload();
    await expect(bookmarksSection(page).getByTestId('media-card')).toHaveCount(2);
    // Most recent first.
    await expect(bookmarksSection(page).getByTestId('media-card').first()).toContainText('Inception');
    await page.goto('/mylist');
    await expect(page.getByRole('heading', { level: 1, name: 'My List' })).toBeVisible();
    await expect(page.getByTestId('media-card')).toHaveCount(2);
    // Removing from the card takes it out.
    await page.getByRole('button', { name: 'Remove from My List: Inception' }).click();
    await expect(page.getByTestId('media-card')).toHaveCount(1);
  });

  test('a library saved by the previous version moves into IndexedDB; open tabs follow each other', async ({
    page,
    context,
  }) => {
    await page.addInitScript(() => {
      if (sessionStorage.getItem('seeded')) return;
      sessionStorage.setItem('seeded', '1');
      const matrix = { tmdbId: '603', type: 'movie', title: 'The Matrix', year: 1999, poster: null };
      localStorage.setItem(
        'marquee:library',
        JSON.stringify({
          state: {
            bookmarks: { 'movie:603': { ...matrix, updatedAt: Date.now() } },
            progress: {},
            removals: { bookmarks: {}, progress: {} },
            outbox: [],
            profile: '',
            stash: {},
          },
          version: 1,
        }),
      );
    });
    await page.goto('/');
    await expect(bookmarksSection(page)).toContainText('The Matrix');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('marquee:library'))).toBeNull();
    expect(Object.keys((await storedLibrary(page)).bookmarks)).toEqual(['movie:603']);

    // A second tab reads the same library, and each tab shows what the other changes, without reloading.
    const other = await context.newPage();
    await other.goto('/');
    await expect(bookmarksSection(other)).toContainText('The Matrix');
    await openTitle(page, INCEPTION, 'Inception');
    await titleBookmark(page).click();
    await expect(bookmarksSection(other).getByTestId('media-card')).toHaveCount(2);
    await other.getByRole('button', { name: 'Remove from My List: The Matrix' }).click();
    await page.goto('/mylist');
    await expect(page.getByTestId('media-card')).toHaveCount(1);
    await expect(page.getByTestId('media-card')).toContainText('Inception');
    await expect
      .poll(async () => Object.keys((await storedLibrary(page)).bookmarks))
      .toEqual(['movie:27205']);
  });

  test('data of the older clients is imported on first start and left in place', async ({ page }) => {
    await page.addInitScript(() => {
      if (localStorage.getItem('__MW::bookmarks')) return;
      const now = Date.now();
      localStorage.setItem(
        '__MW::bookmarks',
        JSON.stringify({
          state: {
            bookmarks: { '603': { title: 'The Matrix', year: 1999, type: 'movie', updatedAt: now } },
            updateQueue: [],
          },
          version: 0,
        }),
      );
      localStorage.setItem(
        '__MW::progress',
        JSON.stringify({
          state: {
            items: {
              '1396': {
                title: 'Breaking Bad',
                year: 2008,
                type: 'show',
                updatedAt: now,
                seasons: { '3572': { id: '3572', number: 1, title: 'Season 1' } },
                episodes: {
                  '62086': {
                    id: '62086',
                    number: 2,
                    title: 'Cat',
                    seasonId: '3572',
                    updatedAt: now,
                    progress: { watched: 600, duration: 2900 },
                  },
                },
              },
            },
            updateQueue: [],
          },
          version: 0,
        }),
      );
      localStorage.setItem('__MW::theme', JSON.stringify({ state: { theme: 'red' }, version: 0 }));
    });
    await page.goto('/');
    await expect(bookmarksSection(page)).toContainText('The Matrix');
    const cont = page.getByTestId('continue-section');
    await expect(cont).toContainText('Breaking Bad');
    await expect(cont.getByTestId('episode-badge')).toHaveText('S1 E2');
    await expect(cont.getByRole('link').first()).toHaveAttribute(
      'href',
      /\/media\/tmdb-tv-1396-breaking-bad\/3572\/62086$/,
    );
    await expect(page.locator('body')).toHaveClass(/theme-red/);
    const kept = await page.evaluate(() => [
      localStorage.getItem('__MW::bookmarks') !== null,
      localStorage.getItem('marquee:backup:v0:library') !== null,
    ]);
    expect(kept).toEqual([true, true]);
    // Removing from Continue Watching: a show's × opens its menu (remove, or stop watching).
    await cont.getByTestId('continue-options').click();
    await page.getByTestId('continue-remove').click();
    await expect(page.getByTestId('continue-section')).toHaveCount(0);
  });

  test('a store that cannot be migrated is reset, backed up, and the user is told', async ({ page }) => {
    await page.addInitScript(() => {
      if (!sessionStorage.getItem('seeded')) {
        sessionStorage.setItem('seeded', '1');
        localStorage.setItem(
          'marquee:library',
          JSON.stringify({ state: { from: 'the future' }, version: 99 }),
        );
      }
    });
    await page.goto('/');
    await expect(page.getByTestId('migration-failed')).toContainText('Failed to migrate your data');
    const backup = await page.evaluate(() => localStorage.getItem('marquee:backup:v99:library'));
    expect(JSON.parse(backup!)).toEqual({ state: { from: 'the future' }, version: 99 });
    // The reset library now lives in IndexedDB; the unreadable localStorage copy is gone once it does.
    await expect.poll(() => page.evaluate(() => localStorage.getItem('marquee:library'))).toBeNull();
    expect(await storedEntries(page)).toEqual(expect.arrayContaining([['version', 1]]));
    expect(await storedLibrary(page)).toEqual({
      bookmarks: {},
      progress: {},
      history: {},
      ratings: {},
      removals: { bookmarks: {}, progress: {}, history: {}, ratings: {} },
      groupOrder: [],
      outbox: [],
      profile: '',
      stash: {},
    });
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('migration-failed')).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId('migration-failed')).toHaveCount(0);
  });
});

test.describe('accounts and sync', () => {
  test('register, bookmark, reload, still there; a second device signs in and sees the same library; logout clears', async ({
    page,
    browser,
    request,
  }) => {
    // An anonymous bookmark made before registering goes into the new account.
    await openTitle(page, INCEPTION, 'Inception');
    await titleBookmark(page).click();
    const passphrase = await registerAccount(page, 'Laptop');
    await expect(page.getByRole('link', { name: 'My List' })).toBeVisible();
    await openTitle(page, MATRIX, 'The Matrix');
    await titleBookmark(page).click();
    await expect.poll(() => outboxLength(page)).toBe(0);
    await page.reload();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'true');
    const account = await storedAccount(page);
    expect(await serverBookmarks(request, account)).toEqual(['27205:movie', '603:movie']);

    const other = await browser.newContext();
    const phone = await other.newPage();
    // As a phone types it: a capital first letter and stray spaces are the same passphrase.
    await login(
      phone,
      ` ${passphrase.charAt(0).toUpperCase()}${passphrase.slice(1).replace(/ /g, '  ')} `,
      'Phone',
    );
    await expect(bookmarksSection(phone).getByTestId('media-card')).toHaveCount(2);
    await phone.getByTestId('account-menu-button').click();
    await expect(phone.getByTestId('account-device-name')).toHaveText('Phone');

    // The profile menu logs out: account, bookmarks and progress are gone from this device.
    await page.goto('/');
    await page.getByTestId('account-menu-button').click();
    // A discovery site has no payment gateway: no membership on offer (issue 15).
    await expect(page.getByRole('menuitem', { name: 'Log out' })).toBeVisible();
    await expect(page.getByRole('menuitem', { name: 'Start a membership' })).toHaveCount(0);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(headerSignIn(page)).toBeVisible();
    await expect(bookmarksSection(page)).toHaveCount(0);
    await expect.poll(async () => (await storedLibrary(page)).bookmarks).toEqual({});
    expect(await storedLibrary(page)).toEqual({
      bookmarks: {},
      progress: {},
      history: {},
      ratings: {},
      removals: { bookmarks: {}, progress: {}, history: {}, ratings: {} },
      groupOrder: [],
      outbox: [],
      profile: '',
      stash: {},
    });
    // The session is gone on the server; the other device keeps its own.
    expect(
      (await request.get('/users/@me', { headers: { authorization: `Bearer ${account.token}` } })).status(),
    ).toBe(401);
    await phone.reload();
    await expect(bookmarksSection(phone).getByTestId('media-card')).toHaveCount(2);
    await other.close();
  });

  test('a change made offline reaches the other device once back online, even after the tab was closed', async ({
    page,
    context,
    browser,
    request,
  }) => {
    const passphrase = await registerAccount(page, 'Laptop');
    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');

    await openTitle(page, MATRIX, 'The Matrix');
    await context.setOffline(true);
    await titleBookmark(page).click();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => outboxLength(page)).toBe(1);
    await context.setOffline(false);
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    await phone.reload();
    await expect(bookmarksSection(phone)).toContainText('The Matrix');

    // Offline again, and the tab is closed before anything could be sent: the next visit sends it.
    await context.setOffline(true);
    await titleBookmark(page).click();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(() => outboxLength(page)).toBe(1);
    await page.close();
    await context.setOffline(false);
    const again = await context.newPage();
    await again.goto('/');
    await expect.poll(() => outboxLength(again), { timeout: 15_000 }).toBe(0);
    expect(await serverBookmarks(request, await storedAccount(again))).toEqual([]);
    await phone.reload();
    await expect(bookmarksSection(phone)).toHaveCount(0);
    await other.close();
  });

  test('two devices changing the same title converge to the newer change', async ({
    page,
    context,
    browser,
    request,
  }) => {
    const passphrase = await registerAccount(page, 'Laptop');
    await openTitle(page, MATRIX, 'The Matrix');
    await titleBookmark(page).click();
    await expect.poll(() => outboxLength(page)).toBe(0);

    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    await openTitle(phone, MATRIX, 'The Matrix');
    await expect(titleBookmark(phone)).toHaveAttribute('aria-pressed', 'true');

    // The laptop removes it while offline (older change)…
    await context.setOffline(true);
    await titleBookmark(page).click();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'false');
    // The removal is recorded (with its time) before the phone acts.
    await expect.poll(() => outboxLength(page)).toBe(1);
    // …then the phone removes and adds it again, online (newer change).
    await titleBookmark(phone).click();
    await titleBookmark(phone).click();
    await expect(titleBookmark(phone)).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(() => outboxLength(phone)).toBe(0);
    // The laptop comes back: its older removal arrives late and loses.
    await context.setOffline(false);
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    const account = await storedAccount(page);
    expect(await serverBookmarks(request, account)).toEqual(['603:movie']);
    await page.reload();
    await expect(titleBookmark(page)).toHaveAttribute('aria-pressed', 'true');
    await phone.reload();
    await expect(titleBookmark(phone)).toHaveAttribute('aria-pressed', 'true');
    await other.close();
  });

  test('continue watching from synced progress, with its badge, and removing it reaches the server', async ({
    page,
    request,
  }) => {
    await registerAccount(page, 'Laptop');
    const account = await storedAccount(page);
    const put = (tmdbId: string, body: object) => putProgress(request, account, tmdbId, body);
    const movie = await put('603', {
      meta: { title: 'The Matrix', year: 1999, type: 'movie' },
      watched: 1200,
      duration: 8160,
    });
    expect(movie.status()).toBe(200);
    await put('1396', breakingBadProgress);
    // Under 20 s watched: not shown.
    await put('27205', {
      meta: { title: 'Inception', year: 2010, type: 'movie' },
      watched: 10,
      duration: 8880,
    });
    await page.reload();
    const cont = page.getByTestId('continue-section');
    await expect(cont.getByTestId('continue-card')).toHaveCount(2);
    await expect(cont.getByTestId('continue-card').first()).toContainText('Breaking Bad');
    await expect(cont.getByTestId('episode-badge')).toHaveText('S1 E3');
    await cont.getByRole('button', { name: 'Remove The Matrix from Continue Watching' }).click();
    await expect(cont.getByTestId('continue-card')).toHaveCount(1);
    await expect
      .poll(async () =>
        (
          (await (
            await request.get(`/users/${account.userId}/progress`, {
              headers: { authorization: `Bearer ${account.token}` },
            })
          ).json()) as Array<{ tmdbId: string }>
        )
          .map((p) => p.tmdbId)
          .sort(),
      )
      .toEqual(['1396', '27205']);
  });

  test('delete account removes it and its data on the server', async ({ page, request }) => {
    const passphrase = await registerAccount(page, 'Laptop');
    await openTitle(page, MATRIX, 'The Matrix');
    await titleBookmark(page).click();
    await expect.poll(() => outboxLength(page)).toBe(0);
    const account = await storedAccount(page);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expect(page).toHaveURL(/m=delete-account/);
    await page.getByRole('dialog').getByRole('button', { name: 'Delete account' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(headerSignIn(page)).toBeVisible();
    expect(
      (
        await request.get(`/users/${account.userId}/bookmarks`, {
          headers: { authorization: `Bearer ${account.token}` },
        })
      ).status(),
    ).toBe(401);
    // The passphrase no longer opens an account.
    await page.goto('/login');
    await page.getByLabel('12-word passphrase').fill(passphrase);
    await page.getByLabel('Device name').fill('Again');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Incorrect or incomplete passphrase');
  });

  test('login and register validation messages', async ({ page }) => {
    await page.goto('/login');
    await page.getByLabel('12-word passphrase').fill('not a real passphrase');
    await page.getByLabel('Device name').fill('X');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Incorrect or incomplete passphrase');
    await page
      .getByLabel('12-word passphrase')
      .fill('awkward safe differ large subway junk gallery flight left glue fault glory');
    await page.getByLabel('Device name').fill('   ');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Please enter a device name');

    await page.goto('/register');
    await expect(page.getByTestId('trust-host')).toHaveText(/127\.0\.0\.1:\d+/);
    await page.getByRole('button', { name: 'I trust this server' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Please enter a device name');
    await page.getByLabel('Device name').fill('Tablet');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByLabel('12-word passphrase').fill('wrong words');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('form-error')).toHaveText("Passphrase doesn't match");
  });
});

test.describe('profile load failures', () => {
  test('"Failed to load your profile": a screen only when nothing local can be shown, else a notice', async ({
    page,
  }) => {
    await registerAccount(page, 'Laptop');
    // A device that never loaded the account and holds no library: the full screen.
    await page.evaluate(() => {
      const key = 'marquee:account';
      const stored = JSON.parse(localStorage.getItem(key)!);
      stored.state.lastRestoredAt = null;
      localStorage.setItem(key, JSON.stringify(stored));
    });
    await page.route('**/users/@me', (route) =>
      route.fulfill({ status: 503, json: { errorType: 'message', code: 'internal_error', message: 'down' } }),
    );
    await page.reload();
    const screen = page.getByTestId('profile-load-error');
    await expect(screen).toContainText('Failed to load your profile');
    await expect(screen.getByRole('button', { name: 'Reload' })).toBeVisible();
    await expect(screen.getByRole('button', { name: 'Reset custom server' })).toHaveCount(0);
    // Still signed in: the failure was not a rejected session.
    expect(
      await page.evaluate(() => JSON.parse(localStorage.getItem('marquee:account')!).state.account !== null),
    ).toBe(true);

    // With a library on the device the app works, with a notice.
    const now = Date.now();
    await replaceStoredLibrary(page, {
      bookmarks: {
        'movie:603': {
          tmdbId: '603',
          type: 'movie',
          title: 'The Matrix',
          year: 1999,
          poster: null,
          updatedAt: now,
        },
      },
    });
    await page.reload();
    await expect(page.getByTestId('profile-load-notice')).toContainText('Failed to load your profile');
    await expect(bookmarksSection(page)).toContainText('The Matrix');

    // Logout from the screen works even with the server down.
    await replaceStoredLibrary(page, {});
    await page.reload();
    await page.getByTestId('profile-load-error').getByRole('button', { name: 'Logout' }).click();
    await expect(headerSignIn(page)).toBeVisible();
  });
});
