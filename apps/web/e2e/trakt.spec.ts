import { expect, test, type APIRequestContext } from '@playwright/test';
import { outboxLength, registerAccount } from './support/account.ts';
import { MATRIX, startPlayback } from './support/player.ts';

// The history instance links Trakt through the local Trakt (playwright.config.ts).
const discovery = `http://127.0.0.1:${process.env.E2E_HISTORY_PORT ?? 4187}`;
const control = process.env.E2E_TRAKT_CONTROL ?? 'http://127.0.0.1:4189';

interface TraktState {
  history: { tmdbId: number; type: string }[];
  scrobbles: { action: string; tmdbId: number }[];
  activeTokens: number;
}
const traktState = async (request: APIRequestContext, username: string) =>
  (await (await request.get(`${control}/state?username=${username}`)).json()) as TraktState;

/*
 * Trakt, from the viewer's side (decision 101): Settings → Link Trakt shows a code; entered at Trakt
 * (the local Trakt's control API does what the viewer does at trakt.tv), the page says it is linked;
 * playing a film tells Trakt (scrobbles); a film marked watched reaches Trakt on "Sync now"; unlinking
 * revokes the tokens at Trakt.
 */
test.describe('Trakt', () => {
  test.use({ baseURL: discovery });
  test('link by code, scrobbles while playing, a watched mark sent by Sync now, unlink', async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const username = `e2e-${Date.now()}`;
    await registerAccount(page, 'Laptop');
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Link Trakt' }).click();
    const code = page.getByTestId('trakt-code');
    await expect(code).toHaveText(/^[A-Z0-9]{8}$/);
    await expect(page.getByText('Waiting for you to enter the code at Trakt…')).toBeVisible();
    await expect(page.getByRole('link', { name: 'https://trakt.tv/activate' })).toHaveAttribute(
      'href',
      'https://trakt.tv/activate',
    );
    const approved = await request.post(`${control}/approve`, {
      data: { userCode: (await code.textContent())!.trim(), username },
    });
    expect(approved.ok()).toBe(true);
    // The page asks again at Trakt's interval (5 s).
    await expect(page.getByTestId('trakt-linked')).toHaveText(`Linked to Trakt as ${username}`, {
      timeout: 20_000,
    });

    // Playing tells Trakt; leaving the player too.
    await page.goto(MATRIX);
    await startPlayback(page);
    await expect
      .poll(async () => (await traktState(request, username)).scrobbles.map((s) => `${s.action}:${s.tmdbId}`))
      .toContain('start:603');
    await page.goto('/settings');
    await expect
      .poll(async () => (await traktState(request, username)).scrobbles.map((s) => s.action))
      .toContain('stop');

    // Watched elsewhere, marked here: on Trakt after "Sync now".
    await page.goto(MATRIX);
    await page.getByRole('button', { name: 'Mark as watched' }).click();
    await expect(page.getByTestId('title-history')).toContainText('Watched on');
    await expect.poll(() => outboxLength(page), { timeout: 15_000 }).toBe(0);
    await page.goto('/settings');
    await page.getByRole('button', { name: 'Sync now' }).click();
    await expect
      .poll(async () => (await traktState(request, username)).history.map((p) => p.tmdbId), {
        timeout: 20_000,
      })
      .toEqual([603]);
    await expect(page.getByText(/^Last synced/)).toBeVisible({ timeout: 15_000 });

    // Unlink: asked to confirm; the tokens are revoked at Trakt.
    await page.getByRole('button', { name: 'Unlink' }).click();
    const dialog = page.getByTestId('trakt-unlink-dialog');
    await expect(dialog).toBeVisible();
    await dialog.getByRole('button', { name: 'Unlink' }).click();
    await expect(page.getByRole('button', { name: 'Link Trakt' })).toBeVisible();
    expect((await traktState(request, username)).activeTokens).toBe(0);
  });
});
