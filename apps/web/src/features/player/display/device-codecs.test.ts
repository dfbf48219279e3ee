import { describe, expect, it } from 'vitest';
import { browserProbe, detectDeviceCodecs, type MediaProbe } from './device-codecs.ts';

/**
 * Debian Chromium's own answers (asked once in headless Chromium with a page calling
 * `MediaSource.isTypeSupported` and `canPlayType` on these types); anything not listed is refused.
 */
const CHROMIUM: Record<string, { element: CanPlayTypeResult; mse: boolean }> = {
  'video/mp4; codecs="avc1.640028"': { element: 'probably', mse: true },
  'video/mp4; codecs="avc1.6E0028"': { element: 'probably', mse: true },
  'video/mp4; codecs="hvc1.1.6.L120.90"': { element: '', mse: false },
  'video/mp4; codecs="hvc1.2.4.L120.90"': { element: '', mse: false },
  'video/webm; codecs="vp8"': { element: 'probably', mse: true },
  'video/webm; codecs="vp09.00.40.08"': { element: 'probably', mse: true },
  'video/mp4; codecs="vp09.00.40.08"': { element: 'probably', mse: true },
  'video/mp4; codecs="av01.0.08M.08"': { element: 'probably', mse: true },
  'video/webm; codecs="av01.0.08M.08"': { element: 'probably', mse: true },
  'audio/mp4; codecs="mp4a.40.2"': { element: 'probably', mse: true },
  'audio/mp4; codecs="mp4a.6B"': { element: 'probably', mse: false },
  'audio/mpeg': { element: 'probably', mse: true },
  'audio/mp4; codecs="opus"': { element: 'probably', mse: true },
  'audio/webm; codecs="opus"': { element: 'probably', mse: true },
  'audio/webm; codecs="vorbis"': { element: 'probably', mse: true },
  'audio/mp4; codecs="flac"': { element: 'probably', mse: true },
  'audio/flac': { element: 'probably', mse: false },
  'audio/mp4; codecs="ac-3"': { element: '', mse: false },
  'audio/mp4; codecs="ec-3"': { element: '', mse: false },
  'audio/mp4; codecs="dtsc"': { element: '', mse: false },
  'video/mp4': { element: 'maybe', mse: false },
  'video/webm': { element: 'maybe', mse: false },
  'video/x-matroska; codecs="avc1.640028"': { element: 'probably', mse: false },
};

const probeOf = (
  table: Record<string, { element: CanPlayTypeResult; mse: boolean }>,
  hdr = false,
): MediaProbe => ({
  mse: (type) => table[type]?.mse ?? false,
  element: (type) => table[type]?.element ?? '',
  hdr: () => hdr,
});

describe('detectDeviceCodecs', () => {
  it("says exactly what Debian's Chromium decodes: no HEVC, AC-3, E-AC-3 or DTS", () => {
    expect(detectDeviceCodecs(probeOf(CHROMIUM))).toEqual([
      'h264',
      'h264-10',
      'vp8',
      'vp9',
      'av1',
      'aac',
      'mp3',
      'opus',
      'vorbis',
      'flac',
      'mp4',
      'webm',
      'mkv',
    ]);
  });

  it('adds hdr when the screen shows high dynamic range', () => {
    expect(detectDeviceCodecs(probeOf(CHROMIUM, true))).toContain('hdr');
  });

  it('an element that only guesses ("maybe") about a codec does not count; MSE alone does', () => {
    const guessing = probeOf({
      'video/mp4; codecs="avc1.640028"': { element: 'maybe', mse: false },
      'video/mp4; codecs="hvc1.1.6.L120.90"': { element: '', mse: true },
      'video/mp4': { element: 'maybe', mse: false },
    });
    expect(detectDeviceCodecs(guessing)).toEqual(['hevc', 'mp4']);
  });

  it('a Safari-like device without MSE: the element decides, HEVC and Dolby included, no Matroska', () => {
    const safari = probeOf({
      'video/mp4; codecs="avc1.640028"': { element: 'probably', mse: false },
      'video/mp4; codecs="hvc1.1.6.L120.90"': { element: 'probably', mse: false },
      'video/mp4; codecs="hvc1.2.4.L120.90"': { element: 'probably', mse: false },
      'audio/mp4; codecs="mp4a.40.2"': { element: 'probably', mse: false },
      'audio/mp4; codecs="ac-3"': { element: 'probably', mse: false },
      'audio/mp4; codecs="ec-3"': { element: 'probably', mse: false },
      'audio/mpeg': { element: 'probably', mse: false },
      'video/mp4': { element: 'maybe', mse: false },
    });
    expect(detectDeviceCodecs(safari)).toEqual([
      'h264',
      'hevc',
      'hevc-10',
      'aac',
      'mp3',
      'ac3',
      'eac3',
      'mp4',
    ]);
  });

  it('nothing known: an empty list (the server then plays what every browser plays)', () => {
    expect(detectDeviceCodecs(probeOf({}))).toEqual([]);
  });

  it('the browser probe never throws where there is no media stack (jsdom)', () => {
    expect(() => detectDeviceCodecs(browserProbe())).not.toThrow();
  });
});
