import type { MediaInfo } from '../src/modules/media/media-info.ts';

/**
 * What ffprobe says of the small test files the conversion tests make: H.264 320×180 at 24 fps with one
 * AC3 track (stream 1), `channels` of them, in Matroska.
 */
export function h264Ac3Info(duration: number, channels: 2 | 6 = 6): MediaInfo {
  return {
    formatName: 'matroska,webm',
    duration,
    bitRate: 500_000,
    video: {
      index: 0,
      codec: 'h264',
      profile: 'High',
      level: 30,
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      width: 320,
      height: 180,
      frameRate: 24,
      dynamicRange: 'sdr',
      bitRate: null,
    },
    audio: [
      {
        index: 1,
        codec: 'ac3',
        profile: null,
        channels,
        channelLayout: channels === 6 ? '5.1(side)' : 'stereo',
        sampleRate: 48000,
        language: 'eng',
        title: null,
        isDefault: true,
        bitRate: channels === 6 ? 384_000 : 192_000,
      },
    ],
    subtitles: [],
    chapters: [],
  };
}
