import { expect, test, type Locator, type Page } from '@playwright/test';
import { blockingViolations, visitAndCheck } from './support/axe.ts';
import { player, videoState, videoTime } from './support/player.ts';

/*
 * TV mode (issue 30, docs/decisions/114-tv-mode.md) as a remote drives it: a TV's browser (Samsung's
 * user agent), arrows, OK (Enter) and Back (Escape) only — no Tab, no mouse; typing is the TV's on-screen
 * keyboard. After every key focus must settle on a control that is shown: never on the page's body, never
 * on a hidden, transparent or inert one.
 */

const TV_AGENT =
  'Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36';

/** What is wrong with where focus is now, or `ok`. */
function focusProblem(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement;
    if (!el || el === document.body || el === document.documentElement) return 'focus is on the body';
    const what = el.outerHTML.slice(0, 120);
    if (el.closest('[inert], [aria-hidden="true"], [hidden]')) return `focus is in a hidden region: ${what}`;
    const box = el.getBoundingClientRect();
    if (box.width < 2 || box.height < 2) return `focus is on a control with no size: ${what}`;
    if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true }))
      return `focus is on a control nobody sees: ${what}`;
    if (box.bottom <= 0 || box.top >= innerHeight || box.right <= 0 || box.left >= innerWidth)
      return `focus is off the screen: ${what}`;
    return 'ok';
  });
}

/** Focus has come to rest on a shown control (pages load, rows scroll smoothly). */
async function settled(page: Page) {
  await expect.poll(() => focusProblem(page), { timeout: 15_000 }).toBe('ok');
}

/** A key of the remote, then focus settles. */
async function press(page: Page, key: string) {
  await page.keyboard.press(key);
  await settled(page);
}

/**
 * The arrow a viewer would press to go from what has focus towards `target`, or null once there: sideways
 * first when it is in another column (a settings menu beside its section), unless that went nowhere.
 */
function nextArrow(target: Locator, sidewaysFirst: boolean): Promise<string | null> {
  return target.evaluate((el, sidewaysFirst) => {
    const active = document.activeElement;
    if (!active || el === active || el.contains(active)) return null;
    const a = active.getBoundingClientRect();
    const b = el.getBoundingClientRect();
    const sideways = b.left + b.width / 2 > a.left + a.width / 2 ? 'ArrowRight' : 'ArrowLeft';
    const columns = b.left < a.right && a.left < b.right;
    // On a slider the sideways arrows change its value: a viewer leaves it up or down.
    const slider = active instanceof HTMLInputElement && active.type === 'range';
    if (sidewaysFirst && !columns && !slider) return sideways;
    if (b.top >= a.bottom - 1) return 'ArrowDown';
    if (b.bottom <= a.top + 1) return 'ArrowUp';
    return sideways;
  }, sidewaysFirst);
}

const focusedHtml = (page: Page) => page.evaluate(() => document.activeElement?.outerHTML ?? '');

/** Arrows, one at a time, towards `target` until it has focus (as a viewer looks and presses). */
async function arrowTo(page: Page, target: Locator, max = 40) {
  await expect(target).toHaveCount(1);
  let sidewaysFirst = true;
  for (let i = 0; i < max; i++) {
    const arrow = await nextArrow(target, sidewaysFirst);
    if (arrow === null) return;
    const before = await focusedHtml(page);
    await press(page, arrow);
    // A sideways arrow that went nowhere: up or down next.
    sidewaysFirst =
      !(arrow.endsWith('Left') || arrow.endsWith('Right')) || (await focusedHtml(page)) !== before;
  }
  expect(
    await nextArrow(target, false),
    `focus did not reach ${target.toString()} in ${max} presses`,
  ).toBeNull();
}

/** Presses OK on `target` once the arrows have taken focus there. */
async function choose(page: Page, target: Locator) {
  await arrowTo(page, target);
  await press(page, 'Enter');
}

interface Season {
  id: string;
  episodes: { id: string; number: number }[];
}

