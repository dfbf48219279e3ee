import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { strToU8, zipSync } from 'fflate';
import { login, outboxLength, registerAccount, storedAccount } from './support/account.ts';

// history.spec.ts's instance: this spec's two sign-ups stay within its registration limit.
const discovery = `http://127.0.0.1:${process.env.E2E_HISTORY_PORT ?? 4187}`;

/*
 * Import from anywhere, export everything (issue 27; decisions 096, 098), through the page a viewer uses:
 * a Letterboxd export (a zip, as Letterboxd gives it) and an IMDb ratings CSV, matched against this
 * instance's catalog, reviewed, imported with their own dates; another device sees them live; the backup
 * downloaded from the same page imports as nothing new.
 */

const letterboxdZip = () =>
  Buffer.from(
    zipSync({
      'diary.csv': strToU8(
        [
          'Date,Name,Year,Letterboxd URI,Rating,Rewatch,Tags,Watched Date',
          '2019-11-01,Alien,1979,https://boxd.it/a1,4.5,,,2019-10-31',
          '2020-01-06,The Matrix,1999,https://boxd.it/a2,5,,,2020-01-05',
          '2021-03-05,The Matrix,1999,https://boxd.it/a3,5,Yes,,2021-03-04',
          '2021-05-01,Zzyzx Unknown Film,1911,https://boxd.it/a4,,,,2021-04-30',
        ].join('\n'),
      ),
      'watchlist.csv': strToU8(
        ['Date,Name,Year,Letterboxd URI', '2022-02-02,Inception,2010,https://boxd.it/a5'].join('\n'),
      ),
      'profile.csv': strToU8('Date Joined,Username\n2019-01-01,someone\n'),
    }),
  );

const imdbRatings = () =>
  Buffer.from(
    [
      'Const,Your Rating,Date Rated,Title,Original Title,URL,Title Type,IMDb Rating,Runtime (mins),Year,Genres,Num Votes,Release Date,Directors',
      'tt6751668,8,2020-02-10,Parasite,Gisaengchung,https://www.imdb.com/title/tt6751668/,Movie,8.5,132,2019,Drama,900000,2019-05-30,Bong Joon Ho',
      'tt0113277,9,2018-07-01,Heat,Heat,https://www.imdb.com/title/tt0113277/,Movie,8.3,170,1995,Crime,700000,1995-12-15,Michael Mann',
      // Watched already (the Letterboxd diary): a rating adds no second play.
      'tt0078748,9,2019-11-02,Alien,Alien,https://www.imdb.com/title/tt0078748/,Movie,8.5,117,1979,Horror,900000,1979-05-25,Ridley Scott',
    ].join('\n'),
  );

async function upload(page: Page, name: string, mimeType: string, buffer: Buffer) {
  await page.getByTestId('import-file-input').setInputFiles({ name, mimeType, buffer });
  await expect(page.getByTestId('import-review')).toBeVisible({ timeout: 30_000 });
}

async function confirm(page: Page) {
  await page.getByTestId('import-confirm').click();
  await expect(page.getByTestId('import-done')).toBeVisible({ timeout: 30_000 });
}

