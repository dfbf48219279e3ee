import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';

/** Made by scripts/make-test-library.ts before the library instance starts (kept between runs: a cache). */
export const TEST_LIBRARY_DIR = path.join(tmpdir(), 'marquee-e2e-library');
/** The show of e2e/segments.spec.ts (scripts/make-segments-show.ts): its intros and credits are detected. */
export const SEGMENTS_SHOW_DIR = path.join(tmpdir(), 'marquee-e2e-segments-show');
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
  /** Where the PGS file's cues are drawn, on a `width`×`height` canvas, in which colours. */
  pgs?: {
    width: number;
    height: number;
    boxColor: { rgb: [number, number, number] };
    cues: (LibraryCue & { x: number; y: number; width: number; height: number })[];
  };
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
 * The share of the picture's pixels inside `box` (on a `canvas`-sized subtitle canvas, scaled to the
 * picture) that have about the colour `rgb`: the video's current frame drawn on a canvas (the media are
 * the page's own origin, so it can be read).
 */
export async function colorShare(
  page: Page,
  canvas: { width: number; height: number },
  box: { x: number; y: number; width: number; height: number },
  rgb: [number, number, number],
): Promise<number> {
  return page.evaluate(
    ({ canvas, box, rgb }) => {
      const video = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
      if (video.readyState < 2 || video.videoWidth === 0) return 0;
      const draw = document.createElement('canvas');
      draw.width = video.videoWidth;
      draw.height = video.videoHeight;
      const context = draw.getContext('2d', { willReadFrequently: true })!;
      context.drawImage(video, 0, 0);
      const sx = video.videoWidth / canvas.width;
      const sy = video.videoHeight / canvas.height;
      // A few pixels in from the box's edges, where the encoder blurs it into the picture.
      const x = Math.ceil((box.x + 3) * sx);
      const y = Math.ceil((box.y + 3) * sy);
      const w = Math.floor((box.width - 6) * sx);
      const h = Math.floor((box.height - 6) * sy);
      const { data } = context.getImageData(x, y, w, h);
      let near = 0;
      for (let i = 0; i < data.length; i += 4) {
        const d = Math.hypot(data[i]! - rgb[0], data[i + 1]! - rgb[1], data[i + 2]! - rgb[2]);
        if (d < 60) near++;
      }
      return near / (w * h);
    },
    { canvas, box, rgb },
  );
}

/**
 * How many pixels of the ASS renderer's canvas (JASSUB's, over the video) are drawn in about `rgb`
 * (alpha above a half), or null when there is no such canvas.
 */
export async function assPixels(page: Page, rgb: [number, number, number]): Promise<number | null> {
  return page.evaluate((rgb) => {
    const canvas = document.querySelector<HTMLCanvasElement>('canvas.JASSUB');
    if (!canvas || canvas.width === 0 || canvas.height === 0) return null;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d', { willReadFrequently: true })!;
    context.drawImage(canvas, 0, 0);
    const { data } = context.getImageData(0, 0, copy.width, copy.height);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! < 128) continue;
      if (Math.hypot(data[i]! - rgb[0], data[i + 1]! - rgb[1], data[i + 2]! - rgb[2]) < 80) count++;
    }
    return count;
  }, rgb);
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
