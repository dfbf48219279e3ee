import { expect, test } from '@playwright/test';
import { networkQuiet } from './support/network.ts';

test.describe('search and title pages', () => {
  test('search finds a title and its page shows the metadata', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('greeting')).toBeVisible();
    // Signed out: a Sign in button, no search in the header, no My List.
    await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'My List' })).toHaveCount(0);

    await page.keyboard.press('/');
    await expect(page.getByRole('searchbox')).toBeFocused();
    await page.keyboard.type('the matrix');
    await expect(page).toHaveURL(/\/browse\/the%20matrix$/);
    const first = page.getByTestId('media-card').first();
    await expect(first).toContainText('The Matrix');
    await first.click();

    await expect(page).toHaveURL(/\/media\/tmdb-movie-603-the-matrix$/);
    await expect(page.getByRole('heading', { level: 1, name: 'The Matrix' })).toBeVisible();
    await expect(page.getByTestId('media-page')).toContainText('1999');
    await expect(page).toHaveTitle('The Matrix - Marquee');
  });

  test('accent- and punctuation-insensitive search, empty and cleared queries', async ({ page }) => {
    await page.goto('/browse/spiderman');
    await expect(page.getByTestId('media-card').first()).toContainText(/Spider-Man/);

    await page.goto('/browse/qwxzqwxzqwxz');
    await expect(page.getByText("We couldn't find anything")).toBeVisible();

    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('a failing search shows the failed message', async ({ page }) => {
    await page.route('**/api/search?**', (route) =>
      route.fulfill({
        status: 503,
        json: { errorType: 'message', code: 'metadata_unavailable', message: 'down' },
      }),
    );
    await page.goto('/browse/alien');
    await expect(page.getByText('Failed to find media, try again!')).toBeVisible();
  });

  test('a show lists its seasons and episodes; unaired episodes are disabled', async ({ page }) => {
    await page.goto('/media/tmdb-tv-1396-breaking-bad');
    await expect(page.getByRole('heading', { level: 1, name: 'Breaking Bad' })).toBeVisible();
    const episodes = page.getByTestId('episode');
    await expect(episodes.first()).toContainText('E1');
    await page.getByTestId('season-select').selectOption({ label: 'Season 2' });
    await expect(episodes).toHaveCount(13);
    await episodes.nth(1).click();
    await expect(page).toHaveURL(/\/media\/tmdb-tv-1396-breaking-bad\/\d+\/\d+$/);
    await expect(page.locator('[data-testid="episode"][aria-current="true"]')).toContainText('E2');
  });

  test('episodes that have not aired yet are shown but not playable', async ({ page }) => {
    // Vision Quest season 1: six episodes aired by 21 November 2026, two after.
    await page.goto('/media/tmdb-tv-213375-vision-quest?now=2026-11-21T12:00:00Z');
    const episodes = page.getByTestId('episode');
    await expect(episodes).toHaveCount(8);
    await expect(page.locator('[data-testid="episode"][data-unaired="true"]')).toHaveCount(2);
    await expect(page.locator('[data-testid="episode"][data-unaired="true"]').first()).toHaveAttribute(
      'aria-disabled',
      'true',
    );
    await expect(page.locator('a[data-testid="episode"]')).toHaveCount(6);
  });

  test('unknown media and a failing metadata service have their own errors', async ({ page }) => {
    await page.goto('/media/tmdb-movie-999999999-nothing');
    await expect(page.getByText("Couldn't find that media")).toBeVisible();
    await page.goto('/media/not-a-key');
    await expect(page.getByText("Couldn't find that media")).toBeVisible();
    await page.route('**/api/media/**', (route) =>
      route.fulfill({
        status: 503,
        json: { errorType: 'message', code: 'metadata_unavailable', message: 'down' },
      }),
    );
    await page.goto('/media/tmdb-movie-603-the-matrix');
    await expect(page.getByText('Failed to load metadata')).toBeVisible();
  });
});

