/// <reference lib="dom" />
/**
 * Time from pressing play to the first video frame with the sample source (target: under 1 s here).
 * Starts a real server with the built web app (built first if needed), opens a title in Debian
 * Chromium with autoplay needing a gesture, presses the title page's Play and measures in the page from
 * the press to the first frame the video presents (support/first-frame.ts): the source search, the
 * player's code and the playlist all come after the press. Two cases: "cold" presses as soon as the
 * button shows, "warm" once the page has settled. Each run is a fresh
 * browser context. Prints every run and the medians.
 *   node --import tsx bench/play-first-frame.ts [runs per case=5]
 */
import { chromium } from 'playwright-core';
import { playToFirstFrame } from './support/first-frame.ts';
import { ensureBuilt, median, startServer } from './support/server.ts';

const RUNS = Number(process.argv[2] ?? 5);
const TARGET_MS = 1_000;
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--autoplay-policy=document-user-activation-required',
];

async function main() {
  ensureBuilt();
  const server = await startServer();
  const { url } = server;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const results: Record<'cold' | 'warm', number[]> = { cold: [], warm: [] };
  try {
    for (const mode of ['cold', 'warm'] as const)
      for (let run = 0; run < RUNS; run++) {
        const context = await browser.newContext();
        // A first visit: play() is refused until the viewer presses something, as Chromium does for a
        // site the viewer never interacted with (headless Chromium otherwise lets autoplay through).
        await context.addInitScript(() => {
          const play = HTMLMediaElement.prototype.play;
          let pressed = false;
          window.addEventListener('pointerdown', () => (pressed = true), { capture: true });
          HTMLMediaElement.prototype.play = function (this: HTMLMediaElement) {
            if (!pressed)
              return Promise.reject(new DOMException('play() needs a gesture', 'NotAllowedError'));
            return play.call(this);
          };
        });
        const page = await context.newPage();
        await page.goto(`${url}/media/tmdb-movie-603-the-matrix`);
        // Nothing is buffered before Play (docs/architecture.md): "warm" presses once the page has settled, "cold"
        // as soon as the title page's Play shows.
        const ms = await playToFirstFrame(page, mode === 'warm');
        results[mode].push(ms);
        console.log(`${mode} run ${run + 1}: ${ms.toFixed(0)} ms`);
        await context.close();
      }
  } finally {
    await browser.close();
    await server.stop();
  }
  for (const [mode, times] of Object.entries(results)) {
    const m = median(times);
    console.log(
      `play → first frame, ${mode} (sample HLS, ${times.length} runs): median ${m.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (target < ${TARGET_MS} ms) → ${m < TARGET_MS ? 'within target' : 'OVER TARGET'}`,
    );
  }
}

await main();