for (const [width, height] of [
  [1920, 1080],
  [1280, 720],
] as const) {
  test.describe(`TV mode at ${width}×${height}`, () => {
    test.use({ userAgent: TV_AGENT, viewport: { width, height } });

    test('from home: search, a show, an episode with captions, the next episode, and Back to home', async ({
      page,
      request,
    }) => {
      test.setTimeout(180_000);
      const s1 = (await (await request.get('/api/media/tv/1396/season/1')).json()) as Season;
      const [e1, e2] = s1.episodes;
      await page.goto('/');
      await expect(page.locator('html')).toHaveAttribute('data-tv', '');
      // Opened: focus is on the page's first control already, not on the search field (which would
      // open the TV's keyboard by itself).
      await settled(page);
      await expect(page.locator('#search-input')).not.toBeFocused();

      // Search with the TV's keyboard; OK leaves focus in the field; Down reaches the results.
      await arrowTo(page, page.locator('#search-input'));
      await page.keyboard.type('Breaking Bad');
      await press(page, 'Enter');
      await expect(page.locator('#search-input')).toBeFocused();
      const show = page.locator('main a[href="/media/tmdb-tv-1396-breaking-bad"]').first();
      await expect(show).toBeVisible({ timeout: 15_000 });
      await choose(page, show);
      await expect(page).toHaveURL(/\/media\/tmdb-tv-1396-breaking-bad$/);
      await settled(page);

      // The first episode, down the page.
      await choose(page, page.locator(`main a[href$="/${s1.id}/${e1!.id}"]`));
      await expect(page).toHaveURL(new RegExp(`/${e1!.id}$`));
      await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
      await settled(page);
      // OK plays (when the browser held autoplay back) and the video runs.
      if ((await videoState(page)).paused) await press(page, 'Enter');
      const start = await videoTime(page);
      await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThan(start + 0.5);

      // Down shows the controls with focus on play/pause; over to Captions, OK, English, OK.
      await press(page, 'ArrowDown');
      await expect(page.getByTestId('play-pause')).toBeFocused();
      await choose(page, page.getByTestId('open-captions'));
      await expect(page.getByTestId('captions-menu')).toBeVisible();
      await choose(page, page.locator('[data-testid="caption-option"][data-language="en"]'));
      await expect(page.getByTestId('captions-menu')).toHaveCount(0);
      await expect(page.getByTestId('open-captions')).toBeFocused();
      // The sample's captions say their time every ten seconds.
      await expect(page.getByTestId('caption-cue')).toHaveText(/^Marquee sample — \d\d:\d\d$/, {
        timeout: 30_000,
      });

      // Near the end (time passing, no key): Next episode takes focus; OK goes there.
      await page.evaluate(() => {
        const video = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
        video.currentTime = video.duration - 12;
      });
      await expect(page.getByTestId('next-episode-button')).toBeFocused({ timeout: 30_000 });
      await press(page, 'Enter');
      await expect(page).toHaveURL(new RegExp(`/${e2!.id}$`));
      await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
      await settled(page);

      // Back, screen after screen, to home; focus is never lost on the way.
      for (let i = 0; i < 8 && new URL(page.url()).pathname !== '/'; i++) await press(page, 'Escape');
      await expect(page).toHaveURL(/\/$/);
      await settled(page);
      // And Back on the app's first screen stays in the app.
      await press(page, 'Escape');
      await expect(page).toHaveURL(/\/$/);
    });

    test("a TV's first screens (sign in by code, My List, history) open with focus shown; Back goes home", async ({
      page,
    }) => {
      for (const path of ['/login/code', '/mylist', '/history']) {
        await page.goto(path);
        await settled(page);
        await press(page, 'Escape');
        await expect(page).toHaveURL(/\/$/);
        await settled(page);
        await expect(page.getByTestId('greeting')).toBeVisible();
        expect(await page.locator('main').evaluate((m) => m.contains(document.activeElement)), path).toBe(
          true,
        );
      }
    });

    test('every settings section by arrows and OK; selects keep their value as focus passes', async ({
      page,
    }) => {
      test.setTimeout(120_000);
      await page.goto('/settings');
      await settled(page);
      const menu = page.locator('main aside nav');
      await expect(menu.locator('a').first()).toBeVisible();
      const sections = await menu
        .locator('a')
        .evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').replace(/^.*#/, '')));
      expect(sections.length).toBeGreaterThanOrEqual(4);
      for (const id of sections) {
        await arrowTo(page, menu.locator(`a[href$="#${id}"]`), 80);
        await press(page, 'Enter');
        const section = page.locator(`section#${id}`);
        await expect(section).toBeInViewport();
        // Into the section, then down through every control it has.
        await press(page, 'ArrowRight');
        const inSection = () => section.evaluate((s) => s.contains(document.activeElement));
        expect(await inSection(), `Right from the menu reaches the ${id} section`).toBe(true);
        let visited = 0;
        while ((await inSection()) && visited < 40) {
          await press(page, 'ArrowDown');
          visited++;
        }
        expect(visited, `the ${id} section's controls`).toBeGreaterThan(0);
      }
      // Passing over the language selects changed nothing.
      await expect(page.locator('html')).toHaveAttribute('lang', 'en');
      await expect(page.locator('#settings-language')).toHaveValue('en');
    });
  });
}