test.describe('discover', () => {
  test('movie and show carousels load with 20 items and arrows scroll them', async ({ page }) => {
    await page.goto('/discover');
    await expect(page.getByRole('heading', { name: 'In Cinemas' })).toBeVisible();
    // 3 movie lists + 4 movie genres + 2 show lists + 6 show genres.
    await expect(page.getByTestId('carousel')).toHaveCount(15);
    const popular = page
      .getByTestId('carousel')
      .filter({ has: page.getByRole('heading', { name: 'Most Popular Movies' }) });
    // Rows render their cards as they come near the viewport.
    await popular.scrollIntoViewIfNeeded();
    await expect(popular.getByTestId('media-card')).toHaveCount(20);
    const row = popular.getByTestId('carousel-items');
    expect(await row.evaluate((el) => el.scrollLeft)).toBe(0);
    await popular.getByTestId('carousel-next').click();
    await expect.poll(() => row.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0);
    // Cards are 200 px wide on a wide viewport.
    expect(Math.round((await popular.getByTestId('media-card').first().boundingBox())!.width)).toBe(200);
  });

  test('rows far below render only their heading and a placeholder of their height; nothing shifts as rows load', async ({
    page,
  }) => {
    await page.setViewportSize({ width: 412, height: 823 });
    await page.addInitScript(() => {
      (window as unknown as { __cls: number }).__cls = 0;
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[])
          if (!e.hadRecentInput) (window as unknown as { __cls: number }).__cls += e.value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const lists: string[] = [];
    page.on(
      'request',
      (r) => /\/api\/(lists|discover)\//.test(r.url()) && lists.push(new URL(r.url()).pathname),
    );
    await page.goto('/discover');
    const rows = page.getByTestId('carousel');
    await expect(rows.first().getByTestId('media-card').first()).toBeVisible();
    await expect(rows).toHaveCount(15);
    // The first poster is the page's largest paint: it loads at once, with priority; far ones lazily.
    await expect(rows.first().locator('img').first()).toHaveAttribute('fetchpriority', 'high');
    await expect(rows.first().locator('img').first()).toHaveAttribute('loading', 'eager');
    // A list row far down (genre rows are random, and a genre may have no titles here).
    const last = rows.filter({ has: page.getByRole('heading', { name: 'Most Popular Shows' }) });
    await expect(last).toHaveAttribute('data-near', 'false');
    await expect(last.getByRole('heading')).toBeVisible();
    await expect(last.getByTestId('media-card')).toHaveCount(0);
    await expect(last.getByTestId('carousel-placeholder')).toHaveCount(1);
    expect(lists.some((p) => p.startsWith('/api/lists/tv/popular'))).toBe(false);
    // Loaded rows kept the height their placeholders reserved (measured once every poster has arrived).
    await networkQuiet(page);
    expect(await page.evaluate(() => (window as unknown as { __cls: number }).__cls)).toBeLessThan(0.02);

    const height = (await last.boundingBox())!.height;
    await last.scrollIntoViewIfNeeded();
    await expect(last.getByTestId('media-card').first()).toBeVisible();
    expect(Math.round((await last.boundingBox())!.height)).toBe(Math.round(height));
    expect(lists.some((p) => p.startsWith('/api/lists/tv/popular'))).toBe(true);
  });

  test('a watched movie leaves Discover once the viewer hides watched movies, and comes back', async ({
    page,
  }) => {
    await page.goto('/discover');
    const popular = page
      .getByTestId('carousel')
      .filter({ has: page.getByRole('heading', { name: 'Most Popular Movies' }) });
    await popular.scrollIntoViewIfNeeded();
    await expect(popular.getByTestId('media-card')).toHaveCount(20);
    // Marked watched from its card's menu.
    const first = popular.getByTestId('media-card').first();
    const href = (await first.getAttribute('href'))!;
    const card = popular.locator(`a[href="${href}"]`);
    /** Settings → Hide watched movies in Discover, switched and saved; then back to Discover's row. */
    const toggleHideWatched = async () => {
      await page.goto('/settings');
      await page.getByRole('switch', { name: 'Hide watched movies in Discover' }).click();
      await page.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByTestId('save-bar')).toHaveCount(0);
      await page.goto('/discover');
      await popular.scrollIntoViewIfNeeded();
    };
    await first.hover();
    await popular
      .locator('[data-card]')
      .first()
      .getByRole('button', { name: /^More options for / })
      .click();
    await page.getByTestId('card-watched-toggle').click();
    await expect(card.getByText('Watched', { exact: true })).toBeVisible();

    await toggleHideWatched();
    await expect(popular.getByTestId('media-card').first()).toBeVisible();
    await expect(card).toHaveCount(0);

    // Shown again: back in its row.
    await toggleHideWatched();
    await expect(card).toHaveCount(1);
  });

  test('keyboard focus reaches rows not rendered yet', async ({ page }) => {
    await page.goto('/discover');
    const rows = page.getByTestId('carousel');
    await expect(rows.first().getByTestId('media-card').first()).toBeVisible();
    const last = rows.filter({ has: page.getByRole('heading', { name: 'Most Popular Shows' }) });
    await expect(last).toHaveAttribute('data-near', 'false');
    // Its arrow buttons are reachable; focusing one shows the row's cards.
    await last.getByTestId('carousel-next').focus();
    await expect(last.getByTestId('media-card').first()).toBeVisible();
  });

  test('cards are 150 px wide under 600 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto('/discover');
    const card = page.getByTestId('carousel').first().getByTestId('media-card').first();
    await expect(card).toBeVisible();
    expect(Math.round((await card.boundingBox())!.width)).toBe(150);
  });

  test('Watch Something New counts down from 5 and can be cancelled, then opens a movie', async ({
    page,
  }) => {
    await page.clock.install();
    await page.goto('/discover');
    const button = page.getByTestId('watch-something-new');
    await expect(button).toBeEnabled();
    await button.click();
    await expect(button).toContainText(/Now Playing .+ in 5/);
    await page.clock.runFor(1000);
    await expect(button).toContainText(/in 4$/);
    await button.click();
    await expect(button).toHaveText('Watch Something New');
    await page.clock.runFor(6000);
    await expect(page).toHaveURL(/\/discover$/);

    await button.click();
    await page.clock.runFor(5000);
    await expect(page).toHaveURL(/\/media\/tmdb-movie-\d+/);
  });
});

