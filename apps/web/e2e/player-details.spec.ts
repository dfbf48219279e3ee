import { expect, test, type Page } from '@playwright/test';
import { MATRIX, patchRuntimeConfig, player, startPlayback, videoState } from './support/player.ts';

/*
 * What viewers notice in the player (decision 112): the pause overlay and "Are you still watching?"; the
 * keys listed on screen and changed by the viewer.
 */

/** Seeks the video itself, as time passing would (no key, no pointer: the viewer is not there). */
async function timePasses(page: Page, to: number) {
  await page.evaluate((t) => {
    document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!.currentTime = t;
  }, to);
}

test.describe('player details', () => {
  test('paused and untouched, the overlay says what is playing and how long is left; a movement hides it', async ({
    page,
  }) => {
    await page.goto(`${MATRIX}?t=300`);
    await startPlayback(page);
    // Playing from 5:00 (the start position lands once the first data arrived).
    await expect.poll(async () => (await videoState(page)).time, { timeout: 20_000 }).toBeGreaterThan(300.5);
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    const overlay = page.getByTestId('pause-overlay');
    await expect(overlay).toBeVisible({ timeout: 15_000 });
    await expect(overlay).toContainText('You’re watching');
    await expect(overlay).toContainText('The Matrix');
    // The sample is 20 minutes long, paused near 5:00: about 15 minutes left.
    await expect(page.getByTestId('pause-overlay-time')).toHaveText(/^1[45] minutes left · Ends at .+$/);
    // The controls made way for it (faded out and inert).
    const hiddenControls = page.locator('[inert] [data-testid="play-pause"]');
    await expect(hiddenControls).toHaveCount(1);
    await page.mouse.move(200, 200);
    await page.mouse.move(240, 260);
    await expect(overlay).toBeHidden();
    await expect(hiddenControls).toHaveCount(0);
  });

  test('after two episodes that started on their own, the third asks "Are you still watching?" and waits', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    await patchRuntimeConfig(page, { allowAutoplay: true });
    // The viewer chooses when to be asked, in Settings.
    await page.goto('/settings');
    await page
      .getByTestId('still-watching-select')
      .selectOption({ label: 'After 2 episodes or 1 hour without input' });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Saved')).toBeVisible();

    const s1 = (await (await request.get('/api/media/tv/1396/season/1')).json()) as {
      id: string;
      episodes: { id: string; number: number }[];
    };
    const [e1, e2, e3] = s1.episodes;
    await page.goto(`/media/tmdb-tv-1396-breaking-bad/${s1.id}/${e1!.id}?t=1186`);
    await startPlayback(page);
    // Episode 2 starts on its own and plays to its end without anyone there.
    await expect(page).toHaveURL(new RegExp(`/${e2!.id}$`), { timeout: 30_000 });
    await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
    // Episode 2's own start (the element may still hold the end of episode 1 for a moment).
    await expect
      .poll(
        async () => {
          const { time } = await videoState(page);
          return time > 0.5 && time < 120;
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await expect(page.getByTestId('still-watching')).toHaveCount(0);
    await timePasses(page, 1186);
    // Episode 3 starts on its own: asked, and paused.
    await expect(page).toHaveURL(new RegExp(`/${e3!.id}$`), { timeout: 30_000 });
    const dialog = page.getByRole('alertdialog', { name: 'Are you still watching?' });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(dialog).toContainText(`S1 E${e3!.number}`);
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 20_000 }).toBe(true);
    await expect(page.getByTestId('still-watching-continue')).toBeFocused();
    // OK on a remote (Enter) answers: it plays on.
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 15_000 }).toBe(false);
  });

  test('held ? lists the keys over the video; a key changed in the panel acts, the old one no longer, after a reload too', async ({
    page,
  }) => {
    test.setTimeout(90_000);
    await page.goto(`${MATRIX}?t=300`);
    await startPlayback(page);
    // Held: the list shows over the video until it is let go.
    await page.keyboard.down('?');
    const held = page.getByTestId('shortcuts-overlay');
    await expect(held).toBeVisible();
    await expect(page.getByTestId('held-keys-mute')).toHaveText('M');
    await page.keyboard.up('?');
    await expect(held).toBeHidden();
    // Tapped: the panel, where a key is changed.
    await page.keyboard.press('?');
    await expect(page.getByTestId('shortcuts-list')).toBeVisible();
    await page.getByRole('button', { name: 'Change the key for Mute or unmute' }).click();
    await expect(page.getByTestId('shortcuts-status')).toHaveText(
      'Press a key for Mute or unmute… Esc cancels.',
    );
    await page.keyboard.press('u');
    await expect(page.getByTestId('shortcut-keys-mute')).toHaveText('U');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('shortcuts-list')).toBeHidden();

    const muted = async () => (await videoState(page)).muted;
    await page.keyboard.press('u');
    await expect.poll(muted).toBe(true);
    // M is nobody's now.
    await page.keyboard.press('m');
    await page.keyboard.press('u');
    await expect.poll(muted).toBe(false);
    // Kept on this device (and synced with the other settings when signed in).
    await page.reload();
    await startPlayback(page);
    await page.keyboard.press('u');
    await expect.poll(muted).toBe(true);
  });
});
