import { expect, test } from '@playwright/test';
import { login, putProgress, registerAccount, storedAccount } from './support/account.ts';
import { player, videoTime } from './support/player.ts';

// A title opens as its page (docs/architecture.md): nothing of the player, no source search, no media before
// Play, on a laptop as on a phone. A show the viewer is watching on another device resumes where they
// are: its page says "Resume S2 E4", lists the episode's progress, and Play starts there.

const SHOW = '/media/tmdb-tv-1396-breaking-bad';

// The library instance: it registers few accounts, so this one does not spend the registration limit
// the other specs share on the main instance.
test.use({ baseURL: `http://127.0.0.1:${Number(process.env.E2E_LIBRARY_PORT ?? 4185)}` });

test('a show watched to 5:00 of S2E4 on a phone: on the laptop its page says Resume S2 E4, shows the progress, loads no media before Play, and Play resumes there', async ({
  page,
  browser,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const passphrase = await registerAccount(page, 'Laptop');

  // The phone, signed in to the same account, watched S2E4 to 5:00 (saved as the phone's player does).
  const phoneContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const phone = await phoneContext.newPage();
    await login(phone, passphrase, 'Phone');
    const season2 = (await (await request.get('/api/media/tv/1396/season/2')).json()) as {
      id: string;
      episodes: { id: string; number: number }[];
    };
    const episode4 = season2.episodes.find((e) => e.number === 4)!;
    const saved = await putProgress(request, await storedAccount(phone), '1396', {
      meta: { title: 'Breaking Bad', year: 2008, type: 'show' },
      watched: 300,
      duration: 2820,
      seasonId: season2.id,
      episodeId: episode4.id,
      seasonNumber: 2,
      episodeNumber: 4,
    });
    expect(saved.ok()).toBe(true);

    // The laptop: the show's page, and what it asks for.
    const media: string[] = [];
    page.on('request', (r) => {
      const { pathname } = new URL(r.url());
      if (pathname.startsWith('/api/sources/') || pathname.startsWith('/scrape')) media.push(pathname);
    });
    await page.goto(SHOW);
    const play = page.getByTestId('title-play');
    await expect(play).toHaveText('Resume S2 E4', { timeout: 20_000 });
    await expect(page.getByTestId('season-select')).toHaveValue(season2.id);
    const row = page.getByTestId('episode').filter({ has: page.getByTestId('watched-bar') });
    await expect(row).toHaveCount(1);
    await expect(row.locator('span.font-mono')).toHaveText('E4');
    await expect(row.getByTestId('watched-bar')).toHaveAttribute('aria-valuenow', '11');
    await expect(player(page)).toHaveCount(0);
    expect(media).toEqual([]);

    await play.click();
    await expect(page).toHaveURL(new RegExp(`${SHOW}/${season2.id}/${episode4.id}$`));
    await expect(page.getByTestId('player-title')).toContainText('S2 E4');
    await expect.poll(() => videoTime(page), { timeout: 20_000 }).toBeGreaterThanOrEqual(299);
    expect(await videoTime(page)).toBeLessThan(310);
    expect(media.length).toBeGreaterThan(0);
  } finally {
    await phoneContext.close();
  }
});
