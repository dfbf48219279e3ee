import { clipped } from './support/layout.ts';
import { startPlayback } from './support/player.ts';
import { expect, test } from '@playwright/test';
import { fromVisitor } from './support/visitor.ts';
import {
  ADMIN_EMAIL,
  createPromoByApi,
  loginInUi,
  PASSWORD,
  registerByApi,
  scrapeStatus,
  storedEmailAccount,
  tokenOf,
  uniqueEmail,
} from './support/subscription.ts';

// The third instance of playwright.config.ts: VARIANT=subscription, AUTH_METHODS=email, simulated
// payments, no captcha, ADMIN_EMAILS=admin@marquee.test, free movie of the month: The Matrix (603).
const sub = `http://127.0.0.1:${process.env.E2E_SUB_PORT ?? 4182}`;
test.use({ baseURL: sub });

test.describe('subscription site', () => {
  test('land → register → login → choose a profile → buy a membership with a promo code → play', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const promo = await createPromoByApi(request, 25);
    const email = uniqueEmail('viewer');

    // The landing page, with prices from the configured plans (12 months $30, 1 month $2.99).
    await page.goto('/');
    await expect(page.getByTestId('landing')).toBeVisible();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Movies and shows for the whole household' }),
    ).toBeVisible();
    await expect(page.getByTestId('plan-banner')).toContainText('Everything, from $2.50 a month');
    await expect(page.getByTestId('plan-price')).toHaveText(['$30 per year', '$2.99 per month']);
    await expect(page.getByTestId('free-movie')).toContainText('The Matrix');
    for (const id of ['feature-progress', 'feature-ads', 'feature-bookmarks', 'watch-everywhere', 'offline'])
      await expect(page.getByTestId(id)).toBeVisible();
    await page.getByText('How do I pay?').click();
    await expect(page.getByText('With cryptocurrency.', { exact: false })).toBeVisible();
    await page.getByTestId('get-started').click();
    await expect(page).toHaveURL(`${sub}/login`);

    // Email forms only (AUTH_METHODS=email); register from the login screen.
    await expect(page.getByLabel('Email')).toBeVisible();
    await expect(page.getByTestId('other-method')).toHaveCount(0);
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(`${PASSWORD}!`);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('register-confirm-error')).toHaveText("Password didn't match");
    await page.getByLabel('Confirm password').fill(PASSWORD);
    const registered = page.waitForRequest((r) => r.url().endsWith('/customers') && r.method() === 'POST');
    await page.getByRole('button', { name: 'Register' }).click();
    // The confirmation is not sent.
    expect(Object.keys((await registered).postDataJSON() as object).sort()).toEqual([
      'email',
      'fullname',
      'password',
    ]);
    await expect(page).toHaveURL(`${sub}/login`);
    await expect(page.getByTestId('registered-notice')).toBeVisible();
    await expect(page.getByLabel('Email')).toHaveValue(email);

    // A wrong password is a validation error; the right one leads to "who's watching".
    await page.getByLabel('Password', { exact: true }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByTestId('form-error')).toHaveText('Email or password is incorrect');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(`${sub}/`);
    await expect(page.getByRole('heading', { name: "Who's watching?" })).toBeVisible();
    const account = await storedEmailAccount(page);
    expect(await page.evaluate(() => localStorage.getItem('accessToken'))).toBe(account.token);

    // A household profile, chosen: its own library.
    await page.getByTestId('profile-add').click();
    await page.getByLabel('Name').fill('Kids');
    await page.getByText('Couch').click({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('profile-name')).toHaveText(['Ada Lovelace', 'Kids']);
    const kidsTile = page.getByRole('button', { name: /^Kids/ });
    await expect(kidsTile).toHaveAccessibleDescription('Watch as Kids');
    await kidsTile.click();
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByTestId('account-device-name')).toHaveText('Kids');
    await page.keyboard.press('Escape');
    const kids = (await storedEmailAccount(page)).profileId!;
    expect(kids).toMatch(/^[0-9a-f]{24}$/);

    await page.goto('/browse/inception');
    await page.getByRole('button', { name: 'Add to My List: Inception' }).first().click();
    const headers = (profile?: string) => ({
      authorization: `Bearer ${account.token}`,
      ...(profile ? { 'x-profile-id': profile } : {}),
    });
    await expect
      .poll(async () =>
        (
          (await (
            await request.get(`/users/${account.userId}/bookmarks`, { headers: headers(kids) })
          ).json()) as Array<{ tmdbId: string }>
        ).map((b) => b.tmdbId),
      )
      .toEqual(['27205']);
    expect(
      await (await request.get(`/users/${account.userId}/bookmarks`, { headers: headers() })).json(),
    ).toEqual([]);
    await page.goto('/mylist');
    await expect(page.getByTestId('bookmarks-section').getByTestId('media-card')).toHaveCount(1);

    // Before a membership: only the free movie of the month may be played.
    expect(await scrapeStatus(page, '27205', 'Inception', account.token)).toBe(402);
    expect(await scrapeStatus(page, '603', 'The Matrix', null)).toBe(200);
    // …and the player says what is needed.
    await page.goto('/media/tmdb-movie-27205-inception');
    await page.getByTestId('title-play').click();
    await expect(page.getByText('A membership is needed to watch this')).toBeVisible({ timeout: 20_000 });
    await page.getByTestId('player').getByRole('link', { name: 'Start a membership' }).click();
    await expect(page).toHaveURL(`${sub}/subscription`);
    // The header's profile menu leads there too.
    await page.getByTestId('account-menu-button').click();
    await page.getByRole('menuitem', { name: 'Start a membership' }).click();
    await expect(page).toHaveURL(`${sub}/subscription`);

    // The membership: plan, promo (applied first), crypto, payment, simulated gateway.
    await expect(page.getByTestId('membership-status')).toHaveText('No membership active');
    await expect(page.getByTestId('plan-option')).toHaveCount(2);
    await page.getByLabel('I have promo code').check();
    await page.getByLabel('Promo code', { exact: true }).fill(promo.toLowerCase());
    await page.getByRole('button', { name: 'Start payment' }).click();
    // Every problem at once, each under its own field; each goes once it is answered.
    await expect(page.getByTestId('promo-code-error')).toHaveText('You should apply promo code before');
    await expect(page.getByTestId('crypto-error')).toHaveText(
      'You have to select the cripto before starting payment process.',
    );
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByTestId('promo-message')).toHaveText('25% off applied');
    await expect(page.getByTestId('promo-code-error')).toHaveCount(0);
    await expect(page.getByTestId('payment-total')).toContainText('Total: $22.50');
    await page.getByTestId('crypto-select').selectOption({ index: 1 });
    await expect(page.getByTestId('crypto-error')).toHaveCount(0);
    await page.getByRole('button', { name: 'Start payment' }).click();
    await expect(page.getByTestId('payment-panel')).toBeVisible();
    // A way back to the choice, which is kept; the browser's Forward returns to the payment.
    await page.getByTestId('payment-back').click();
    await expect(page.getByTestId('crypto-select')).not.toHaveValue('');
    await page.goForward();
    await expect(page.getByTestId('payment-panel')).toBeVisible();
    await expect(page.getByTestId('payment-warning')).toContainText('no longer valid');
    await expect(page.getByTestId('payment-qr')).toHaveAttribute('src', /^data:image\/png;base64,/);
    await expect(page.getByTestId('payment-wallet')).not.toBeEmpty();
    await page.getByTestId('simulate-payment').click();
    await expect(page.getByTestId('payment-success')).toContainText('Your membership is active until');

    // The account shows it (long date-time), and the server now lets the title play.
    await page.goto('/settings');
    await page.getByTestId('settings-nav-membership').click();
    await expect(page.getByTestId('membership-status')).toContainText('Your membership is active until');
    expect(await scrapeStatus(page, '27205', 'Inception', account.token)).toBe(200);
    // A member presses play in the player and watches.
    await page.goto('/media/tmdb-movie-27205-inception');
    await startPlayback(page);

    // The code discounted one payment: it is used now.
    const check = await request.get(`/promos/${promo}`, { headers: headers() });
    expect(await check.json()).toMatchObject({ error: true, message: 'promo code already used' });
  });

  test('registration errors show the server’s message in a dismissible alert', async ({ page, request }) => {
    const email = uniqueEmail('taken');
    await registerByApi(request, email);
    await page.goto('/register');
    await page.getByLabel('Full name').fill('Somebody Else');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByTestId('server-alert')).toContainText('An account with this email already exists');
    await page.getByTestId('server-alert').getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByTestId('server-alert')).toHaveCount(0);
    await expect(page).toHaveURL(`${sub}/register`);
  });

  test('settings for an email account: one section at a time, device name required, password change', async ({
    page,
    request,
  }) => {
    const email = uniqueEmail('settings');
    await registerByApi(request, email, 'Grace Hopper');
    await loginInUi(page, email);
    await page.goto('/settings');
    await expect(page.getByRole('heading', { level: 2, name: 'Account' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Security' })).toHaveCount(0);
    await expect(page.getByTestId('device-list')).toHaveCSS('max-height', '288px');

    await page.getByLabel('Device name').fill('');
    await expect(page.getByTestId('save-bar')).toBeVisible();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText("Device name can't be empty").first()).toBeVisible();
    await page.getByRole('button', { name: 'Reset' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);

    await page.getByLabel('Full name').fill('Grace B. Hopper');
    await page.getByLabel('Device name').fill('Lab terminal');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByTestId('save-bar')).toHaveCount(0);
    const token = (await storedEmailAccount(page)).token;
    const me = (await (await request.get('/customers', { headers: { 'x-auth-token': token } })).json()) as {
      user: { fullname: string };
    };
    expect(me.user.fullname).toBe('Grace B. Hopper');
    await expect(page.getByTestId('device').first()).toContainText('Lab terminal');

    await page.getByTestId('settings-nav-security').click();
    await expect(page.getByRole('heading', { level: 2, name: 'Account' })).toHaveCount(0);
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Confirm new password').fill('a brand new passw0rd');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByTestId('password-error')).toHaveText("Password didn't match");
    await page.getByLabel('Confirm new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Change password' }).click();
    await expect(page.getByText('Password changed')).toBeVisible();
    const relogin = await request.post('/customers/auth', {
      data: { email, password: 'a brand new password' },
      headers: fromVisitor(),
    });
    expect(relogin.status()).toBe(200);

    await page.getByTestId('settings-nav-membership').click();
    await expect(page.getByTestId('membership-status')).toHaveText('No membership active');
  });

  test('an admin creates a promo code; /admin shows the self-test', async ({ page, request }) => {
    test.setTimeout(120_000);
    await registerByApi(request, ADMIN_EMAIL, 'Site Admin');
    await loginInUi(page, ADMIN_EMAIL);
    await page.getByTestId('account-menu-button').click();
    await page.getByRole('menuitem', { name: 'Promo codes' }).click();
    await expect(page).toHaveURL(`${sub}/promos`);
    await expect(page.getByRole('heading', { level: 1, name: 'Promo codes' })).toBeVisible();

    await page.getByLabel('Discount rate (%)').fill('150');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    await expect(page.getByText('The rate must be a whole number from 1 to 100')).toBeVisible();
    await page.getByLabel('Discount rate (%)').fill('');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    await expect(page.getByTestId('promo-created')).toContainText('10% off');
    const created = (await page.getByTestId('promo-created').textContent())!.match(
      /New code ([A-Z0-9]{8})/,
    )![1]!;
    const row = page.getByTestId('promo-row').filter({ hasText: created });
    await expect(row).toContainText('10%');
    await expect(row).toContainText('Available');

    await page.getByLabel('Discount rate (%)').fill('30');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    await expect(page.getByTestId('promo-created')).toContainText('30% off');
    await expect(page.getByTestId('promo-row').first()).toContainText('30%');
    // A refused rate replaces the last success: the two are never on screen together.
    await page.getByLabel('Discount rate (%)').fill('0');
    await page.getByRole('button', { name: 'Create promo code' }).click();
    await expect(page.getByTestId('promo-rate-error')).toHaveText(
      'The rate must be a whole number from 1 to 100',
    );
    await expect(page.getByTestId('promo-created')).toHaveCount(0);

    // On a phone every cell of every code is on screen, each under its column's name (no sideways scroll).
    await page.setViewportSize({ width: 390, height: 844 });
    const cells = await page
      .getByTestId('promo-row')
      .locator('td')
      .evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect()).map((r) => [r.left, r.right]));
    expect(cells.length).toBeGreaterThanOrEqual(10);
    expect(cells.filter(([left, right]) => left! < 0 || right! > 390)).toEqual([]);
    await expect(page.getByTestId('promo-row').first()).toContainText('Created');
    expect(await clipped(page)).toEqual([]);
    await page.setViewportSize({ width: 1280, height: 720 });

    // The self-test panel: each check with its result and reason, and a re-run.
    await page.goto('/admin');
    await expect(page.getByRole('heading', { level: 1, name: 'Admin panel' })).toBeVisible();
    await expect(page.getByTestId('self-test-summary')).toBeVisible({ timeout: 90_000 });
    const checks = page.getByTestId('self-test-check');
    expect(await checks.count()).toBeGreaterThan(3);
    for (const check of await checks.all())
      expect(['pass', 'fail', 'skip']).toContain(await check.getAttribute('data-status'));
    await expect(checks.filter({ hasText: 'Database' }).first()).toHaveAttribute('data-status', 'pass');
    await page.getByTestId('self-test-run').click();
    await expect(page.getByTestId('self-test-summary')).toBeVisible({ timeout: 90_000 });
  });

  test('a visitor who opens a title is asked to sign in', async ({ page }) => {
    await page.goto(`${sub}/media/tmdb-movie-27205-inception`);
    await page.getByTestId('title-play').click();
    await expect(page.getByText('Sign in to watch')).toBeVisible({ timeout: 20_000 });
    await page.getByRole('link', { name: 'Sign in' }).last().click();
    await expect(page).toHaveURL(`${sub}/login`);
  });

  test('non-admins and visitors are sent to / from /promos, /admin and /subscription', async ({
    page,
    request,
  }) => {
    await page.goto('/promos');
    await expect(page).toHaveURL(`${sub}/`);
    await expect(page.getByTestId('landing')).toBeVisible();
    await page.goto('/subscription');
    await expect(page).toHaveURL(`${sub}/`);
    await page.goto('/settings');
    await expect(page).toHaveURL(`${sub}/`);

    const email = uniqueEmail('plain');
    await registerByApi(request, email);
    await loginInUi(page, email);
    // Each page's code loads, then asks the server who is signed in before it sends them home.
    await page.goto('/promos');
    await expect(page).toHaveURL(`${sub}/`, { timeout: 15_000 });
    await page.goto('/admin');
    await expect(page).toHaveURL(`${sub}/`, { timeout: 15_000 });
    // The API agrees.
    const token = await tokenOf(request, email);
    expect(
      (
        await request.get('/promos', {
          headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
        })
      ).status(),
    ).toBe(403);
  });
});
