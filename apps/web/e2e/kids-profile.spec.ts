import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { blockingViolations } from './support/axe.ts';
import { loginInUi, PASSWORD, registerByApi, tokenOf, uniqueEmail } from './support/subscription.ts';

// Kids' profiles (decision 106) on the subscription instance of playwright.config.ts (email accounts).
const sub = `http://127.0.0.1:${process.env.E2E_SUB_PORT ?? 4182}`;
test.use({ baseURL: sub });

const OWNER_PIN = '1357';
const MATRIX = '/media/tmdb-movie-603-the-matrix';

/**
 * One parent for every test of this file, each with kids' profiles of its own names: registrations are
 * limited per address (10 per 10 minutes), and the subscription spec after this one needs its share.
 */
let parent: Promise<{ email: string; uid: string; headers: { authorization: string } }> | undefined;
const sharedParent = (request: APIRequestContext) => (parent ??= parentWithPin(request, uniqueEmail('kids')));

/** An account whose own profile has a PIN, so a kid cannot leave for it; what the API calls need. */
async function parentWithPin(request: APIRequestContext, email: string) {
  await registerByApi(request, email, 'Parent');
  const headers = { authorization: `Bearer ${await tokenOf(request, email)}` };
  const me = (await (await request.get('/customers', { headers })).json()) as { user: { id: string } };
  const pinned = await request.put(`/customers/${me.user.id}/profile-pin`, {
    headers,
    data: { profileId: '', pin: OWNER_PIN, password: PASSWORD },
  });
  expect(pinned.status()).toBe(200);
  return { email, uid: me.user.id, headers };
}

const cards = (page: Page) => page.getByTestId('media-card');
const tile = (page: Page, name: string) => page.getByTestId('profile-tile').filter({ hasText: name });

/** The parent, signed in on their own profile (its PIN entered), adds a kids' profile in the editor. */
async function addKidsProfile(page: Page, name: string) {
  await page.goto('/profiles');
  await page.getByRole('button', { name: 'Manage profiles' }).click();
  await page.getByTestId('profile-add').click();
  const editor = page.getByTestId('profile-editor');
  await editor.getByLabel('Name').fill(name);
  const kids = editor.getByTestId('kids-limit');
  await kids.getByLabel('Only titles rated for children').check();
  // The region is the viewer's (the US here); the highest rating allowed starts at PG.
  await expect(kids.getByLabel('Ratings of')).toHaveValue('US');
  await expect(kids.getByRole('radio', { name: /^PG\b(?!-)/ })).toBeChecked();
  await kids.getByRole('radio', { name: /^G\b/ }).check();
  await kids.getByRole('radio', { name: /^PG\b(?!-)/ }).check();
  await expect(kids.getByTestId('kids-owner-pin-hint')).toHaveCount(0);
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(tile(page, name).getByTestId('profile-kids-badge')).toHaveText('Kids');
  await page.getByRole('button', { name: 'Done' }).click();
}

async function enterOwnProfile(page: Page, email: string) {
  await loginInUi(page, email, { chooseOwn: false });
  await page.getByTestId('profile-tile').first().click();
  for (const d of OWNER_PIN) await page.getByTestId(`pin-key-${d}`).click();
  await page.getByTestId('pin-dialog').getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('greeting')).toBeVisible();
}

