/**
 * Takes the README's screenshots (docs/screenshots/) from the production build: home, Discover, a
 * title, the player with its controls shown, settings, the landing page and the subscription page, on a
 * phone (390×844) and a laptop (1280×800), in the default theme and in English; and home, a title and
 * the player in TV mode (a TV's browser at 1920×1080, driven by its arrows: docs/decisions/114-tv-mode.md).
 *
 *   npm run build && node --import tsx scripts/screenshots.ts [--tv]   (--tv: the TV's only)
 *
 * Two servers start on free ports with their own data folders (the discovery site, and the
 * subscription site with simulated payments); nothing outside this machine is reached. Debian's
 * Chromium (CHROMIUM_PATH, default /usr/bin/chromium).
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ROOT, startServer, type RunningServer } from '../bench/support/server.ts';

const OUT = path.join(ROOT, 'docs/screenshots');
const SIZES = [
  { name: '390', viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
  { name: '1280', viewport: { width: 1280, height: 800 }, isMobile: false, hasTouch: false },
] as const;
/** A TV's browser: Samsung's user agent turns TV mode on by itself. */
const TV = {
  name: 'tv',
  viewport: { width: 1920, height: 1080 },
  isMobile: false,
  hasTouch: false,
  userAgent:
    'Mozilla/5.0 (SMART-TV; LINUX; Tizen 7.0) AppleWebKit/537.36 (KHTML, like Gecko) 94.0.4606.31/7.0 TV Safari/537.36',
} as const;
type Size = (typeof SIZES)[number] | typeof TV;

const MATRIX = '/media/tmdb-movie-603-the-matrix';
const INCEPTION = '/media/tmdb-movie-27205-inception';

/** Posters and fonts are in: every image in view has finished (loaded or failed). */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('load');
  await page.waitForFunction(
    () =>
      [...document.images].every((img) => {
        const r = img.getBoundingClientRect();
        const inView = r.bottom > 0 && r.top < innerHeight && r.right > 0 && r.left < innerWidth;
        return img.complete || !inView;
      }),
    undefined,
    { timeout: 15_000 },
  );
  await page.evaluate(() => document.fonts.ready);
}

async function shoot(page: Page, name: string, size: Size, fullPage = false): Promise<void> {
  if (fullPage) {
    // Lazy images below the fold load as they come into view.
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    for (let y = 0; y < height; y += 600) {
      await page.evaluate((top) => scrollTo(0, top), y);
      await settle(page);
    }
    await page.evaluate(() => scrollTo(0, 0));
  }
  await settle(page);
  const file = path.join(OUT, `${name}-${size.name}.png`);
  await page.screenshot({ path: file, fullPage });
  console.log(`wrote ${path.relative(ROOT, file)}`);
}

/** A discovery-site account made through the register flow, with a list and something to resume. */
async function signedInDiscovery(
  browser: Browser,
  server: RunningServer,
  size: Size,
): Promise<BrowserContext> {
  const context = await browser.newContext({ ...size, baseURL: server.url, serviceWorkers: 'block' });
  const page = await context.newPage();
  await page.goto('/register');
  await page.getByRole('button', { name: 'I trust this server' }).click();
  const words = await page.getByTestId('passphrase-word').allTextContents();
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Device name').fill(size.name === 'tv' ? 'TV' : size.isMobile ? 'Phone' : 'Laptop');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('12-word passphrase').fill(words.join(' '));
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByTestId('account-menu-button').waitFor();
  const account = await page.evaluate(
    () =>
      JSON.parse(localStorage.getItem('marquee:account')!).state.account as { token: string; userId: string },
  );
  const headers = { authorization: `Bearer ${account.token}` };
  // What a client saves: the poster the metadata gave it.
  const poster = (kind: 'movie' | 'tv', id: string) => `/api/images/w342/catalog/${kind}-${id}.svg`;
  const bookmarks = [
    {
      tmdbId: '27205',
      meta: { title: 'Inception', year: 2010, type: 'movie', poster: poster('movie', '27205') },
    },
    {
      tmdbId: '1399',
      meta: { title: 'Game of Thrones', year: 2011, type: 'show', poster: poster('tv', '1399') },
    },
    {
      tmdbId: '155',
      meta: { title: 'The Dark Knight', year: 2008, type: 'movie', poster: poster('movie', '155') },
    },
    {
      tmdbId: '157336',
      meta: { title: 'Interstellar', year: 2014, type: 'movie', poster: poster('movie', '157336') },
    },
  ];
  await page.request.put(`/users/${account.userId}/bookmarks`, { headers, data: bookmarks });
  const progress = [
    {
      tmdbId: '550',
      meta: { title: 'Fight Club', year: 1999, type: 'movie', poster: poster('movie', '550') },
      watched: 2900,
      duration: 8340,
    },
    {
      tmdbId: '1396',
      meta: { title: 'Breaking Bad', year: 2008, type: 'show', poster: poster('tv', '1396') },
      watched: 700,
      duration: 2900,
      seasonId: '3572',
      episodeId: '62087',
      seasonNumber: 1,
      episodeNumber: 3,
    },
  ];
  for (const item of progress)
    await page.request.put(`/users/${account.userId}/progress/${item.tmdbId}`, { headers, data: item });
  await page.close();
  return context;
}

