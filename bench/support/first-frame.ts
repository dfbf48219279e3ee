import type { Page } from 'playwright-core';

/**
 * Play → first frame as a viewer lives it: a title opens as its page (docs/architecture.md), so the clock starts
 * in the page on the press of the title page's Play and stops when the player's video presents its first
 * frame (requestVideoFrameCallback, attached the moment the player's video element exists). A player that
 * still asks for a press (autoplay refused) is pressed too, the clock running. `settle` waits for the
 * network to go quiet before the press. Returns milliseconds.
 */
export async function playToFirstFrame(page: Page, settle = true): Promise<number> {
  const titlePlay = page.getByTestId('title-play');
  await titlePlay.waitFor({ state: 'visible', timeout: 60_000 });
  if (settle) await page.waitForLoadState('networkidle');
  // Source text, not a function: the page must not see the bundler's helpers (`__name`).
  await page.evaluate(`(() => {
    const button = document.querySelector('[data-testid="title-play"]');
    window.__firstFrame = new Promise((resolve) => {
      button.addEventListener('pointerdown', () => {
        const pressed = performance.now();
        const attach = () => {
          const video = document.querySelector('[data-testid="player-video"]');
          if (!video) return requestAnimationFrame(attach);
          video.requestVideoFrameCallback((now) => resolve(now - pressed));
        };
        attach();
      }, { once: true, capture: true });
    });
  })()`);
  await titlePlay.click();
  const big = page.getByTestId('big-play');
  const frame = page.evaluate('window.__firstFrame') as Promise<number>;
  // Left pending once the frame came: it ends (harmlessly) with the page.
  void big.waitFor({ state: 'visible', timeout: 60_000 }).then(
    () => big.click(),
    () => undefined,
  );
  return frame;
}
