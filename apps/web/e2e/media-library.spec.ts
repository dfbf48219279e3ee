import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { player, startPlayback } from './support/player.ts';
import {
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
