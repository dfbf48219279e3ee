import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { blockingViolations } from './support/axe.ts';
import { loginInUi, PASSWORD, registerByApi, tokenOf, uniqueEmail } from './support/subscription.ts';

// Profile PINs (decision 104) on the subscription instance of playwright.config.ts (email accounts).
const sub = `http://127.0.0.1:${process.env.E2E_SUB_PORT ?? 4182}`;
test.use({ baseURL: sub });

const PIN = '2468';

/** An account with a household profile "Kid" locked with PIN; answers what the API calls need. */
async function accountWithLockedKid(request: APIRequestContext, email: string) {
  await registerByApi(request, email, 'Parent');
  const token = await tokenOf(request, email);
  const headers = { authorization: `Bearer ${token}` };
  const me = (await (await request.get('/customers', { headers })).json()) as { user: { id: string } };
  const uid = me.user.id;
  const made = await request.post(`/customers/${uid}/profiles`, {
    headers,
    data: { fullname: 'Kid', icon: 'couch' },
  });
  const kid = ((await made.json()) as { profile: { _id: string } }).profile._id;
  const locked = await request.put(`/customers/${uid}/profile-pin`, {
    headers,
    data: { profileId: kid, pin: PIN, password: PASSWORD },
  });
  expect(locked.status()).toBe(200);
  return { uid, kid, headers };
}

const kidTile = (page: Page) => page.getByTestId('profile-tile').filter({ hasText: 'Kid' });
const pressKeys = async (page: Page, digits: string) => {
  for (const d of digits) await page.getByTestId(`pin-key-${d}`).tap();
};

