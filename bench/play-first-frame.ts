/// <reference lib="dom" />
/**
 * Time from pressing play to the first video frame with the sample source (target: under 1 s here).
 * Starts a real server with the built web app (built first if needed), opens a title in Debian
 * Chromium with autoplay needing a gesture, waits until the player shows its play button (the source is
 * chosen), clicks it, and measures in the page from the press to the first frame the video presents
 * (requestVideoFrameCallback). Two cases: "cold" presses as soon as the button shows (the first
 * segments may still be on their way), "warm" once the player has buffered. Each run is a fresh
 * browser context. Prints every run and the medians.
 *   node --import tsx bench/play-first-frame.ts [runs per case=5]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { ensureBuilt, ROOT, SERVER_ENTRY } from './support/server.ts';

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

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

async function startServer(dataDir: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = spawn(process.execPath, [SERVER_ENTRY], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      CAPTCHA_PROVIDER: 'none',
      DATABASE_URL: '',
      REDIS_URL: '',
      TMDB_API_KEY: '',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start');
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  ensureBuilt();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-bench-play-'));
  const { url, child } = await startServer(dataDir);
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
        const play = page.getByTestId('big-play');
        await play.waitFor({ state: 'visible', timeout: 30_000 });
        if (mode === 'warm')
          await page.waitForFunction(
            () => document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!.readyState >= 3,
            undefined,
            { timeout: 30_000 },
          );
        // The clock starts in the page on the press itself, and stops at the first presented frame.
        await page.evaluate(() => {
          const w = window as unknown as { __firstFrame: Promise<number> };
          const video = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
          const button = document.querySelector<HTMLButtonElement>('[data-testid="big-play"]')!;
          w.__firstFrame = new Promise<number>((resolve) => {
            button.addEventListener(
              'pointerdown',
              () => {
                const pressed = performance.now();
                video.requestVideoFrameCallback((now) => resolve(now - pressed));
              },
              { once: true, capture: true },
            );
          });
        });
        await play.click();
        const ms = await page.evaluate(
          () => (window as unknown as { __firstFrame: Promise<number> }).__firstFrame,
        );
        results[mode].push(ms);
        console.log(`${mode} run ${run + 1}: ${ms.toFixed(0)} ms`);
        await context.close();
      }
  } finally {
    await browser.close();
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
  }
  for (const [mode, times] of Object.entries(results)) {
    const m = median(times);
    console.log(
      `play → first frame, ${mode} (sample HLS, ${times.length} runs): median ${m.toFixed(0)} ms, min ${Math.min(...times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms (target < ${TARGET_MS} ms) → ${m < TARGET_MS ? 'within target' : 'OVER TARGET'}`,
    );
  }
}

await main();
