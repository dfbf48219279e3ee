import { expect, test } from '@playwright/test';

// A second instance runs with CAPTCHA_PROVIDER=altcha (playwright.config.ts).
const altcha = `http://127.0.0.1:${process.env.E2E_ALTCHA_PORT ?? 4181}`;

test('registration on an ALTCHA instance solves the proof of work and creates the account', async ({
  page,
}) => {
  await page.goto(`${altcha}/register`);
  await page.getByRole('button', { name: 'I trust this server' }).click();
  const passphrase = (await page.getByTestId('passphrase-word').allTextContents()).join(' ');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Device name').fill('Captcha box');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('captcha')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await expect(page.getByTestId('captcha')).toContainText('Verified');
  await page.getByLabel('12-word passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page).toHaveURL(`${altcha}/`);
  await expect(page.getByTestId('account-menu-button')).toBeVisible();
});

test('a refused captcha token shows "Captcha validation failed"', async ({ page }) => {
  await page.route('**/auth/register/start', (route) =>
    route.fulfill({
      status: 400,
      json: { errorType: 'message', code: 'captcha_invalid', message: 'captcha token is invalid' },
    }),
  );
  await page.goto(`${altcha}/register`);
  await page.getByRole('button', { name: 'I trust this server' }).click();
  const passphrase = (await page.getByTestId('passphrase-word').allTextContents()).join(' ');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Device name').fill('Captcha box');
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('captcha')).toHaveAttribute('data-status', 'done', { timeout: 20_000 });
  await page.getByLabel('12-word passphrase').fill(passphrase);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByTestId('form-error')).toHaveText('Captcha validation failed');
});