async function discoverySite(browser: Browser, server: RunningServer): Promise<void> {
  for (const size of SIZES) {
    const context = await signedInDiscovery(browser, server, size);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('media-card').first().waitFor();
    await page.getByText('Breaking Bad').first().waitFor();
    await shoot(page, 'home', size);

    await page.goto('/discover');
    await page.getByTestId('media-card').first().waitFor();
    await shoot(page, 'discover', size);

    await page.goto(INCEPTION);
    await page.getByRole('heading', { level: 1, name: 'Inception' }).waitFor();
    // On a laptop the player is on top: shown once it found its source (it waits for Play).
    if (!size.isMobile)
      await page.locator('[data-testid="player"][data-status="playing"]').waitFor({ timeout: 30_000 });
    await shoot(page, 'title', size, true);

    // The player: started, paused a few seconds in, controls shown.
    await page.goto(MATRIX);
    const titlePlay = page.getByTestId('title-play');
    const player = page.getByTestId('player');
    await player.or(titlePlay).first().waitFor();
    if (await titlePlay.isVisible()) await titlePlay.click();
    await page.locator('[data-testid="player"][data-status="playing"]').waitFor({ timeout: 30_000 });
    const big = page.getByTestId('big-play');
    if (await big.isVisible()) await big.click();
    await page.waitForFunction(() => document.querySelector('video')!.currentTime > 3, undefined, {
      timeout: 30_000,
    });
    await page.keyboard.press('k');
    const box = (await player.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width / 2 + 5, box.y + box.height / 2 + 5);
    await page.getByTestId('player-controls').waitFor();
    await shoot(page, 'player', size);
    if (size.isMobile) {
      // What does not fit in a phone's bar heads the settings menu: every control stays within reach.
      await page.getByTestId('open-settings').click();
      await page.getByTestId('settings-menu').waitFor();
      await shoot(page, 'player-menu', size);
    }

    await page.goto('/settings');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await shoot(page, 'settings', size);
    await context.close();
  }
}

/** Home, a title and the player on a TV, where the remote's arrows left focus. */
async function tvScreens(browser: Browser, server: RunningServer): Promise<void> {
  const context = await signedInDiscovery(browser, server, TV);
  const page = await context.newPage();
  const press = async (key: string) => {
    await page.keyboard.press(key);
    await page.waitForFunction(() => document.activeElement !== document.body);
  };
  await page.goto('/');
  await page.getByText('Breaking Bad').first().waitFor();
  // The app opens with focus on its first control; Down to Continue Watching's first card.
  await page.waitForFunction(() => document.activeElement !== document.body);
  await press('ArrowDown');
  await page.waitForFunction(() => document.activeElement?.closest('[data-testid="media-card"]') !== null);
  await shoot(page, 'home', TV);

  await page.goto(MATRIX);
  await page.getByTestId('title-play').waitFor();
  await page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'title-play');
  await shoot(page, 'title', TV);

  // OK on Play; the player takes focus; Down shows its controls with focus on play/pause.
  await press('Enter');
  await page.locator('[data-testid="player"][data-status="playing"]').waitFor({ timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('video')!.currentTime > 3, undefined, {
    timeout: 30_000,
  });
  await press('Enter');
  await press('ArrowDown');
  await page.getByTestId('player-controls').waitFor();
  await shoot(page, 'player', TV);
  await context.close();
}

async function subscriptionSite(browser: Browser, server: RunningServer): Promise<void> {
  const email = `viewer-${Date.now().toString(36)}@marquee.test`;
  const password = 'correct horse battery';
  const created = await fetch(`${server.url}/customers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ fullname: 'Alex Martin', email, password }),
  });
  if (!created.ok) throw new Error(`could not make the subscription account: ${created.status}`);
  for (const size of SIZES) {
    const context = await browser.newContext({ ...size, baseURL: server.url, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByTestId('landing').waitFor();
    await page.getByTestId('plan-banner').waitFor();
    await shoot(page, 'landing', size);

    await page.goto('/login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page
      .getByRole('button', { name: /sign in|login/i })
      .last()
      .click();
    await page.getByTestId('profile-tile').first().click();
    await page.getByTestId('greeting').waitFor();
    await page.goto('/subscription');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.getByTestId('plan-option').first().waitFor();
    await shoot(page, 'subscription', size);
    await context.close();
  }
}

mkdirSync(OUT, { recursive: true });
const discovery = await startServer();
const subscription = await startServer({
  VARIANT: 'subscription',
  AUTH_METHODS: 'email',
  PAYMENT_GATEWAY: 'simulated',
  ALLOW_SIMULATED_PAYMENTS: 'true',
  FREE_MOVIE_TMDB_ID: '603',
});
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
});
try {
  if (!process.argv.includes('--tv')) {
    await discoverySite(browser, discovery);
    await subscriptionSite(browser, subscription);
  }
  await tvScreens(browser, discovery);
} finally {
  await browser.close();
  await discovery.stop();
  await subscription.stop();
}
