import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { storedLibrary } from './stored-library.ts';
import { registerAsNewVisitor } from './visitor.ts';

/** Page objects for the account flows, and a client of the sync API to check what the server holds. */

export interface StoredAccount {
  token: string;
  userId: string;
  sessionId: string;
}

export async function registerAccount(page: Page, deviceName = 'Laptop'): Promise<string> {
  await registerAsNewVisitor(page);
  await page.goto('/register');
  await page.getByRole('button', { name: 'I trust this server' }).click();
  const words = await page.getByTestId('passphrase-word').allTextContents();
  expect(words).toHaveLength(12);
  const passphrase = words.join(' ');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Device name').fill(deviceName);
  await page.getByText('Colour #7652DD').first().click({ force: true });
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('12-word passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account-menu-button')).toBeVisible();
  return passphrase;
}

export async function login(page: Page, passphrase: string, deviceName = 'Phone'): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('12-word passphrase').fill(passphrase);
  await page.getByLabel('Device name').fill(deviceName);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByTestId('account-menu-button')).toBeVisible();
}

export async function storedAccount(page: Page): Promise<StoredAccount> {
  const raw = await page.evaluate(() => localStorage.getItem('marquee:account'));
  const account = raw
    ? (JSON.parse(raw) as { state: { account: StoredAccount | null } }).state.account
    : null;
  if (!account) throw new Error('not signed in');
  return account;
}

export async function outboxLength(page: Page): Promise<number> {
  return (await storedLibrary(page)).outbox.length;
}

/** The server's bookmarks of the account (tmdbId:type). */
export async function serverBookmarks(request: APIRequestContext, account: StoredAccount): Promise<string[]> {
  const response = await request.get(`/users/${account.userId}/bookmarks`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  expect(response.status()).toBe(200);
  const list = (await response.json()) as Array<{ tmdbId: string; meta: { type: string } }>;
  return list.map((b) => `${b.tmdbId}:${b.meta.type}`).sort();
}

/** Breaking Bad S1E3 at 700 of 2,900 s: worth resuming, so it shows in Continue Watching. */
export const breakingBadProgress = {
  meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
  watched: 700,
  duration: 2900,
  seasonId: '3572',
  episodeId: '62087',
  seasonNumber: 1,
  episodeNumber: 3,
};

/** Saves progress through the sync API, as another device of the account would (`headers`: extra ones). */
export function putProgress(
  request: APIRequestContext,
  account: StoredAccount,
  tmdbId: string,
  data: object,
  headers: Record<string, string> = {},
) {
  return request.put(`/users/${account.userId}/progress/${tmdbId}`, {
    headers: { authorization: `Bearer ${account.token}`, ...headers },
    data,
  });
}

export async function openTitle(page: Page, path: string, title: string): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
}

/** The title page's bookmark button; `pressed` = in My List. */
export const titleBookmark = (page: Page) => page.getByTestId('title-header').getByTestId('bookmark-toggle');
export const bookmarksSection = (page: Page) => page.getByTestId('bookmarks-section');

/** The header's "Sign in" link: there once this device is signed out, whichever page is still on screen. */
export const headerSignIn = (page: Page) =>
  page.getByRole('navigation', { name: 'Home' }).getByRole('link', { name: 'Sign in' });
