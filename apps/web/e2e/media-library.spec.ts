import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { player, startPlayback, videoState } from './support/player.ts';
import {
  assPixels,
  colorShare,
  decoded,
  dominantFrequency,
  libraryEntries,
  libraryOrigin,
  seekTo,
  titlePath,
  type LibraryEntry,
} from './support/media-library.ts';

// Issue 24 (decision 085): the operator's own files play from the library source in Debian's Chromium
// (no HEVC, AC3, E-AC3 or DTS) — as they are, remuxed or transcoded by the server — with picture and
// sound, a seek to 80 %, every text subtitle and both audio languages. The library is made with ffmpeg
// by scripts/make-test-library.ts before the instance starts.

const entries = libraryEntries();
const entry = (key: string) => entries.find((e) => e.key === key)!;

/** Which server behind nginx answered each HLS segment (the topology's nginx names it: X-Upstream). */
type SegmentAnswers = { path: string; upstream: string }[];

/** Opens a title of the library instance and records which media it fetched. */
async function openTitle(page: Page, e: LibraryEntry, query = '', segments: SegmentAnswers = []) {
  const media: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/api/sources/')) media.push(url.pathname);
  });
  page.on('response', (r) => {
    const { pathname } = new URL(r.url());
    if (/\/hls\/[^/]+\/\d+\.m4s$/.test(pathname) && r.status() === 200)
      segments.push({ path: pathname, upstream: r.headers()['x-upstream'] ?? '' });
  });
  await page.goto(`${libraryOrigin()}${titlePath(e)}${query}`);
  return media;
}

/** The cue of a subtitle track that is on screen at 80 % of the title (or the last one before it). */
function cueNear(cues: LibraryEntry['subtitles'][number]['cues'], at: number) {
  return (
    cues.find((c) => c.start <= at && at < c.end) ?? cues.filter((c) => c.start <= at).at(-1) ?? cues[0]!
  );
}

const KEYS = [
  'h264-aac-mp4',
  'vp9-opus-webm',
  'h264-ac3-srt-mkv',
  'hevc10-eac3-ass-mkv',
  'hevc-aac-mp4',
  'h264-two-audio-mkv',
  'mpeg4-mp3-avi',
  'mpeg2-ac3-ts',
  'h264-pgs-mkv',
];

