import { expect, test, type Page } from '@playwright/test';
import { headerSignIn, login, registerAccount, storedAccount } from './support/account.ts';

/** The settings the account server holds for the account signed in on `page`. */
async function serverSettings(page: Page): Promise<Record<string, unknown>> {
  const account = await storedAccount(page);
  const res = await page.request.get(`/users/${account.userId}/settings`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  return (await res.json()) as Record<string, unknown>;
}

test.describe('settings', () => {
  test("the viewer's source order is saved and sent with every scrape", async ({ page }) => {
    await page.goto('/settings');
    const setting = page.getByTestId('source-order');
    await setting.getByRole('switch').click();
    await expect(setting.getByTestId('source-order-item').first()).toContainText('Sample');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);

    const scrape = page.waitForRequest((r) => new URL(r.url()).pathname === '/scrape');
    await page.goto('/media/tmdb-movie-603-the-matrix');
    await page.getByTestId('title-play').click();
    expect(new URL((await scrape).url()).searchParams.get('sourceOrder')).toBe('sample');
  });

  test('changes wait for Save; Reset discards them; theme and language apply and persist', async ({
    page,
  }) => {
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 2, name: 'Account' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);

    await page.getByTestId('theme-blue').click();
    await expect(page.getByTestId('save-bar')).toBeVisible();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    await expect(page.getByTestId('theme-default')).toHaveAttribute('aria-checked', 'true');

    await page.getByTestId('theme-blue').click();
    await page.getByTestId('language-select').selectOption('ar');
    await expect(page.locator('html')).toHaveAttribute('dir', 'ltr');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    await expect(page.locator('body')).toHaveClass(/theme-blue/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await page.reload();
    await expect(page.locator('body')).toHaveClass(/theme-blue/);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.getByTestId('language-select').locator('option')).toHaveCount(40);
  });

  test('captions are styled within their limits', async ({ page }) => {
    await page.goto('/settings#captions');
    await page.getByLabel('Text size').fill('2');
    await page.getByLabel('Background opacity').fill('0.2');
    await page.getByText('Colour #e2e535').click({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    const styling = await page.evaluate(
      () => JSON.parse(localStorage.getItem('marquee:subtitles')!).state.styling,
    );
    expect(styling).toMatchObject({ size: 2, backgroundOpacity: 0.2, color: '#e2e535' });
  });

  test('hiding spoilers is saved for the account and read back on its other devices', async ({
    page,
    browser,
  }) => {
    const passphrase = await registerAccount(page, 'Laptop');
    await page.goto('/settings');
    const toggle = page.getByRole('switch', { name: 'Hide spoilers' });
    await expect(toggle).not.toBeChecked();
    await toggle.click();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    await expect.poll(async () => (await serverSettings(page)).hideSpoilers).toBe(true);
    // The phone signs in and hides them too.
    const phone = await (await browser.newContext()).newPage();
    await login(phone, passphrase, 'Phone');
    await phone.goto('/settings');
    await expect(phone.getByRole('switch', { name: 'Hide spoilers' })).toBeChecked();
    await phone.context().close();
  });

  test('custom proxies: entry rules and messages; custom server gets https:// and signs out', async ({
    page,
  }) => {
    await registerAccount(page, 'Laptop');
    await page.goto('/settings#connections');
    await page.getByLabel('Use custom proxy workers').check();
    // Turning custom proxies on offers the first entry at once.
    await page.getByLabel('Proxy 1', { exact: true }).fill('not a url');
    await expect(page.getByText('Not a valid URL')).toBeVisible();
    await page.getByLabel('Proxy 1', { exact: true }).fill('http://127.0.0.1:9');
    await page.getByRole('button', { name: 'Test' }).click();
    await expect(page.getByText('Could not connect to proxy')).toBeVisible();
    // A website, not a proxy: it answers with its own page.
    await page.getByLabel('Proxy 1', { exact: true }).fill(new URL('/about', page.url()).toString());
    await page.getByRole('button', { name: 'Test' }).click();
    await expect(page.getByText('Expected a proxy but got a website')).toBeVisible();
    await page.getByRole('button', { name: 'Add proxy' }).click();
    await page.getByLabel('Proxy 2', { exact: true }).fill('|type=api|https://api.example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    const account = await storedAccount(page);
    await expect
      .poll(async () => (await serverSettings(page)).proxyUrls)
      .toEqual([new URL('/about', page.url()).toString(), '|type=api|https://api.example.com']);

    await page.getByLabel('Custom server').check();
    // Not an address: refused by the form, nobody signed out.
    await page.getByLabel('Server URL').fill('not a server');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('server-url-error')).toHaveText('Not a valid URL');
    await expect(page.getByLabel('Server URL')).toBeFocused();
    // An account server of the family answers its /meta (here a stand-in for one on another host).
    await page.route('https://accounts.example.com/meta', (route) =>
      route.fulfill({
        json: { name: 'Accounts', version: '1', hasCaptcha: false },
        headers: { 'access-control-allow-origin': '*' },
      }),
    );
    await page.getByLabel('Server URL').fill('accounts.example.com');
    await expect(page.getByText('Changing the server logs you out of this account.')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    // The viewer stays in settings (signed out: the account lives on the other server).
    await expect(page.getByTestId('save-result')).toHaveText('Saved');
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    await expect(page).toHaveURL(/\/settings/);
    await expect(headerSignIn(page)).toBeVisible();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('marquee:account')!).state);
    expect(stored).toMatchObject({ account: null, backendUrl: 'https://accounts.example.com' });
    expect(
      (
        await page.request.get('/users/@me', { headers: { authorization: `Bearer ${account.token}` } })
      ).status(),
    ).toBe(401);
  });

  test('account: profile colours and icon, device name, devices list with removal and its error', async ({
    page,
    browser,
  }) => {
    // Three devices signed in one after another, each deriving the passphrase's keys: a long test.
    test.slow();
    const passphrase = await registerAccount(page, 'Laptop');
    const other = await browser.newContext();
    const phone = await other.newPage();
    await phone.goto('/login');
    await phone.getByLabel('12-word passphrase').fill(passphrase);
    await phone.getByLabel('Device name').fill('Old phone');
    await phone.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(phone.getByTestId('account-menu-button')).toBeVisible();
    const tvContext = await browser.newContext();
    const tv = await tvContext.newPage();
    await login(tv, passphrase, 'Living-room TV');

    await page.goto('/settings');
    const devices = page.getByTestId('device');
    await expect(devices).toHaveCount(3);
    await expect(devices.first()).toContainText('Laptop');
    await expect(devices.first()).toContainText('This device');
    // The others, the last used first, each with when it was last used.
    await expect(devices.nth(1)).toContainText('Living-room TV');
    await expect(devices.nth(2)).toContainText('Old phone');
    await expect(devices.nth(1).getByTestId('device-last-used')).toContainText('Last used');
    await devices.nth(2).getByRole('button', { name: 'Remove' }).click();
    await expect(devices).toHaveCount(2);
    // The removed device is signed out at its next restore.
    await phone.reload();
    await expect(headerSignIn(phone)).toBeVisible();
    await other.close();
    // Everywhere else: the TV too; this device stays signed in.
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await expect(page.getByTestId('signed-out-others')).toHaveText('Every other device is signed out.');
    await expect(devices).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Sign out everywhere else' })).toHaveCount(0);
    await tv.reload();
    await expect(headerSignIn(tv)).toBeVisible();
    await tvContext.close();

    await page.getByRole('button', { name: 'Edit profile' }).click();
    await page.getByTestId('profile-editor').getByText('Colour #2ECFA8').nth(1).click({ force: true });
    await page.getByTestId('profile-editor').getByText('Couch').click({ force: true });
    await page.getByLabel('Device name').fill('Work laptop');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    const account = await storedAccount(page);
    const me = await (
      await page.request.get('/users/@me', { headers: { authorization: `Bearer ${account.token}` } })
    ).json();
    expect(me.user.profile).toMatchObject({ colorB: '#2ECFA8', icon: 'couch' });
    await page.reload();
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByTestId('account-device-name')).toHaveText('Work laptop');

    await page.route('**/users/*/sessions', (route) =>
      route.fulfill({ status: 500, json: { errorType: 'message', code: 'internal_error', message: 'x' } }),
    );
    await page.goto('/settings');
    await expect(page.getByText('Failed to load sessions')).toBeVisible({ timeout: 10_000 });
  });

  test("the passphrase seed is kept as a non-extractable key in IndexedDB, never in localStorage; an older client's stored seed moves there; sign-out removes it", async ({
    page,
  }) => {
    const passphrase = await registerAccount(page, 'Laptop');
    const seed = await page.evaluate(seedOf, passphrase);
    expect(await page.evaluate(storageHolding, seed)).toEqual([]);
    expect(await storedAccountRaw(page)).toMatchObject({ seed: '', deviceKey: 'indexeddb' });
    expect(await page.evaluate(storedKeys)).toEqual([{ extractable: false, usages: ['decrypt', 'encrypt'] }]);

    // The account as the older clients of the family store it (the app family's client behaviour), with no key in IndexedDB.
    await page.evaluate(
      async ({ seed }) => {
        const { deviceKey: _, ...account } = JSON.parse(localStorage.getItem('marquee:account')!).state
          .account;
        localStorage.removeItem('marquee:account');
        localStorage.setItem(
          '__MW::auth',
          JSON.stringify({
            state: { account: { ...account, seed }, backendUrl: null, proxySet: null },
            version: 0,
          }),
        );
        await new Promise((resolve, reject) => {
          const request = indexedDB.deleteDatabase('marquee:keys');
          request.onsuccess = resolve;
          request.onerror = reject;
        });
      },
      { seed },
    );
    await page.reload();
    await expect.poll(() => storedAccountRaw(page)).toMatchObject({ seed: '', deviceKey: 'indexeddb' });
    expect(await page.evaluate(storageHolding, seed)).toEqual([]);
    expect(await page.evaluate(storedKeys)).toHaveLength(1);
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByTestId('account-device-name')).toHaveText('Laptop');

    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(headerSignIn(page)).toBeVisible();
    await expect.poll(() => page.evaluate(storedKeys)).toEqual([]);
  });

  test('signed-in header: My List, a search box, and "/" focuses it', async ({ page }) => {
    await registerAccount(page, 'Laptop');
    await page.goto('/discover');
    await expect(page.getByRole('link', { name: 'My List' })).toBeVisible();
    // The header search's code comes after the page's.
    await expect(page.getByTestId('header-search')).toBeVisible();
    await page.keyboard.press('/');
    await expect(page.getByTestId('header-search')).toBeFocused();
    await page.keyboard.type('inception');
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/browse\/inception$/);
    await expect(page.getByTestId('media-card').first()).toContainText('Inception');
  });
});

