import { expect, test } from '@playwright/test';
import {
  loginInUi,
  PASSWORD,
  registerByApi,
  storedEmailAccount,
  uniqueEmail,
} from './support/subscription.ts';
import { registerAccount, storedAccount } from './support/account.ts';

// Signing in on another device with a code (decision 105), on the subscription instance of
// playwright.config.ts (email accounts).
const sub = `http://127.0.0.1:${process.env.E2E_SUB_PORT ?? 4182}`;
test.use({ baseURL: sub });

test('a TV signs in with a code approved on a phone, which signs in first when it has to', async ({
  browser,
  request,
}) => {
  const email = uniqueEmail('code');
  await registerByApi(request, email, 'Parent');

  // The TV: a laptop-sized screen, no account here.
  const tv = await browser.newContext({ baseURL: sub, viewport: { width: 1280, height: 720 } });
  const tvPage = await tv.newPage();
  await tvPage.goto('/login');
  await tvPage.getByRole('link', { name: 'Sign in with a code from another device' }).click();
  const shown = tvPage.getByTestId('sign-in-code');
  await expect(shown).toHaveText(/^\d{3} \d{3}$/);
  const code = (await shown.textContent())!.replace(/\s/g, '');
  await expect(
    tvPage.getByRole('img', { name: 'QR code that opens the page to approve this device' }),
  ).toBeVisible();
  await expect(tvPage.getByTestId('code-sign-in-status')).toHaveText('Waiting for approval…');
  await tvPage.screenshot({ path: test.info().outputPath('code-tv-1280.png') });

  // The phone opens the QR code's page signed out: it signs in, comes back, and approves.
  const phone = await browser.newContext({
    baseURL: sub,
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  const phonePage = await phone.newPage();
  await phonePage.goto(`/link?code=${code}`);
  await expect(phonePage.getByText('Sign in on this device first, then approve the code.')).toBeVisible();
  await phonePage.getByRole('main').getByRole('link', { name: 'Sign in' }).tap();
  await phonePage.getByLabel('Email').fill(email);
  await phonePage.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await phonePage.getByRole('button', { name: 'Sign in', exact: true }).tap();
  await expect(phonePage.getByLabel('Code', { exact: true })).toHaveValue(code);
  await phonePage.getByRole('button', { name: 'Continue' }).tap();
  await expect(phonePage.getByTestId('link-device')).toHaveText(
    'Chrome on Linux wants to sign in to your account.',
  );
  await phonePage.getByLabel('Your account password', { exact: true }).fill('wrong password');
  await phonePage.getByRole('button', { name: 'Let it in' }).tap();
  await expect(phonePage.getByRole('alert')).toHaveText("That password isn't right.");
  await phonePage.screenshot({ path: test.info().outputPath('code-phone-390.png') });
  await phonePage.getByLabel('Your account password', { exact: true }).fill(PASSWORD);
  await phonePage.getByRole('button', { name: 'Let it in' }).tap();
  await expect(phonePage.getByTestId('link-approved')).toContainText('Chrome on Linux is signed in.');

  // The TV is in, on the same account, and asks who's watching.
  await expect(tvPage.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
  const phoneAccount = await storedEmailAccount(phonePage);
  const tvAccount = await storedEmailAccount(tvPage);
  expect(tvAccount.userId).toBe(phoneAccount.userId);
  expect(tvAccount.token).not.toBe(phoneAccount.token);

  // The code was used: typing it again on the phone finds nothing.
  await phonePage.goto('/link');
  await phonePage.getByLabel('Code', { exact: true }).fill(code);
  await phonePage.getByRole('button', { name: 'Continue' }).tap();
  await expect(phonePage.getByRole('alert')).toHaveText(
    'No device is waiting with this code. Check the code, or ask for a new one on the other device.',
  );
  await tv.close();
  await phone.close();
});

test('the approving page works by keyboard at 1280 px', async ({ page, browser, request }) => {
  const email = uniqueEmail('code-keys');
  await registerByApi(request, email);
  const tv = await browser.newContext({ baseURL: sub });
  const tvPage = await tv.newPage();
  await tvPage.goto('/login/code');
  const code = (await tvPage.getByTestId('sign-in-code').textContent())!.replace(/\s/g, '');

  await loginInUi(page, email);
  await page.goto('/link');
  await page.getByLabel('Code', { exact: true }).focus();
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('link-device')).toBeVisible();
  await page.getByLabel('Your account password', { exact: true }).focus();
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('link-approved')).toBeVisible();
  await expect(tvPage.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
  await tv.close();
});

test.describe('a passphrase account (decision 107)', () => {
  // The discovery instance of playwright.config.ts: passphrase accounts.
  const discovery = `http://127.0.0.1:${process.env.E2E_PORT ?? 4180}`;
  test.use({ baseURL: discovery });

  test('a TV signs in with a code approved on a phone with the 12 words; the seed travels sealed to the TV', async ({
    browser,
  }) => {
    const phone = await browser.newContext({
      baseURL: discovery,
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    const phonePage = await phone.newPage();
    const passphrase = await registerAccount(phonePage, 'Phone');

    const tv = await browser.newContext({ baseURL: discovery, viewport: { width: 1280, height: 720 } });
    const tvPage = await tv.newPage();
    const sent: string[] = [];
    tvPage.on('request', (r) => sent.push(r.postData() ?? ''));
    phonePage.on('request', (r) => sent.push(r.postData() ?? ''));
    await tvPage.goto('/login');
    await tvPage.getByRole('link', { name: 'Sign in with a code from another device' }).click();
    const shown = tvPage.getByTestId('sign-in-code');
    await expect(shown).toHaveText(/^\d{3} \d{3}$/);
    const code = (await shown.textContent())!.replace(/\s/g, '');
    const tvCheck = (await tvPage.getByTestId('code-key-check').textContent())!.match(
      /[0-9A-F]{2} [0-9A-F]{2} [0-9A-F]{2}/,
    )![0];

    await phonePage.goto(`/link?code=${code}`);
    await phonePage.getByRole('button', { name: 'Continue' }).tap();
    await expect(phonePage.getByTestId('link-device')).toHaveText(
      'Chrome on Linux wants to sign in to your account.',
    );
    // Both devices show the same key check (a server that swapped the key could not match it).
    await expect(phonePage.getByTestId('link-key-check')).toContainText(`Key check: ${tvCheck}.`);
    const words = phonePage.getByLabel('Your 12-word passphrase', { exact: true });
    await words.fill('abandon '.repeat(11) + 'about');
    await phonePage.getByRole('button', { name: 'Let it in' }).tap();
    await expect(phonePage.getByRole('alert')).toBeVisible();
    await phonePage.screenshot({ path: test.info().outputPath('code-words-390.png') });
    await words.fill(passphrase);
    await phonePage.getByRole('button', { name: 'Let it in' }).tap();
    await expect(phonePage.getByTestId('link-approved')).toContainText('Chrome on Linux is signed in.');

    // The TV opens the sealed seed and signs in to the same account; the words never left the phone.
    await expect(tvPage.getByTestId('account-menu-button')).toBeVisible();
    await expect(tvPage).toHaveURL(/\/$/);
    const phoneAccount = await storedAccount(phonePage);
    const tvAccount = await storedAccount(tvPage);
    expect(tvAccount.userId).toBe(phoneAccount.userId);
    expect(tvAccount.sessionId).not.toBe(phoneAccount.sessionId);
    expect(sent.some((body) => body.includes(passphrase.split(' ').slice(0, 3).join(' ')))).toBe(false);
    await tv.close();
    await phone.close();
  });
});
