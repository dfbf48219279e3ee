import { expect, test, type Page } from '@playwright/test';
import {
  login,
  openTitle,
  outboxLength,
  registerAccount,
  serverBookmarks,
  storedAccount,
  titleBookmark,
} from './support/account.ts';

/*
 * Household profiles for a passphrase account (decision 108), on the main instance: named on the
 * device and sent sealed with the account's key, locked with a PIN proved by the 12 words, asked for on
 * the next sign-in, each with its own library.
 */

const PIN = '1357';
const INCEPTION = '/media/tmdb-movie-27205-inception';
const tile = (page: Page, name: string) => page.getByTestId('profile-tile').filter({ hasText: name });

test.use({ viewport: { width: 1280, height: 800 } });

test('a passphrase account keeps a household: sealed names, a PIN proved by the 12 words, its own library', async ({
  page,
  browser,
  request,
}) => {
  test.slow(); // two devices, a registration and a sign-in (key derivations)
  const passphrase = await registerAccount(page, 'Laptop');
  await page.getByTestId('account-menu-button').click();
  await page.getByRole('menuitem', { name: 'Switch profile' }).click();
  await expect(page.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
  await expect(tile(page, 'Main profile')).toBeVisible();

  // A profile for Mia, made by keyboard.
  await page.getByRole('button', { name: 'Manage profiles' }).click();
  await page.getByTestId('profile-add').focus();
  await page.keyboard.press('Enter');
  await page.getByLabel('Name', { exact: true }).fill('Mia');
  await page.keyboard.press('Enter');
  await expect(tile(page, 'Mia')).toBeVisible();

  // The server holds her name sealed, never "Mia".
  const account = await storedAccount(page);
  const headers = { authorization: `Bearer ${account.token}` };
  const held = (await (await request.get('/customers', { headers })).json()) as {
    user: { profiles: { _id: string; fullname: string }[] };
  };
  expect(held.user.profiles).toHaveLength(1);
  const mia = held.user.profiles[0]!;
  expect(mia.fullname).not.toContain('Mia');
  expect(mia.fullname).toMatch(/^[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+\.[A-Za-z0-9+/=]+$/);

  // Her lock: the 12 words prove the owner (never the password this account does not have).
  await tile(page, 'Mia').click();
  const lock = page.getByTestId('profile-lock');
  await lock.getByLabel('New PIN (4 to 6 digits)', { exact: true }).fill(PIN);
  await lock.getByRole('button', { name: 'Lock with this PIN' }).click();
  await expect(lock.getByRole('alert')).toHaveText('Enter your 12-word passphrase.');
  await lock
    .getByLabel('Your 12-word passphrase', { exact: true })
    .fill('right inject hazard canoe carry unfair cram physical chief nice real tribute');
  await lock.getByRole('button', { name: 'Lock with this PIN' }).click();
  await expect(lock.getByRole('alert')).not.toBeEmpty();
  await expect(lock.getByTestId('profile-lock-state')).toHaveText(
    'Anyone using this account can open this profile.',
  );
  await lock.getByLabel('Your 12-word passphrase', { exact: true }).fill(passphrase);
  await lock.getByRole('button', { name: 'Lock with this PIN' }).click();
  await expect(lock.getByTestId('profile-lock-done')).toHaveText(
    'PIN saved. Every device asks for it from now on.',
  );
  await page.getByRole('button', { name: 'Cancel' }).click();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(tile(page, 'Mia').getByTestId('profile-lock-badge')).toBeVisible();

  // Watching as Mia: her PIN by keyboard, then a bookmark of hers only.
  await tile(page, 'Mia').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog').getByLabel('PIN', { exact: true })).toBeFocused();
  await page.keyboard.type(PIN);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('greeting')).toBeVisible();
  await expect(page.getByTestId('account-menu-button')).toBeVisible();
  await page.getByTestId('account-menu-button').click();
  await expect(page.getByTestId('account-device-name')).toHaveText('Mia');
  await page.keyboard.press('Escape');
  await openTitle(page, INCEPTION, 'Inception');
  await titleBookmark(page).click();
  await expect.poll(() => outboxLength(page)).toBe(0);
  expect(await serverBookmarks(request, account)).toEqual([]);
  const hers = await request.get(`/users/${account.userId}/bookmarks`, {
    headers: { ...headers, 'x-profile-id': mia._id },
  });
  // Her library is hers: the server refuses it without this device's unlock.
  expect(((await hers.json()) as { code: string }).code).toBe('profile_locked');

  // Another device of the account asks who is watching, with her name read there, and her lock.
  const tv = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const second = await tv.newPage();
  await second.goto('/');
  await login(second, passphrase, 'TV');
  await expect(second.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
  await expect(tile(second, 'Mia').getByTestId('profile-lock-badge')).toBeVisible();
  await tile(second, 'Main profile').click();
  await expect(second.getByTestId('greeting')).toBeVisible();
  await tv.close();
});