test.describe('TV mode, a card’s menu', () => {
  test.use({ userAgent: TV_AGENT, viewport: { width: 1920, height: 1080 } });

  test('OK held on a card opens its menu; Back closes it onto the card; a short OK opens the card', async ({
    page,
  }) => {
    await page.goto('/browse/matrix');
    await settled(page);
    const card = page.locator('main a[href="/media/tmdb-movie-603-the-matrix"]').first();
    await arrowTo(page, card);
    // Held: the menu opens on its item, and the card is not opened.
    await page.keyboard.down('Enter');
    const item = page.getByTestId('card-watched-toggle');
    await expect(item).toBeFocused();
    await page.keyboard.up('Enter');
    await settled(page);
    await expect(page).toHaveURL(/\/browse\/matrix$/);
    await expect(item).toHaveText('Mark as watched');
    // Back closes it, and focus is on the card again.
    await press(page, 'Escape');
    await expect(page.getByTestId('card-menu')).toHaveCount(0);
    await expect(card).toBeFocused();
    await expect(page).toHaveURL(/\/browse\/matrix$/);
    // Held again, OK on its item marks the film watched; focus comes back to the card.
    await page.keyboard.down('Enter');
    await expect(item).toBeFocused();
    await page.keyboard.up('Enter');
    await press(page, 'Enter');
    await expect(page.getByTestId('card-menu')).toHaveCount(0);
    await expect(card).toBeFocused();
    await expect(card.getByText('Watched', { exact: true })).toBeVisible();
    // A short OK opens the title.
    await press(page, 'Enter');
    await expect(page).toHaveURL(/\/media\/tmdb-movie-603-the-matrix$/);
  });
});

// The styles are the same at 720p (sized from the viewport): axe once, at 1080p.
test.describe('TV mode, accessibility', () => {
  test.use({ userAgent: TV_AGENT, viewport: { width: 1920, height: 1080 } });

  test('axe finds nothing serious or critical on the screens in TV mode, the player included', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const found: string[] = [];
    for (const path of [
      '/',
      '/discover',
      '/browse/Breaking%20Bad',
      '/media/tmdb-tv-1396-breaking-bad',
      '/settings',
    ])
      found.push(...(await visitAndCheck(page, path)));
    // The player with its controls shown by the remote.
    await page.goto('/media/tmdb-movie-603-the-matrix');
    await expect(page.getByTestId('title-play')).toBeFocused();
    await press(page, 'Enter');
    await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
    await press(page, 'ArrowDown');
    await expect(page.getByTestId('play-pause')).toBeFocused();
    found.push(...(await blockingViolations(page, 'player')));
    expect(found).toEqual([]);
  });
});
