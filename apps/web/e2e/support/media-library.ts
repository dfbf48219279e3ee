import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Made by scripts/make-test-library.ts before the library instance starts (kept between runs: a cache). */
export const TEST_LIBRARY_DIR = path.join(tmpdir(), 'marquee-e2e-library');
const LIBRARY_ORIGIN = `http://127.0.0.1:${Number(process.env.E2E_LIBRARY_PORT ?? 4185)}`;

/**
 * The library instance this project plays from (playwright.config.ts): the single SQLite server, or
 * three servers on PostgreSQL + Redis behind nginx.
 */
export function libraryOrigin(): string {
  const origin = test.info().project.metadata?.libraryOrigin as unknown;
  return typeof origin === 'string' ? origin : LIBRARY_ORIGIN;
}

export interface LibraryCue {
  start: number;
  end: number;
  text: string;
}
export interface LibraryEntry {
  key: string;
  tmdbId: string;
  title: string;
  type: 'movie' | 'show';
  subtitles: { language: string; codec: string; embedded: boolean; cues: LibraryCue[] }[];
  expects: { durationSeconds: number; audioLanguages: string[]; audioFrequencies: number[] };
}

/** What the generator wrote (its manifest): titles, subtitle cues, tones. */
export function libraryEntries(): LibraryEntry[] {
  const manifest = JSON.parse(
    readFileSync(path.join(TEST_LIBRARY_DIR, '.marquee-test-library.json'), 'utf8'),
  ) as {
    entries: LibraryEntry[];
  };
  return manifest.entries;
}

export const titlePath = (entry: LibraryEntry) =>
  `/media/tmdb-movie-${entry.tmdbId}-${entry.title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** What the element shows and plays: a decoded picture and decoded sound (Chromium counts its bytes). */
export async function decoded(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement & { webkitAudioDecodedByteCount?: number }>(
      '[data-testid="player-video"]',
    )!;
    return {
      time: v.currentTime,
      duration: v.duration,
      width: v.videoWidth,
      audioBytes: v.webkitAudioDecodedByteCount ?? 0,
      frames: v.getVideoPlaybackQuality().totalVideoFrames,
      error: v.error?.code ?? null,
    };
  });
}

/**
 * The loudest frequency of what the player sounds like now, in Hz (Web Audio on the element: the
 * French track is an 880 Hz tone, the English one 440 Hz).
 */
export async function dominantFrequency(page: Page): Promise<number> {
  return page.evaluate(async () => {
    type Probe = { context: AudioContext; analyser: AnalyserNode };
    const w = window as unknown as { __toneProbe?: Probe };
    const video = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
    if (!w.__toneProbe) {
      const context = new AudioContext();
      const analyser = context.createAnalyser();
      analyser.fftSize = 8192;
      const source = context.createMediaElementSource(video);
      source.connect(analyser);
      analyser.connect(context.destination);
      w.__toneProbe = { context, analyser };
    }
    const { context, analyser } = w.__toneProbe;
    await context.resume();
    const bins = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(bins);
    let best = 0;
    for (let i = 1; i < bins.length; i++) if (bins[i]! > bins[best]!) best = i;
    return bins[best]! < -90 ? 0 : (best * context.sampleRate) / analyser.fftSize;
  });
}

/** Seeks by clicking the seek bar at `fraction` of its width (controls show on mouse movement). */
export async function seekTo(page: Page, fraction: number): Promise<void> {
  await page.mouse.move(200, 200);
  await page.mouse.move(240, 230);
  const bar = page.getByTestId('progress-bar');
  await expect(bar).toBeVisible();
  const box = (await bar.boundingBox())!;
  await bar.click({ position: { x: box.width * fraction, y: box.height / 2 } });
}
