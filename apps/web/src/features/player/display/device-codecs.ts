import type { DeviceCodec } from '@marquee/contract';

/**
 * What the browser says it plays. Tests inject their own; `browserProbe` asks the real media stack (a
 * detached probe element, never the player's).
 */
export interface MediaProbe {
  /** `MediaSource.isTypeSupported` (ManagedMediaSource on iOS 17+): what hls.js can feed. False without MSE. */
  mse(type: string): boolean;
  /** `HTMLMediaElement.canPlayType`: what the element plays as a file (and native HLS). */
  element(type: string): CanPlayTypeResult;
  /** The screen shows high dynamic range (`(dynamic-range: high)`). */
  hdr(): boolean;
}

/**
 * How each of the contract's `DEVICE_CODECS` is asked, in its order. Codecs: concrete MIME types, any one
 * of which counts (the server makes fragmented MP4 for HLS or serves the file itself, so the MP4 form comes
 * first, the WebM one for codecs that live in WebM files). Containers: what the element plays as a file;
 * Matroska is asked with H.264 inside, which Chromium plays through its WebM demuxer and says so
 * ("probably"), while Safari and older Firefox answer "".
 */
const QUESTIONS = {
  h264: { codec: ['video/mp4; codecs="avc1.640028"'] },
  'h264-10': { codec: ['video/mp4; codecs="avc1.6E0028"'] },
  hevc: { codec: ['video/mp4; codecs="hvc1.1.6.L120.90"'] },
  'hevc-10': { codec: ['video/mp4; codecs="hvc1.2.4.L120.90"'] },
  vp8: { codec: ['video/webm; codecs="vp8"'] },
  vp9: { codec: ['video/mp4; codecs="vp09.00.40.08"', 'video/webm; codecs="vp09.00.40.08"'] },
  av1: { codec: ['video/mp4; codecs="av01.0.08M.08"', 'video/webm; codecs="av01.0.08M.08"'] },
  hdr: 'hdr',
  aac: { codec: ['audio/mp4; codecs="mp4a.40.2"'] },
  mp3: { codec: ['audio/mp4; codecs="mp4a.6B"', 'audio/mpeg'] },
  opus: { codec: ['audio/mp4; codecs="opus"', 'audio/webm; codecs="opus"'] },
  vorbis: { codec: ['audio/webm; codecs="vorbis"'] },
  flac: { codec: ['audio/mp4; codecs="flac"', 'audio/flac'] },
  ac3: { codec: ['audio/mp4; codecs="ac-3"'] },
  eac3: { codec: ['audio/mp4; codecs="ec-3"'] },
  dts: { codec: ['audio/mp4; codecs="dtsc"'] },
  mp4: { container: 'video/mp4' },
  webm: { container: 'video/webm' },
  mkv: { container: 'video/x-matroska; codecs="avc1.640028"' },
} as const satisfies Record<DeviceCodec, { codec: readonly string[] } | { container: string } | 'hdr'>;

/**
 * The contract's `DEVICE_CODECS` this device decodes, in the contract's order. A codec counts when Media
 * Source Extensions accept it or the element is sure of it ("probably": with a codec named, "maybe" is a
 * guess); a container when the element does not refuse it; `hdr` when the screen shows it.
 */
export function detectDeviceCodecs(probe: MediaProbe): DeviceCodec[] {
  return (Object.keys(QUESTIONS) as DeviceCodec[]).filter((name) => {
    const question: (typeof QUESTIONS)[DeviceCodec] = QUESTIONS[name];
    if (question === 'hdr') return probe.hdr();
    if ('container' in question) return probe.element(question.container) !== '';
    return question.codec.some((type) => probe.mse(type) || probe.element(type) === 'probably');
  });
}

type MseClass = { isTypeSupported(type: string): boolean };

/** The real browser's answers; every question that throws (or has no API) is a no. */
export function browserProbe(): MediaProbe {
  const g = globalThis as {
    MediaSource?: MseClass;
    ManagedMediaSource?: MseClass;
    matchMedia?: (query: string) => MediaQueryList;
  };
  const mse = g.MediaSource ?? g.ManagedMediaSource;
  const video = typeof document === 'undefined' ? null : document.createElement('video');
  return {
    mse: (type) => {
      try {
        return mse?.isTypeSupported(type) === true;
      } catch {
        return false;
      }
    },
    element: (type) => {
      try {
        return video?.canPlayType(type) ?? '';
      } catch {
        return '';
      }
    },
    hdr: () => {
      try {
        return g.matchMedia?.('(dynamic-range: high)').matches === true;
      } catch {
        return false;
      }
    },
  };
}

let cached: DeviceCodec[] | null = null;

/** What this browser decodes, asked once per page (the answers do not change while it is open). */
export function deviceCodecs(): readonly DeviceCodec[] {
  return (cached ??= detectDeviceCodecs(browserProbe()));
}
