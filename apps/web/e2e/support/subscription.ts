import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { fromVisitor, signInAsNewVisitor } from './visitor.ts';

/** Page objects and API helpers for the subscription site (e2e/subscription.spec.ts). */

export const ADMIN_EMAIL = 'admin@marquee.test';
export const PASSWORD = 'correct horse battery';

export const uniqueEmail = (name: string) =>
  `${name}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@marquee.test`;

/** An account made through the API (tests of other screens start from it). */
export async function registerByApi(
  request: APIRequestContext,
  email: string,
  fullname = 'Test User',
): Promise<void> {
  const response = await request.post('/customers', {
    data: { fullname, email, password: PASSWORD },
    headers: fromVisitor(),
  });
  expect([200, 409]).toContain(response.status());
}

/** The token of an account signed in through the API. */
export async function tokenOf(request: APIRequestContext, email: string): Promise<string> {
  const response = await request.post('/customers/auth', {
    data: { email, password: PASSWORD },
    headers: fromVisitor(),
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** ADMIN_EMAILS makes admin@marquee.test an admin (playwright.config.ts). */
export async function adminToken(request: APIRequestContext): Promise<string> {
  await registerByApi(request, ADMIN_EMAIL, 'Site Admin');
  return tokenOf(request, ADMIN_EMAIL);
}

export async function createPromoByApi(request: APIRequestContext, rate: number): Promise<string> {
  const token = await adminToken(request);
  const response = await request.post('/promos/create', {
    data: { rate },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { created: { code: string } }).created.code;
}

/** Signs in through /login and answers "who's watching" with the account's own profile. */
export async function loginInUi(
  page: Page,
  email: string,
  options: { chooseOwn?: boolean } = {},
): Promise<void> {
  await signInAsNewVisitor(page);
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
  if (options.chooseOwn ?? true) {
    await page.getByTestId('profile-tile').first().click();
    await expect(page.getByTestId('greeting')).toBeVisible();
  }
}

/** The stored account (localStorage marquee:account). */
export async function storedEmailAccount(
  page: Page,
): Promise<{ token: string; userId: string; profileId?: string }> {
  return page.evaluate(() => JSON.parse(localStorage.getItem('marquee:account')!).state.account);
}

/**
 * The scrape API's answer for a title with this token (the play step: the server decides, the player
 * only explains). The event stream is not read to its end.
 */
export async function scrapeStatus(
  page: Page,
  tmdbId: string,
  title: string,
  token: string | null,
): Promise<number> {
  return page.evaluate(
    async ({ tmdbId, title, token }) => {
      const controller = new AbortController();
      const query = new URLSearchParams({ type: 'movie', title, tmdbId });
      const response = await fetch(`/scrape?${query}`, {
        headers: { accept: 'text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        signal: controller.signal,
      });
      controller.abort();
      return response.status;
    },
    { tmdbId, title, token },
  );
}
