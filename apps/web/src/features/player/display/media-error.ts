import type { PlaybackError, PlaybackErrorCode } from '../core/types.ts';

/** MediaError codes 1–4 → aborted, network, decode, not supported; anything else is generic. */
export function mediaErrorCode(code: number | undefined): PlaybackErrorCode {
  switch (code) {
    case 1:
      return 'aborted';
    case 2:
      return 'network';
    case 3:
      return 'decode';
    case 4:
      return 'notSupported';
    default:
      return 'generic';
  }
}

export function videoError(error: MediaError | null): PlaybackError {
  return { source: 'video', code: mediaErrorCode(error?.code), message: error?.message || 'media error' };
}

/** hls.js fatal errors by type: network, media (decode), anything else generic. */
export function hlsError(type: string, details: string): PlaybackError {
  const code: PlaybackErrorCode =
    type === 'networkError' ? 'network' : type === 'mediaError' ? 'decode' : 'generic';
  return { source: 'hls', code, message: details };
}