test.describe('the media library in Chromium', () => {
  for (const key of KEYS) {
    test(`${key}: plays from the library with picture and sound, seeks to 80 % and plays on, shows its subtitles`, async ({
      page,
    }) => {
      const e = entry(key);
      const segments: SegmentAnswers = [];
      const media = await openTitle(page, e, '', segments);
      await startPlayback(page);
      // The library source, never the sample clip.
      expect(media.some((p) => p.startsWith('/api/sources/library/'))).toBe(true);
      expect(media.some((p) => p.startsWith('/api/sources/sample/'))).toBe(false);
      await expect.poll(async () => (await decoded(page)).audioBytes, { timeout: 15_000 }).toBeGreaterThan(0);
      const start = await decoded(page);
      expect(start.width).toBeGreaterThan(0);
      expect(start.error).toBeNull();

      // Seek to 80 %: it plays on from there (a conversion restarts at that point when it must).
      await seekTo(page, 0.8);
      const duration = e.expects.durationSeconds;
      await expect
        .poll(async () => (await decoded(page)).time, { timeout: 15_000 })
        .toBeGreaterThan(duration * 0.75);
      const after = await decoded(page);
      await expect
        .poll(async () => (await decoded(page)).time, { timeout: 15_000 })
        .toBeGreaterThan(after.time + 0.3);
      expect((await decoded(page)).error).toBeNull();

      // Behind nginx, the segments of one conversion reach the viewer from several servers: the one
      // running ffmpeg and the others, which ask it for them (decision 087).
      if (test.info().project.metadata?.topology === true && media.some((p) => p.includes('/hls/'))) {
        expect(segments.length).toBeGreaterThan(2);
        const byRendition = new Map<string, Set<string>>();
        for (const s of segments) {
          const rendition = s.path.replace(/\/\d+\.m4s$/, '');
          byRendition.set(
            rendition,
            (byRendition.get(rendition) ?? new Set()).add(s.upstream.split(', ').at(-1)!),
          );
        }
        expect(Math.max(...[...byRendition.values()].map((servers) => servers.size))).toBeGreaterThan(1);
        // …and one of the three converted this file: one process folder holds it.
        const fileId = /\/api\/sources\/library\/[^/]+\/([^/]+)\/hls\//.exec(segments[0]!.path)![1]!;
        const transcodes = test.info().project.metadata.transcodeDir as string;
        const converting = readdirSync(transcodes).filter(
          (name) => name.startsWith('hls-') && existsSync(path.join(transcodes, name, fileId)),
        );
        expect(converting).toHaveLength(1);
      }

      // Every text subtitle is offered; each shows its own cue at the time it is on screen.
      const textTracks = e.subtitles.filter((s) => s.codec !== 'hdmv_pgs_subtitle');
      if (textTracks.length === 0) return;
      await page.keyboard.press('k');
      await page.mouse.move(300, 300);
      await page.getByTestId('open-captions').click();
      await expect(page.getByTestId('captions-menu')).toBeVisible();
      await expect(page.getByTestId('source-captions').getByTestId('caption-option')).toHaveCount(
        textTracks.length,
      );
      await page.keyboard.press('Escape');
      for (const track of textTracks) {
        const language =
          track.language.length === 3 ? { eng: 'en', fre: 'fr' }[track.language]! : track.language;
        const cue = cueNear(track.cues, duration * 0.5);
        await seekTo(page, (cue.start + cue.end) / 2 / duration);
        await page.mouse.move(300, 300);
        await page.getByTestId('open-captions').click();
        await page
          .getByTestId('source-captions')
          .locator(`[data-testid="caption-option"][data-language="${language}"]`)
          .first()
          .click();
        await expect(page.getByTestId('caption-cue')).toHaveText(cue.text);
      }
    });
  }

  test('the PGS track of an MKV: chosen in the player on a cue, burned into the picture from there, plays on', async ({
    page,
  }) => {
    const e = entry('h264-pgs-mkv');
    const media = await openTitle(page, e);
    await startPlayback(page);
    const pgs = e.pgs!;
    const cue = pgs.cues[1]!;
    const share = () => colorShare(page, pgs, cue, pgs.boxColor.rgb);
    /** Whether the frame on screen is the one at `time` with the box share expected, else what it shows. */
    const frameAt = async (time: number, expected: (share: number) => boolean) => {
      const now = {
        time: (await decoded(page)).time,
        share: await share(),
        status: await player(page).getAttribute('data-status'),
        ...(await page.evaluate(() => {
          const v = document.querySelector<HTMLVideoElement>('[data-testid="player-video"]')!;
          const buffered = [];
          for (let i = 0; i < v.buffered.length; i++) buffered.push([v.buffered.start(i), v.buffered.end(i)]);
          return { ready: v.readyState, buffered, error: v.error?.code ?? null };
        })),
      };
      return Math.abs(now.time - time) < 0.5 && expected(now.share) ? 'as expected' : JSON.stringify(now);
    };
    // Paused in the middle of a cue: the file as it is shows no subtitle there.
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    const middle = (cue.start + cue.end) / 2;
    await seekTo(page, middle / e.expects.durationSeconds);
    await expect
      .poll(async () => Math.abs((await decoded(page)).time - middle), { timeout: 15_000 })
      .toBeLessThan(0.5);
    const at = (await decoded(page)).time;
    expect(await share()).toBeLessThan(0.2);

    await page.mouse.move(300, 300);
    await page.getByTestId('open-captions').click();
    const option = page
      .getByTestId('source-captions')
      .locator('[data-testid="caption-option"][data-kind="image"][data-language="en"]');
    await expect(option).toHaveCount(1);
    await expect(option.getByTestId('caption-burned-in')).toBeVisible();
    await option.click();
    // The title loads again with the subtitle burned in, paused where the viewer was: the box is there.
    await expect(player(page)).toHaveAttribute('data-status', 'playing');
    await expect.poll(() => frameAt(at, (s) => s > 0.5), { timeout: 20_000 }).toBe('as expected');
    const burned = media.filter((p) => /\/hls\/v\d+\.a\d+[ct]\.b\d+\//.test(p));
    expect(burned.some((p) => p.endsWith('/master.m3u8'))).toBe(true);
    expect(burned.some((p) => p.endsWith('.m4s'))).toBe(true);

    // It plays on from there.
    await page.keyboard.press('k');
    await expect.poll(async () => (await decoded(page)).time, { timeout: 15_000 }).toBeGreaterThan(at + 0.5);
    expect((await decoded(page)).error).toBeNull();

    // Off, paused on the cue again: the title as it plays without the subtitle, no box.
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    await page.mouse.move(300, 300);
    await page.getByTestId('open-captions').click();
    await page.getByTestId('caption-off').click();
    await expect(player(page)).toHaveAttribute('data-status', 'playing');
    await seekTo(page, middle / e.expects.durationSeconds);
    await expect.poll(() => frameAt(middle, (s) => s < 0.2), { timeout: 20_000 }).toBe('as expected');
  });

  test('the ASS track inside an MKV: drawn with its own styling (JASSUB, from this origin) at a cue', async ({
    page,
  }) => {
    const e = entry('hevc10-eac3-ass-mkv');
    // What the page and its workers fetch once the caption is chosen.
    let chosen = false;
    const fetched: string[] = [];
    page.context().on('request', (r) => {
      if (chosen) fetched.push(r.url());
    });
    await openTitle(page, e);
    await startPlayback(page);
    // Paused in the middle of a cue.
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    const cue = e.subtitles.find((s) => s.codec === 'ass')!.cues[0]!;
    const middle = (cue.start + cue.end) / 2;
    await seekTo(page, middle / e.expects.durationSeconds);
    await expect
      .poll(async () => Math.abs((await decoded(page)).time - middle), { timeout: 15_000 })
      .toBeLessThan(0.5);
    expect(await page.locator('canvas.JASSUB').count()).toBe(0);

    await page.mouse.move(300, 300);
    await page.getByTestId('open-captions').click();
    chosen = true;
    await page
      .getByTestId('source-captions')
      .locator('[data-testid="caption-option"][data-language="fr"]')
      .click();
    // JASSUB draws it: the text cues step back (kept for screen readers), and its canvas shows the
    // script's own colour (yellow, &H0000FFFF) where the cue is.
    await expect(page.getByTestId('captions')).toHaveAttribute('data-ass-renderer', 'drawing', {
      timeout: 20_000,
    });
    await expect(page.getByTestId('caption-cue')).not.toBeInViewport();
    await expect(page.getByTestId('caption-cue')).toHaveText(cue.text);
    await expect.poll(() => assPixels(page, [255, 255, 0]), { timeout: 15_000 }).toBeGreaterThan(50);
    // Away from any cue it draws nothing.
    const gap = e.subtitles.find((s) => s.codec === 'ass')!.cues[1]!.start - 0.5;
    await seekTo(page, gap / e.expects.durationSeconds);
    await page.keyboard.press('k');
    await expect.poll(() => assPixels(page, [255, 255, 0]), { timeout: 15_000 }).toBe(0);
    // Its code loaded only now (a chunk of its own), and everything it needed came from this instance:
    // its script, worker, WebAssembly and font.
    expect(fetched.some((url) => /\/assets\/ass-renderer-[^/]+\.js$/.test(new URL(url).pathname))).toBe(true);
    expect(fetched.filter((url) => new URL(url).origin !== libraryOrigin())).toEqual([]);
    expect(fetched.some((url) => /\/subtitles\/\d+\.ass$/.test(new URL(url).pathname))).toBe(true);
    expect(fetched.some((url) => /\/assets\/[^/]+\.wasm$/.test(new URL(url).pathname))).toBe(true);
    expect(fetched.some((url) => /\/assets\/[^/]+\.woff2$/.test(new URL(url).pathname))).toBe(true);
  });

  test('the ASS track when its renderer cannot start: the text captions show it', async ({ page }) => {
    const e = entry('hevc10-eac3-ass-mkv');
    // No WebAssembly for the renderer.
    await page.route('**/assets/*.wasm', (route) => route.abort());
    await openTitle(page, e);
    await startPlayback(page);
    await page.keyboard.press('k');
    await expect.poll(async () => (await videoState(page)).paused).toBe(true);
    const cue = e.subtitles.find((s) => s.codec === 'ass')!.cues[0]!;
    const middle = (cue.start + cue.end) / 2;
    await seekTo(page, middle / e.expects.durationSeconds);
    await expect
      .poll(async () => Math.abs((await decoded(page)).time - middle), { timeout: 15_000 })
      .toBeLessThan(0.5);
    await page.mouse.move(300, 300);
    await page.getByTestId('open-captions').click();
    await page
      .getByTestId('source-captions')
      .locator('[data-testid="caption-option"][data-language="fr"]')
      .click();
    await expect(page.getByTestId('captions')).toHaveAttribute('data-ass-renderer', 'failed', {
      timeout: 30_000,
    });
    await expect(page.getByTestId('caption-cue')).toBeInViewport();
    await expect(page.getByTestId('caption-cue')).toHaveText(cue.text);
    expect(await page.locator('canvas.JASSUB').count()).toBe(0);
  });

  test('the French track of a two-language file: chosen in the player, the position kept, the other tone heard', async ({
    page,
  }) => {
    const e = entry('h264-two-audio-mkv');
    await openTitle(page, e);
    await startPlayback(page);
    await expect.poll(() => dominantFrequency(page), { timeout: 15_000 }).toBeCloseTo(440, -1);
    await page.keyboard.press('k');
    const before = (await decoded(page)).time;
    await page.mouse.move(300, 300);
    await page.getByTestId('open-settings').click();
    await page.getByTestId('settings-audio').click();
    await page.locator('[data-testid="audio-option"][data-language="fr"]').click();
    await expect(player(page)).toHaveAttribute('data-status', 'playing');
    await expect
      .poll(async () => Math.abs((await decoded(page)).time - before), { timeout: 15_000 })
      .toBeLessThan(1.5);
    await page.keyboard.press('k');
    await expect.poll(() => dominantFrequency(page), { timeout: 15_000 }).toBeCloseTo(880, -1);
  });
});