test.describe("kids' profiles", () => {
  test('at 1280 px: the editor makes a kids’ profile; a kid finds nothing over the limit, and a direct link shows the limit', async ({
    page,
    request,
  }) => {
    // The parent's PIN, the editor, then the kid's searches and pages: a long walk through the app.
    test.slow();
    const { email } = await sharedParent(request);
    await enterOwnProfile(page, email);
    await addKidsProfile(page, 'Mia');

    // The parent finds The Matrix.
    await page.goto('/browse/the matrix');
    await expect(cards(page).filter({ hasText: 'The Matrix' }).first()).toBeVisible();

    await page.goto('/profiles');
    await tile(page, 'Mia').click();
    await expect(page.getByTestId('greeting')).toBeVisible();

    // Search: nothing rated R; what is rated G is there.
    await page.goto('/browse/the matrix');
    await expect(
      page.getByText(/No results|Nothing found|couldn't find/i).or(cards(page).first()),
    ).toBeVisible();
    await expect(cards(page).filter({ hasText: /^The Matrix/ })).toHaveCount(0);
    await page.goto('/browse/toy story');
    await expect(cards(page).filter({ hasText: 'Toy Story' }).first()).toBeVisible();

    // A direct link to an R-rated title: the limit, never the player.
    await page.goto(MATRIX);
    const limit = page.getByTestId('over-limit');
    await expect(limit.getByRole('heading', { name: 'Not for this profile' })).toBeVisible();
    await expect(limit).toContainText("Mia's profile shows only titles rated for younger viewers.");
    await expect(page.getByTestId('player')).toHaveCount(0);
    expect(await blockingViolations(page, 'over limit')).toEqual([]);
  });

  test('at 1280 px by keyboard: the grown-ups’ pages stay closed, leaving needs the PIN', async ({
    page,
    request,
  }) => {
    const { email, uid, headers } = await sharedParent(request);
    const made = await request.post(`/customers/${uid}/profiles`, {
      headers,
      data: { fullname: 'Ben', icon: 'couch', kids: { region: 'US', maxAge: 10, showUnrated: false } },
    });
    expect(made.status()).toBe(200);
    await loginInUi(page, email, { chooseOwn: false });
    await tile(page, 'Ben').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('greeting')).toBeVisible();

    // The grown-ups' pages and menu entries stay closed.
    await page.goto('/import');
    await expect(page.getByTestId('kids-closed')).toContainText("Ben is a kids' profile.");
    await page.goto('/settings');
    await expect(page.getByRole('navigation', { name: 'Settings' }).getByRole('link')).toHaveText([
      'Preferences',
      'Appearance',
      'Captions',
    ]);
    await page.getByTestId('account-menu-button').click();
    await expect(page.getByRole('menuitem', { name: 'Log out' })).toHaveCount(0);
    await page.keyboard.press('Escape');

    // Leaving for the parent's profile needs its PIN; then The Matrix is found again.
    await page.goto('/profiles');
    await expect(page.getByRole('button', { name: 'Manage profiles' })).toHaveCount(0);
    await tile(page, 'Parent').focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByTestId('pin-dialog');
    await expect(dialog).toBeVisible();
    await page.getByTestId('pin-field').fill(OWNER_PIN);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.goto('/browse/the matrix');
    await expect(cards(page).filter({ hasText: 'The Matrix' }).first()).toBeVisible();
  });

  test.describe('on a phone (390 px, touch)', () => {
    test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

    test('the editor’s limit by touch; a title within it plays, one over it does not', async ({
      page,
      request,
    }) => {
      const { email } = await sharedParent(request);
      await enterOwnProfile(page, email);
      await addKidsProfile(page, 'Leo');
      await page.goto('/profiles');
      await page.getByRole('button', { name: 'Manage profiles' }).tap();
      await tile(page, 'Leo').tap();
      await expect(page.getByTestId('kids-limit')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('kids-editor-390.png'), fullPage: true });
      await page.getByRole('button', { name: 'Cancel' }).tap();
      await page.getByRole('button', { name: 'Done' }).tap();
      await tile(page, 'Leo').tap();
      await expect(page.getByTestId('greeting')).toBeVisible();
      await page.goto(MATRIX);
      await expect(page.getByTestId('over-limit')).toBeVisible();
      await page.screenshot({ path: test.info().outputPath('kids-over-limit-390.png') });
      await page.goto('/media/tmdb-movie-862-toy-story');
      await expect(page.getByRole('heading', { level: 1, name: 'Toy Story' })).toBeVisible();
    });
  });
});