/** In the page: the account's seed, as the app family derives it (PBKDF2-SHA256, "mnemonic", 2048), base64. */
async function seedOf(passphrase: string): Promise<string> {
  const enc = new TextEncoder();
  const base = await crypto.subtle.importKey('raw', enc.encode(passphrase), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits(
    { name: 'PBKDF2', hash: 'SHA-256', salt: enc.encode('mnemonic'), iterations: 2048 },
    base,
    256,
  );
  return btoa(String.fromCharCode(...new Uint8Array(bits)));
}

/** In the page: the localStorage keys whose value contains `text`. */
function storageHolding(text: string): string[] {
  return Object.keys(localStorage).filter((key) => localStorage.getItem(key)!.includes(text));
}

/** In the page: the keys kept in IndexedDB (lib/account/device-key.ts). */
async function storedKeys(): Promise<Array<{ extractable: boolean; usages: string[] }>> {
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const request = indexedDB.open('marquee:keys');
    request.onupgradeneeded = () => request.result.createObjectStore('keys');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  try {
    const keys = await new Promise<CryptoKey[]>((resolve, reject) => {
      const request = db.transaction('keys').objectStore('keys').getAll();
      request.onsuccess = () => resolve(request.result as CryptoKey[]);
      request.onerror = () => reject(request.error);
    });
    return keys.map((k) => ({ extractable: k.extractable, usages: [...k.usages].sort() }));
  } finally {
    db.close();
  }
}

/** The stored account, or null while nothing is stored yet (right after a reload). */
const storedAccountRaw = (page: Page) =>
  page.evaluate(() => {
    const raw = localStorage.getItem('marquee:account');
    return raw
      ? ((JSON.parse(raw) as { state: { account: Record<string, unknown> | null } }).state.account ?? null)
      : null;
  });
