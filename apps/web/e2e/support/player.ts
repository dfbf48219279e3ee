import { expect, type Page } from '@playwright/test';
import { storedLibrary } from './stored-library.ts';

/** Page objects for the player. Tests read the element only to check what the viewer sees. */
export const MATRIX = '/media/tmdb-movie-603-the-matrix';

export const player = (page: Page) => page.getByTestId('player');

export async function videoState(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
    return {
      time: v.currentTime,
      paused: v.paused,
      volume: v.volume,
      muted: v.muted,
      rate: v.playbackRate,
      height: v.videoHeight,
      src: v.currentSrc,
    };
  });
}

export const videoTime = async (page: Page) => (await videoState(page)).time;

/**
 * A title opens as its page first (docs/architecture.md): its Play brings the player. Links that start
 * playing (an episode, `?t=`) show the player at once.
 */
async function reachPlayer(page: Page): Promise<void> {
  const titlePlay = page.getByTestId('title-play');
  await expect(player(page).or(titlePlay).first()).toBeVisible({ timeout: 20_000 });
  if (await titlePlay.isVisible()) await titlePlay.click();
}

/** Opens `path` and brings its player (pressing the title page's Play where the page comes first). */
export async function openPlayer(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await reachPlayer(page);
  await expect(player(page)).toBeVisible();
}

/** Waits for a source, presses play when the browser blocked autoplay, and waits for time to move. */
export async function startPlayback(page: Page): Promise<void> {
  await reachPlayer(page);
  await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
  const big = page.getByTestId('big-play');
  await expect
    .poll(async () => (await big.isVisible()) || !(await videoState(page)).paused, { timeout: 15_000 })
    .toBe(true);
  if (await big.isVisible()) await big.click();
  const start = await videoTime(page);
  await expect.poll(() => videoTime(page), { timeout: 15_000 }).toBeGreaterThan(start + 0.5);
}

/**
 * Waits for the source and leaves it paused near where it started (the browser may or may not have
 * allowed autoplay), checking the time is within [min, max].
 */
export async function pausedAt(page: Page, min: number, max: number): Promise<void> {
  await reachPlayer(page);
  await expect(player(page)).toHaveAttribute('data-status', 'playing', { timeout: 20_000 });
  const big = page.getByTestId('big-play');
  await expect
    .poll(async () => (await big.isVisible()) || !(await videoState(page)).paused, { timeout: 15_000 })
    .toBe(true);
  if (!(await big.isVisible())) await page.keyboard.press('k');
  await expect.poll(async () => (await videoState(page)).paused).toBe(true);
  // The start position applies once the first data arrived.
  await expect.poll(() => videoTime(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(min);
  expect(await videoTime(page)).toBeLessThanOrEqual(max);
}

/** Opens a player menu through the settings button (controls show on mouse movement). */
export async function openSettings(page: Page): Promise<void> {
  await page.mouse.move(200, 200);
  await page.mouse.move(220, 220);
  const gear = page.getByTestId('open-settings');
  // The click as a viewer's, unless the controls hid again before it could land (a busy machine): then
  // the button's own click, as a remote's OK does.
  await gear.click({ timeout: 3_000 }).catch(() => gear.dispatchEvent('click'));
  await expect(page.getByTestId('settings-menu')).toBeVisible();
}

export async function savedProgress(
  page: Page,
  key: string,
): Promise<{ watched: number; duration: number } | null> {
  return (await storedLibrary(page)).progress[key]?.progress ?? null;
}

/** Overrides runtime configuration fields for this page (the server inlines the config into index.html). */
export async function patchRuntimeConfig(page: Page, patch: Record<string, unknown>): Promise<void> {
  await page.addInitScript((p) => {
    let value: unknown;
    Object.defineProperty(window, '__MARQUEE_CONFIG__', {
      configurable: true,
      get: () => value,
      set: (v) => {
        value = { ...(v as object), ...p };
      },
    });
  }, patch);
}

export interface FakeExtension {
  installed: boolean;
  hello: unknown;
}

/**
 * A stand-in for the browser extension's content script: answers the relay messages (hello,
 * makeRequest, prepareStream, openPage) like the real one, with a hello reply the test sets.
 */
export async function installFakeExtension(page: Page, hello: unknown): Promise<void> {
  await page.addInitScript((initialHello) => {
    const ext = {
      installed: initialHello !== null,
      hello: initialHello,
      messages: [] as { name: string; body: unknown }[],
    };
    (window as unknown as { __fakeExtension: typeof ext }).__fakeExtension = ext;
    window.addEventListener('message', (event) => {
      const data = event.data as {
        name?: string;
        body?: unknown;
        instanceId?: string;
        relayed?: boolean;
      } | null;
      if (!data || data.relayed || !data.name || !data.instanceId || !ext.installed) return;
      ext.messages.push({ name: data.name, body: data.body });
      const reply = (body: unknown) =>
        window.postMessage(
          { name: data.name, relayId: 1, instanceId: data.instanceId, body, relayed: true },
          '*',
        );
      if (data.name === 'hello') reply(ext.hello);
      else if (data.name === 'makeRequest') {
        const req = data.body as { url: string; method: string };
        void fetch(req.url, { method: req.method }).then(async (r) =>
          reply({
            success: true,
            response: { statusCode: r.status, headers: {}, finalUrl: r.url, body: await r.text() },
          }),
        );
      } else reply({ success: true });
    });
  }, hello);
}

export const setFakeHello = (page: Page, hello: unknown) =>
  page.evaluate((h) => {
    const ext = (window as unknown as { __fakeExtension: FakeExtension }).__fakeExtension;
    ext.installed = h !== null;
    ext.hello = h;
  }, hello);

export const fakeExtensionMessages = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __fakeExtension: { messages: { name: string; body: unknown }[] } })
        .__fakeExtension.messages,
  );

export const WORKING_EXTENSION = { success: true, version: '1.1.3', allowed: true, hasPermission: true };