/** The account's plays as the server keeps them: title and day, oldest first. */
async function serverPlays(page: Page, request: import('@playwright/test').APIRequestContext) {
  const account = await storedAccount(page);
  const res = await request.get(`/users/${account.userId}/watch-history?limit=500`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  const body = (await res.json()) as { items: { tmdbId: string; watchedAt: string }[] };
  return body.items.map((p) => `${p.tmdbId}@${p.watchedAt.slice(0, 10)}`).sort();
}

/** The account's ratings as the server keeps them: title, value and day rated. */
async function serverRatings(page: Page, request: import('@playwright/test').APIRequestContext) {
  const account = await storedAccount(page);
  const res = await request.get(`/users/${account.userId}/ratings?limit=500`, {
    headers: { authorization: `Bearer ${account.token}` },
  });
  const body = (await res.json()) as { items: { tmdbId: string; rating: number; ratedAt: string }[] };
  return body.items.map((r) => `${r.tmdbId}=${r.rating}@${r.ratedAt.slice(0, 10)}`).sort();
}

test.describe('import and export', () => {
  test.use({ baseURL: discovery });
  test('Letterboxd and IMDb files, reviewed, in the history with their dates, live on the phone; the backup re-imports as nothing new', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(180_000);
    const passphrase = await registerAccount(page, 'Laptop');
    // The phone is signed in and showing the history before anything is imported.
    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    await phone.goto('/history');
    await expect(phone.getByTestId('history-empty')).toBeVisible();

    // Settings → Import.
    await page.goto('/settings');
    await page.getByTestId('settings-import-link').click();
    await expect(page).toHaveURL(/\/import$/);
    await expect(page.getByRole('heading', { name: 'Import and export', level: 1 })).toBeVisible();

    // Letterboxd: three films found, one not; nothing is written before Import.
    await upload(page, 'letterboxd-someone-2024.zip', 'application/zip', letterboxdZip());
    const review = page.getByTestId('import-review');
    await expect(review.getByTestId('import-matched')).toHaveText('3 found');
    await expect(review.getByTestId('import-unmatched')).toHaveText('1 not found');
    await expect(review.getByTestId('import-will-add')).toContainText('3 plays to your watch history');
    await expect(review.getByTestId('import-will-add')).toContainText('1 title to My List');
    // The diary's stars are ratings too: Alien's and The Matrix's (its later entry's).
    await expect(review.getByTestId('import-will-add')).toContainText('2 ratings');
    await review.getByTestId('import-unmatched-list').locator('summary').click();
    await expect(review.getByTestId('import-unmatched-list')).toContainText('Zzyzx Unknown Film (1911)');
    expect(await serverPlays(page, request)).toEqual([]);
    await confirm(page);
    await expect(page.getByTestId('import-done')).toContainText('3 plays to your watch history');

    // IMDb ratings: kept as ratings (Alien's, given after the diary's, replaces it); the two films rated
    // and not watched become plays on the day they were rated.
    await page.getByRole('button', { name: 'Import another file' }).click();
    await upload(page, 'ratings.csv', 'text/csv', imdbRatings());
    await expect(page.getByLabel('Count titles I rated as watched (on the day I rated them)')).toBeChecked();
    await expect(review.getByTestId('import-will-add')).toContainText('2 plays to your watch history');
    await expect(review.getByTestId('import-will-add')).toContainText('3 ratings');
    await expect(review.getByTestId('import-left-out')).toHaveCount(0);
    await confirm(page);

    await expect
      .poll(() => serverPlays(page, request), { timeout: 15_000 })
      .toEqual(['348@2019-10-31', '496243@2020-02-10', '603@2020-01-05', '603@2021-03-04', '949@2018-07-01']);
    await expect.poll(() => outboxLength(page)).toBe(0);
    await expect
      .poll(() => serverRatings(page, request), { timeout: 15_000 })
      .toEqual(['348=9@2019-11-02', '496243=8@2020-02-10', '603=10@2021-03-04', '949=9@2018-07-01']);
    // The title page shows the rating.
    await page.goto('/media/tmdb-movie-348-alien');
    await expect(page.getByRole('slider', { name: 'Your rating' })).toHaveAttribute(
      'aria-valuetext',
      '4.5 out of 5 stars',
    );

    // The history shows them on their own days; My List has the watchlist's film.
    await page.goto('/history');
    await expect(page.getByTestId('history-entry')).toHaveCount(5);
    await expect(page.getByRole('heading', { name: /October 31, 2019/, level: 2 })).toBeVisible();
    await page.goto('/mylist');
    await expect(page.getByText('Inception')).toBeVisible();

    // The phone hears of it live: its history page fills without a reload.
    await expect(phone.getByTestId('history-entry')).toHaveCount(5, { timeout: 20_000 });
    await expect(phone.getByRole('heading', { name: /March 4, 2021/, level: 2 })).toBeVisible();

    // Export everything, and import the backup again: nothing new.
    await page.goto('/import');
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download a backup (JSON)' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^marquee-backup-\d{4}-\d{2}-\d{2}\.json$/);
    const backup = await readFile((await download.path())!);
    await upload(page, download.suggestedFilename(), 'application/json', backup);
    await expect(review.getByTestId('import-nothing-new')).toHaveText(
      'Nothing new: everything in this file is already in your library.',
    );
    await expect(page.getByTestId('import-confirm')).toBeDisabled();
    expect(await serverPlays(page, request)).toHaveLength(5);
    expect(await serverRatings(page, request)).toHaveLength(4);
    await other.close();
  });

  test('a file with a formula in a cell is refused whole, with words, signed out too', async ({ page }) => {
    await page.goto('/import');
    await expect(page.getByText('You are not signed in')).toBeVisible();
    const hostile = [
      'Date,Name,Year,Letterboxd URI',
      '2022-02-02,"=HYPERLINK(""http://x"")",2010,https://boxd.it/a5',
    ].join('\n');
    await page.getByTestId('import-file-input').setInputFiles({
      name: 'watchlist.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(hostile),
    });
    const alert = page.getByRole('alert');
    await expect(alert).toContainText('A cell holds a spreadsheet formula');
    await expect(alert).toContainText('Nothing was imported.');
    await page.goto('/mylist');
    await expect(page.getByText('My List is empty.', { exact: false })).toBeVisible();
  });
});