test.describe('profile PINs', () => {
  test.describe('on a phone (390 px, touch)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('a locked profile asks for its PIN on the keypad; a PIN changed elsewhere asks again', async ({
      page,
      request,
    }) => {
      const email = uniqueEmail('pin-phone');
      const { uid, kid, headers } = await accountWithLockedKid(request, email);
      await loginInUi(page, email, { chooseOwn: false });
      await expect(kidTile(page).getByTestId('profile-lock-badge')).toBeVisible();
      await expect(kidTile(page)).toHaveAccessibleName(/Kid/);

      await kidTile(page).tap();
      const dialog = page.getByTestId('pin-dialog');
      await expect(dialog.getByRole('heading', { name: 'Enter the PIN for Kid' })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('pin-pad-390.png') });
      await pressKeys(page, '1234');
      await dialog.getByRole('button', { name: 'OK' }).tap();
      await expect(dialog.getByRole('alert')).toHaveText("That PIN isn't right. Try again.");
      await expect(page.getByTestId('pin-field')).toHaveValue('');
      await pressKeys(page, '24690');
      await page.getByTestId('pin-key-erase').tap();
      await page.getByTestId('pin-key-erase').tap();
      await pressKeys(page, '8');
      await dialog.getByRole('button', { name: 'OK' }).tap();
      await expect(page.getByTestId('greeting')).toBeVisible();
      await expect(page.getByTestId('profile-lock-gate')).toHaveCount(0);

      // Open on this device across a reload; the server takes its library calls.
      await page.reload();
      await expect(page.getByTestId('greeting')).toBeVisible();
      await expect(page.getByTestId('profile-lock-gate')).toHaveCount(0);

      // Without this device's unlock, the server refuses the kid's library.
      const refused = await request.get(`/users/${uid}/bookmarks`, {
        headers: { ...headers, 'x-profile-id': kid },
      });
      expect([refused.status(), ((await refused.json()) as { code: string }).code]).toEqual([
        403,
        'profile_locked',
      ]);

      // The owner changes the PIN on another device: this one asks for the new PIN at its next call.
      const changed = await request.put(`/customers/${uid}/profile-pin`, {
        headers,
        data: { profileId: kid, pin: '13579', currentPin: PIN },
      });
      expect(changed.status()).toBe(200);
      await page.reload();
      const gate = page.getByTestId('profile-lock-gate');
      await expect(gate.getByRole('heading', { name: 'Kid is locked' })).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('pin-gate-390.png') });
      await pressKeys(page, '13579');
      await gate.getByRole('button', { name: 'OK' }).tap();
      await expect(gate).toHaveCount(0);
      await expect(page.getByTestId('greeting')).toBeVisible();
    });
  });

  test.describe('on a laptop (1280 px, keyboard)', () => {
    test.use({ viewport: { width: 1280, height: 800 } });

    test('the PIN by keyboard; the lock is managed in the profile editor', async ({ page, request }) => {
      const email = uniqueEmail('pin-keys');
      const { uid, headers } = await accountWithLockedKid(request, email);
      await loginInUi(page, email, { chooseOwn: false });

      await kidTile(page).focus();
      await page.keyboard.press('Enter');
      const field = page.getByRole('dialog').getByLabel('PIN', { exact: true });
      await expect(field).toBeFocused();
      await page.keyboard.type('0000');
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog').getByRole('alert')).toHaveText(
        "That PIN isn't right. Try again.",
      );
      await expect(field).toBeFocused();
      await page.keyboard.type(PIN);
      await page.keyboard.press('Enter');
      await expect(page.getByTestId('greeting')).toBeVisible();

      // Leaving the kid's profile locks it again on this device; Esc leaves the PIN pad, staying out.
      await page.goto('/profiles');
      await page.getByTestId('profile-tile').first().click();
      await expect(page.getByTestId('greeting')).toBeVisible();
      await page.goto('/profiles');
      await kidTile(page).click();
      await expect(page.getByTestId('pin-dialog')).toBeVisible();
      expect(await blockingViolations(page, 'PIN pad')).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(page.getByTestId('pin-dialog')).toHaveCount(0);
      await expect(page.getByRole('heading', { name: "Who's watching?" })).toBeVisible();

      // Managing a locked profile needs its PIN too; then the lock can be removed with the password.
      await page.getByRole('button', { name: 'Manage profiles' }).click();
      await kidTile(page).click();
      await page.keyboard.type(PIN);
      await page.keyboard.press('Enter');
      const lock = page.getByTestId('profile-lock');
      await expect(lock.getByTestId('profile-lock-state')).toHaveText(
        'This profile asks for its PIN on every device.',
      );
      expect(await blockingViolations(page, 'profile lock')).toEqual([]);
      await lock.getByRole('button', { name: 'Forgot the PIN? Use your account password' }).click();
      await lock.getByLabel('Your account password', { exact: true }).fill('wrong password');
      await lock.getByRole('button', { name: 'Remove the lock' }).click();
      await expect(lock.getByRole('alert')).toHaveText("That password isn't right.");
      await lock.getByLabel('Your account password', { exact: true }).fill(PASSWORD);
      await lock.getByRole('button', { name: 'Remove the lock' }).click();
      await expect(lock.getByTestId('profile-lock-done')).toHaveText('The lock is removed.');
      await expect(lock.getByTestId('profile-lock-state')).toHaveText(
        'Anyone using this account can open this profile.',
      );
      await page.screenshot({ path: test.info().outputPath('profile-lock-1280.png'), fullPage: true });
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(kidTile(page).getByTestId('profile-lock-badge')).toHaveCount(0);

      // The owner locks their own profile; digits typed in another script are the PIN's digits.
      await page.getByTestId('profile-tile').first().click();
      const own = page.getByTestId('profile-lock');
      await own.getByLabel('New PIN (4 to 6 digits)', { exact: true }).fill('١٢٣٤');
      await own.getByLabel('Your account password', { exact: true }).fill(PASSWORD);
      await own.getByRole('button', { name: 'Lock with this PIN' }).click();
      await expect(own.getByTestId('profile-lock-done')).toHaveText(
        'PIN saved. Every device asks for it from now on.',
      );
      await page.getByRole('button', { name: 'Cancel' }).click();
      await expect(page.getByTestId('profile-tile').first().getByTestId('profile-lock-badge')).toBeVisible();
      const opened = await request.post(`/customers/${uid}/profile-unlock`, {
        headers,
        data: { profileId: '', pin: '1234' },
      });
      expect(opened.status()).toBe(200);
    });
  });
});