test.describe('app shell', () => {
  test("the browser's offline event shows the banner at once, not at the next ping", async ({
    page,
    context,
  }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByTestId('greeting')).toBeVisible();
    await context.setOffline(true);
    // No clock time passes: the event alone shows it.
    await expect(page.getByTestId('offline-banner')).toBeVisible();
    await context.setOffline(false);
    // Back online, it pings at once; a success hides the banner.
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  });

  test('offline banner appears when the ping fails and goes after it succeeds', async ({ page }) => {
    await page.clock.install();
    await page.goto('/');
    await expect(page.getByTestId('greeting')).toBeVisible();
    await page.route('**/ping.txt', (route) => route.abort('internetdisconnected'));
    // While online only every 10th 5-second tick pings.
    await page.clock.runFor(45_000);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);
    await page.clock.runFor(5_000);
    await expect(page.getByTestId('offline-banner')).toHaveText(
      'Check your internet connection, silly goose!',
    );
    await page.unroute('**/ping.txt');
    // While offline every tick pings, and one success is enough.
    await page.clock.runFor(5_000);
    await expect(page.getByTestId('offline-banner')).toHaveCount(0);
  });

  test('not-found page with its two buttons', async ({ page }) => {
    await page.goto('/this/does/not/exist');
    await expect(page.getByRole('heading', { name: "Couldn't find that page" })).toBeVisible();
    await page.getByRole('link', { name: 'Back to home' }).click();
    await expect(page).toHaveURL(/\/$/);
  });

  test('legacy routes redirect', async ({ page }) => {
    await page.goto('/search/movie/inception');
    await expect(page).toHaveURL(/\/browse\/inception$/);
    await page.goto('/search/movie');
    await expect(page).toHaveURL(/\/browse$|\/$/);
    await page.goto('/media/tmdb-show-1396-breaking-bad');
    // … to the show's page; its Play opens the first episode.
    await expect(page).toHaveURL(/\/media\/tmdb-tv-1396-breaking-bad$/);
    await page.getByTestId('title-play').click();
    await expect(page).toHaveURL(/\/media\/tmdb-tv-1396-breaking-bad\/\d+\/\d+$/);
    await page.goto('/s/inception');
    await expect(page).toHaveURL(/\/media\/tmdb-movie-27205-inception$/);
    await page.goto('/s/qwxzqwxzqwxz');
    await expect(page).toHaveURL(/\/$/);
    // Old JustWatch keys need the legacy lookup, which this offline instance cannot reach.
    await page.goto('/media/JW-movie-12345');
    await expect(page.getByText('Failed to load API metadata')).toBeVisible();
    await page.route('**/api/legacy/justwatch/movie/777?**', (route) =>
      route.fulfill({
        json: {
          id: '603',
          type: 'movie',
          title: 'The Matrix',
          year: 1999,
          releaseDate: '1999-03-31',
          poster: null,
        },
      }),
    );
    await page.goto('/media/JW-movie-777');
    await expect(page).toHaveURL(/\/media\/tmdb-movie-603-the-matrix$/);
  });

  test('about, support, credits and DMCA pages', async ({ page }) => {
    await page.goto('/about');
    await expect(page.getByTestId('faq').locator('details')).toHaveCount(5);
    await page.getByRole('link', { name: 'Support' }).first().click();
    await expect(page).toHaveURL(/\/support$/);
    await page.goto('/jip');
    await expect(page.getByTestId('tmdb-attribution')).toContainText(
      'This product uses the TMDB API but is not endorsed or certified by TMDB.',
    );
    await page.goto('/dmca');
    await expect(page.getByRole('heading', { name: 'DMCA' })).toBeVisible();
  });

  test('teal theme on 20 April, and the special greeting', async ({ page }) => {
    await page.goto('/?now=2026-04-20T10:00:00');
    await expect(page.locator('body')).toHaveClass(/theme-teal/);
    await expect(page.getByTestId('greeting')).toHaveText(/4\/20/);
    await page.goto('/?now=2026-04-21T10:00:00');
    await expect(page.locator('body')).not.toHaveClass(/theme-teal/);
    await expect(page.getByTestId('greeting')).not.toHaveText(/4\/20/);
  });

  test('a render error shows the error page with details and copy', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.route('**/api/config', (route) => route.fulfill({ status: 200, json: {} }));
    await page.addInitScript(() => {
      // A config missing its fields makes the header crash while rendering.
      Object.defineProperty(window, '__MARQUEE_CONFIG__', {
        value: { appVersion: 'x', links: null },
        writable: false,
      });
    });
    await page.goto('/support');
    await expect(page.getByRole('heading', { name: 'We encountered an error!' })).toBeVisible();
    await page.getByRole('button', { name: 'Show error details' }).click();
    await expect(page.getByTestId('error-details')).toBeVisible();
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  });
});
