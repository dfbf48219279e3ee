import { expect, test } from '@playwright/test';
import { login, outboxLength, registerAccount, storedAccount } from './support/account.ts';
import { MATRIX, startPlayback } from './support/player.ts';

const BREAKING_BAD = '/media/tmdb-tv-1396-breaking-bad';
// Its own discovery instance: its sign-ups do not use up the registration limit the other specs share.
const discovery = `http://127.0.0.1:${process.env.E2E_HISTORY_PORT ?? 4187}`;

/*
 * The watch history (issue 27, decision 095): a movie watched past 90 % is a play, on this device and
 * the account's others; the title page says when it was watched; a play removed on one device is gone
 * on the other; the server keeps it in the shapes p-stream's client reads.
 */
test.describe('watch history', () => {
  test.use({ baseURL: discovery });
  test('a movie watched to the end: in the history by day, on its title page, on the other device; removed there, gone here', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const passphrase = await registerAccount(page, 'Laptop');
    await page.goto('/history');
    await expect(page.getByRole('heading', { name: 'Watch history', level: 1 })).toBeVisible();
    await expect(page.getByTestId('history-empty')).toBeVisible();

    // The sample is 20 minutes long: from 18:05 on, playing passes 90 % (18:00).
    await page.goto(`${MATRIX}?t=1085`);
    await startPlayback(page);
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    const account = await storedAccount(page);
    await expect
      .poll(async () => {
        const res = await request.get(`/users/${account.userId}/watch-history`, {
          headers: { authorization: `Bearer ${account.token}` },
        });
        return ((await res.json()) as { tmdbId: string; completed: boolean }[]).map(
          (p) => `${p.tmdbId}:${p.completed}`,
        );
      })
      .toEqual(['603:true']);

    await page.goto('/history');
    await expect(page.getByRole('heading', { name: 'Today', level: 2 })).toBeVisible();
    const entry = page.getByTestId('history-entry');
    await expect(entry).toHaveCount(1);
    await expect(entry).toContainText('The Matrix');
    // Shows only: nothing of that kind; all again.
    await page.getByText('Shows', { exact: true }).click();
    await expect(page.getByTestId('history-none-of-kind')).toBeVisible();
    await page.getByText('All', { exact: true }).click();
    await expect(entry).toHaveCount(1);

    // The title page says it was watched, and leads to the history.
    await page.goto(MATRIX);
    await expect(page.getByTestId('title-history')).toContainText('Watched on');
    await page.getByTestId('title-history').getByRole('link').click();
    await expect(page).toHaveURL(/\/history$/);

    // The phone signs in and sees the play; removing it there removes it here.
    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    await phone.goto('/history');
    await expect(phone.getByTestId('history-entry')).toContainText('The Matrix');
    await phone.getByRole('button', { name: 'Remove The Matrix from your watch history' }).click();
    await expect(phone.getByTestId('history-empty')).toBeVisible();
    await expect.poll(() => outboxLength(phone)).toBe(0);
    // The laptop hears of it live (the library stream) and the page follows.
    await expect(page.getByTestId('history-empty')).toBeVisible({ timeout: 15_000 });
    // Watched elsewhere (a cinema, another app): marked from its page, it is a play like the others.
    await page.goto(MATRIX);
    await page.getByRole('button', { name: 'Mark as watched' }).click();
    await expect(page.getByTestId('title-history')).toContainText('Watched on');
    await phone.goto('/history');
    await expect(phone.getByTestId('history-entry')).toContainText('The Matrix');
    await other.close();
  });

  test('a season marked watched on one device is watched on the other; unmarked, it is not', async ({
    page,
    browser,
  }) => {
    test.setTimeout(120_000);
    const passphrase = await registerAccount(page, 'Laptop');
    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    for (const device of [page, phone]) await device.goto(BREAKING_BAD);
    const marks = (device: typeof page) => device.getByTestId('episode-watched');
    await expect(marks(page).first()).toHaveAttribute('aria-pressed', 'false');
    const count = await marks(page).count();
    expect(count).toBeGreaterThan(1);

    await page.getByRole('button', { name: 'Mark season as watched' }).click();
    for (let i = 0; i < count; i++) await expect(marks(page).nth(i)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('season-watched')).toHaveAttribute('aria-pressed', 'true');
    // The phone hears of it (the library stream) and shows every episode watched.
    for (let i = 0; i < count; i++)
      await expect(marks(phone).nth(i)).toHaveAttribute('aria-pressed', 'true', { timeout: 15_000 });
    // The plays are in the phone's history too.
    await phone.goto('/history');
    await expect(phone.getByTestId('history-entry')).toHaveCount(count);

    // One episode unmarked on the phone: the laptop follows, and the season is no longer all watched.
    await phone.goto(BREAKING_BAD);
    await phone.getByRole('button', { name: 'Mark S1 E1 as not watched' }).click();
    await expect(marks(page).first()).toHaveAttribute('aria-pressed', 'false', { timeout: 15_000 });
    await expect(page.getByTestId('season-watched')).toHaveAttribute('aria-pressed', 'false');
    await other.close();
  });

  test('a rating given by tapping the stars is on the other device live and on the server; cleared there, gone here', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const passphrase = await registerAccount(page, 'Laptop');
    const other = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    for (const device of [page, phone]) await device.goto(MATRIX);
    const stars = page.getByRole('slider', { name: 'Your rating' });
    await expect(stars).toHaveAttribute('aria-valuetext', 'Not rated');
    // The fourth star's first half: three and a half stars.
    const box = (await stars.boundingBox())!;
    const star = box.width / 5;
    await page.mouse.click(box.x + star * 3 + star * 0.25, box.y + box.height / 2);
    await expect(stars).toHaveAttribute('aria-valuetext', '3.5 out of 5 stars');
    // The keyboard: one more half star.
    await stars.press('ArrowRight');
    await expect(stars).toHaveAttribute('aria-valuenow', '8');
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    const account = await storedAccount(page);
    const ratings = async () => {
      const res = await request.get(`/users/${account.userId}/ratings?limit=500`, {
        headers: { authorization: `Bearer ${account.token}` },
      });
      return ((await res.json()) as { items: { tmdbId: string; type: string; rating: number }[] }).items.map(
        (r) => `${r.type}:${r.tmdbId}=${r.rating}`,
      );
    };
    expect(await ratings()).toEqual(['movie:603=8']);

    // The phone hears of it (the library stream) and shows four stars; cleared there, gone here.
    const phoneStars = phone.getByRole('slider', { name: 'Your rating' });
    await expect(phoneStars).toHaveAttribute('aria-valuetext', '4 out of 5 stars', { timeout: 15_000 });
    await phone.getByRole('button', { name: 'Remove rating' }).tap();
    await expect(phoneStars).toHaveAttribute('aria-valuetext', 'Not rated');
    await expect(stars).toHaveAttribute('aria-valuetext', 'Not rated', { timeout: 15_000 });
    await expect.poll(() => outboxLength(phone), { timeout: 15_000 }).toBe(0);
    expect(await ratings()).toEqual([]);
    await other.close();
  });
});