test.describe('named lists', () => {
  test.use({ baseURL: discovery });
  test('a list made on a title page is on the other device’s My List and on the server as p-stream’s group; deleted there, gone here', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(120_000);
    const passphrase = await registerAccount(page, 'Laptop');
    await page.goto('/media/tmdb-movie-348-alien');
    await page.getByTestId('lists-button').click();
    await page.getByLabel('New list name').fill('Halloween');
    await page.getByRole('button', { name: 'Create list' }).click();
    await expect(page.getByRole('checkbox', { name: 'Halloween' })).toBeChecked();
    await expect(page.getByTestId('lists-button')).toHaveText(/On 1 list/);
    await expect.poll(() => outboxLength(page)).toBe(0);

    // The server keeps it as p-stream keeps it: the bookmark's group, and the group order.
    const account = await storedAccount(page);
    const auth = { authorization: `Bearer ${account.token}` };
    const bookmarks = (await (
      await request.get(`/users/${account.userId}/bookmarks`, { headers: auth })
    ).json()) as {
      tmdbId: string;
      group: string[];
    }[];
    expect(bookmarks.map((b) => [b.tmdbId, b.group])).toEqual([['348', ['Halloween']]]);
    const order = (await (
      await request.get(`/users/${account.userId}/group-order`, { headers: auth })
    ).json()) as {
      groupOrder: string[];
    };
    expect(order.groupOrder).toEqual(['Halloween']);

    const other = await browser.newContext();
    const phone = await other.newPage();
    await login(phone, passphrase, 'Phone');
    await phone.goto('/mylist');
    const list = phone.getByTestId('named-list');
    await expect(list).toHaveCount(1);
    await expect(list).toContainText('Halloween');
    await expect(list).toContainText('Alien');

    // Deleted on the phone: the laptop's My List follows live; the title stays on My List.
    await page.goto('/mylist');
    await expect(page.getByTestId('named-list')).toHaveCount(1);
    await phone.getByRole('button', { name: 'Delete Halloween' }).click();
    await phone.getByRole('button', { name: 'Delete list' }).click();
    await expect(phone.getByTestId('named-list')).toHaveCount(0);
    await expect(page.getByTestId('named-list')).toHaveCount(0, { timeout: 20_000 });
    await expect(page.getByTestId('bookmarks-section')).toContainText('Alien');
    await other.close();
  });
});
