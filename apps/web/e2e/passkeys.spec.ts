import { expect, test, type Page } from '@playwright/test';
import { registerAccount, storedAccount } from './support/account.ts';
import { loginInUi, PASSWORD, registerByApi, uniqueEmail } from './support/subscription.ts';

/*
 * Passkeys (decision 109) with Chromium's own virtual authenticator (CDP WebAuthn domain, with PRF): a
 * passkey is added in Settings and signs in after signing out — an email account's instead of its
 * password, a passphrase account's opening the account without the 12 words. The pages are served as
 * `localhost` (browsers refuse WebAuthn on an IP address), on the accessibility instances of
 * playwright.config.ts, which few tests register on.
 */

const discovery = `http://localhost:${process.env.E2E_A11Y_PORT ?? 4183}`;
const subscription = `http://localhost:${process.env.E2E_A11Y_SUB_PORT ?? 4184}`;

test.use({ viewport: { width: 1280, height: 800 } });

/** A platform authenticator (user verification, resident keys, PRF) for this page. */
async function virtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      ctap2Version: 'ctap2_1',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
      hasPrf: true,
    },
  });
  return {
    credentials: async () => (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials,
  };
}

async function signOut(page: Page) {
  await page.getByTestId('account-menu-button').click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page.getByTestId('account-menu-button')).toHaveCount(0);
}

/** Settings → Passkeys: adds one named `name`, proved with `secret`. */
async function addPasskey(page: Page, name: string, secret: string, secretLabel: string) {
  await page.goto('/settings');
  const block = page.getByTestId('passkeys-block');
  await expect(block.getByRole('heading', { name: 'Passkeys' })).toBeVisible();
  await expect(block.getByText('No passkeys yet.')).toBeVisible();
  await block.getByLabel('Passkey name', { exact: true }).fill(name);
  await block.getByRole('button', { name: 'Add passkey' }).click();
  await expect(block.getByRole('alert')).toHaveText(
    secretLabel === 'Your account password'
      ? 'Enter your account password.'
      : 'Enter your 12-word passphrase.',
  );
  await block.getByLabel(secretLabel, { exact: true }).fill(secret);
  await block.getByRole('button', { name: 'Add passkey' }).click();
  await expect(block.getByText('Passkey added. You can sign in with it now.')).toBeVisible();
  await expect(block.getByText(name, { exact: true })).toBeVisible();
  await expect(block.getByText('Never used')).toBeVisible();
  return block;
}

test.describe('passkeys of a passphrase account', () => {
  test.use({ baseURL: discovery });

  test('a passphrase account’s passkey opens it on sign-in without the 12 words (PRF)', async ({ page }) => {
    test.slow(); // a registration and two passkey ceremonies
    await page.goto('/');
    const authenticator = await virtualAuthenticator(page);
    const passphrase = await registerAccount(page, 'Laptop');
    const before = await storedAccount(page);

    const block = await addPasskey(page, 'This laptop', passphrase, 'Your 12-word passphrase');
    await expect(block.getByTestId('passkey').getByText('Opens your account on a new device')).toBeVisible();
    const made = await authenticator.credentials();
    expect(made).toHaveLength(1);
    expect(made[0]!.isResidentCredential).toBe(true);

    await signOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('account-menu-button')).toBeVisible();
    // The same account, signed in by its seed: a new session, this device's name sealed as ever.
    const after = await storedAccount(page);
    expect(after.userId).toBe(before.userId);
    expect(after.sessionId).not.toBe(before.sessionId);
    await page.goto('/settings');
    await expect(page.getByTestId('passkeys-block').getByText(/^Last used /)).toBeVisible();
  });
});

test.describe('passkeys of an email account', () => {
  test.use({ baseURL: subscription });

  test('an email account signs in with its passkey instead of its password, and removes it', async ({
    page,
    request,
  }) => {
    test.slow();
    const email = uniqueEmail('passkey');
    await registerByApi(request, email, 'Parent');
    await page.goto('/');
    const authenticator = await virtualAuthenticator(page);
    await loginInUi(page, email);
    const block = await addPasskey(page, 'Work laptop', PASSWORD, 'Your account password');
    await expect(block.getByTestId('passkey').getByText('Opens your account on a new device')).toHaveCount(0);

    await signOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
    expect((await authenticator.credentials())[0]!.signCount).toBeGreaterThan(0);

    // Removed here: it signs in no more (the authenticator still offers it; the server refuses it).
    await page.getByTestId('profile-tile').first().click();
    await page.goto('/settings');
    const list = page.getByTestId('passkeys-block');
    await list.getByRole('button', { name: 'Remove Work laptop' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remove' }).click();
    await expect(list.getByText('No passkeys yet.')).toBeVisible();
    await signOut(page);
    await page.goto('/login');
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect(page.getByRole('alert')).toHaveText(
      "That passkey didn't work here. Try again, or sign in another way.",
    );
  });
});
