import { expect, test, type Browser, type Page } from '@playwright/test';
import { registerAccount } from './support/account.ts';
import { openSettings, player, videoState } from './support/player.ts';

/*
 * Watch parties (decision 110) on two server processes behind nginx, on PostgreSQL + Redis
 * (deploy/test/party-topology.ts, started by playwright.config.ts): the host's browser is on server A,
 * the guest's phone on server B. Drift is read from each player's party panel (`data-drift-ms`: its
 * distance from the room's position on the server's clock).
 */

const A = `http://127.0.0.1:${process.env.E2E_PARTY_A_PORT ?? 4193}`;
const B = `http://127.0.0.1:${process.env.E2E_PARTY_B_PORT ?? 4194}`;
const CONTROL = `http://127.0.0.1:${process.env.E2E_PARTY_CONTROL_PORT ?? 4195}`;
const INCEPTION = '/media/tmdb-movie-27205-inception';

const panel = (page: Page) => page.getByTestId('party-panel');
const members = (page: Page) => page.getByTestId('party-member');

async function drift(page: Page): Promise<number | null> {
  const value = await panel(page).getAttribute('data-drift-ms');
  return value === null ? null : Number(value);
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
};

/** Both players' distances from the room, sampled while `seconds` of the film play. */
async function sampleDrift(host: Page, guest: Page, seconds: number): Promise<number[]> {
  const samples: number[] = [];
  const start = (await videoState(host)).time;
  await expect
    .poll(
      async () => {
        for (const page of [host, guest]) {
          const ms = await drift(page);
          if (ms !== null) samples.push(Math.abs(ms));
        }
        return (await videoState(host)).time - start;
      },
      { timeout: (seconds + 30) * 1000, intervals: [250] },
    )
    .toBeGreaterThanOrEqual(seconds);
  return samples;
}

/** Both players play, within 300 ms of each other's position as the room places them. */
async function bothPlaying(host: Page, guest: Page): Promise<void> {
  for (const page of [host, guest])
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 15_000 }).toBe(false);
}

async function bothPausedNear(host: Page, guest: Page): Promise<void> {
  for (const page of [host, guest])
    await expect.poll(async () => (await videoState(page)).paused, { timeout: 5_000 }).toBe(true);
  await expect
    .poll(async () => Math.abs((await videoState(host)).time - (await videoState(guest)).time), {
      timeout: 5_000,
    })
    .toBeLessThan(0.3);
}

async function newPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  isMobile = false,
) {
  const context = await browser.newContext({ baseURL, viewport, isMobile, hasTouch: isMobile });
  return context.newPage();
}

test.describe('watch parties across two server processes', () => {
  test('join by link, play, pause, seek and chat from either side; drift stays small; a restart does not end it', async ({
    browser,
  }) => {
    test.setTimeout(240_000);
    const host = await newPage(browser, A, { width: 1280, height: 800 });
    await registerAccount(host, 'Living room');
    await host.goto(INCEPTION);
    await host.getByTestId('title-play').click();
    await expect(player(host)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
    // Playing for a moment: the player has settled (its first moments may rewrite the address).
    await expect.poll(async () => (await videoState(host)).time, { timeout: 15_000 }).toBeGreaterThan(1);
    await openSettings(host);
    await host.getByTestId('menu-party').click();
    await host.getByTestId('party-name').fill('Ana');
    await host.getByTestId('party-start').click();
    await expect(panel(host)).toBeVisible();
    await expect(members(host)).toHaveText(['Ana · you · host']);
    await host.getByText('Invite friends').click();
    const invite = await host.getByTestId('party-invite-link').inputValue();
    expect(invite).toMatch(new RegExp(`^${A}/party/[A-Za-z0-9_-]{22}$`));

    // The guest opens the link on a phone, through the other server, signed out, with a name.
    const guest = await newPage(browser, B, { width: 390, height: 844 }, true);
    await guest.goto(invite.replace(A, B));
    await expect(guest.getByRole('heading', { name: 'Join the watch party' })).toBeVisible();
    await guest.getByLabel('Your name in the party').fill('Ben');
    await guest.getByTestId('party-join').click();
    await expect(guest).toHaveURL(/\/media\/tmdb-movie-27205-inception\?party=/);
    // The player's code and the title load first.
    await expect(members(guest)).toHaveCount(2, { timeout: 20_000 });
    await expect(members(host)).toHaveCount(2);
    // On a phone the party sits under the video.
    const video = await player(guest).boundingBox();
    const chat = await panel(guest).boundingBox();
    expect(chat!.y).toBeGreaterThanOrEqual(video!.y + video!.height - 1);

    // The host was playing when the party started: the guest's player joins in, in step.
    await expect(player(guest)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
    await bothPlaying(host, guest);
    const playing = await sampleDrift(host, guest, 30);
    const p95Play = percentile(playing.slice(Math.floor(playing.length / 3)), 95);

    // The guest pauses: the host's player stops at the same frame.
    await guest.keyboard.press('k');
    await bothPausedNear(host, guest);
    // The guest seeks ahead 10 s and plays: the host follows.
    const before = (await videoState(guest)).time;
    await guest.keyboard.press('l');
    await expect
      .poll(async () => (await videoState(host)).time, { timeout: 5_000 })
      .toBeGreaterThan(before + 8);
    await guest.keyboard.press('k');
    await bothPlaying(host, guest);
    const afterSeek = await sampleDrift(host, guest, 15);
    const p95Seek = percentile(afterSeek.slice(Math.floor(afterSeek.length / 3)), 95);

    // Chat and a reaction reach the other side.
    await guest.getByTestId('party-message').fill('this is the best part');
    await guest.getByTestId('party-send').click();
    await expect(host.getByTestId('party-chat-line')).toHaveText(['Ben: this is the best part']);
    await host.getByRole('button', { name: 'React with 🔥' }).click();
    await expect(guest.getByTestId('party-reaction')).toHaveText(['Ana 🔥']);

    // Server A, the host's, restarts: the host's browser reaches the party through the other server
    // meanwhile and again after, and the party goes on.
    const restarted = await fetch(`${CONTROL}/restart/a`, { method: 'POST' });
    expect(restarted.status).toBe(200);
    await guest.keyboard.press('k');
    await bothPausedNear(host, guest);
    await host.keyboard.press('k');
    await bothPlaying(host, guest);
    await expect(members(host)).toHaveCount(2);

    console.log(
      `party drift (|player − room|, ms): 30 s of play p95 ${p95Play} (n=${playing.length}), after a seek p95 ${p95Seek} (n=${afterSeek.length})`,
    );
    test
      .info()
      .annotations.push({ type: 'drift p95 ms (play, after seek)', description: `${p95Play}, ${p95Seek}` });
    // Within the 300 ms a command has to reach everyone; the tuned goal (p95 < 150 ms) is bench/party.ts's
    // measure, on a machine not running the rest of the suite.
    expect(p95Play).toBeLessThan(300);
    expect(p95Seek).toBeLessThan(300);
  });
});
