import { describe, expect, it } from 'vitest';
import type { AudioStreamInfo, MediaInfo, VideoStreamInfo } from './media-info.ts';
import {
  decidePlayback,
  deviceCodecs,
  parsePlanId,
  pickAudio,
  planId,
  type DecideOptions,
} from './playback-plan.ts';

const video = (o: Partial<VideoStreamInfo> = {}): VideoStreamInfo => ({
  index: 0,
  codec: 'h264',
  profile: 'High',
  level: 40,
  pixelFormat: 'yuv420p',
  bitDepth: 8,
  width: 1920,
  height: 1080,
  frameRate: 24,
  dynamicRange: 'sdr',
  bitRate: 5_000_000,
  ...o,
});
const audio = (index: number, o: Partial<AudioStreamInfo> = {}): AudioStreamInfo => ({
  index,
  codec: 'aac',
  profile: 'LC',
  channels: 2,
  channelLayout: 'stereo',
  sampleRate: 48000,
  language: 'eng',
  title: null,
  isDefault: index === 1,
  bitRate: 160_000,
  ...o,
});
const media = (o: Partial<MediaInfo> = {}): MediaInfo => ({
  formatName: 'matroska,webm',
  duration: 600,
  bitRate: 5_500_000,
  video: video(),
  audio: [audio(1)],
  subtitles: [],
  chapters: [],
  ...o,
});
// Debian's Chromium: no HEVC, AC3, E-AC3 or DTS.
const chromium = deviceCodecs('h264,vp8,vp9,av1,aac,mp3,opus,vorbis,flac,mp4,webm,mkv');
const opts = (o: Partial<DecideOptions> = {}): DecideOptions => ({
  device: chromium,
  canConvert: true,
  format: 'matroska',
  ...o,
});

describe('decidePlayback', () => {
  it('plays an MP4 with H.264 and AAC as it is', () => {
    expect(decidePlayback(media({ formatName: 'mov,mp4' }), opts({ format: 'mp4' }))).toMatchObject({
      delivery: 'direct',
      fileType: 'mp4',
      quality: '1080',
    });
  });

  it('remuxes an MKV with AC3 sound: the video is copied, the sound becomes AAC', () => {
    const decision = decidePlayback(media({ audio: [audio(1, { codec: 'ac3', channels: 6 })] }), opts());
    expect(decision.delivery).toBe('remux');
    if (decision.delivery !== 'remux') return;
    expect(decision.variants.map((v) => planId(v.plan))).toEqual([
      'vc.a1t',
      'v720.a1t',
      'v480.a1t',
      'v360.a1t',
    ]);
    expect(decision.variants.map((v) => v.quality)).toEqual(['1080', '720', '480', '360']);
  });

  it('keeps AC3 as it is for a device that decodes it', () => {
    const decision = decidePlayback(
      media({ formatName: 'mov,mp4', audio: [audio(1, { codec: 'ac3', channels: 6 }), audio(2)] }),
      opts({ device: deviceCodecs('h264,aac,ac3,mp4'), format: 'mp4' }),
    );
    expect(decision.delivery === 'remux' && planId(decision.variants[0]!.plan)).toBe('vc.a1c');
  });

  it('transcodes HEVC 10-bit for a browser without HEVC, never above 1080 lines', () => {
    const info = media({ video: video({ codec: 'hevc', bitDepth: 10, width: 3840, height: 2160 }) });
    const decision = decidePlayback(info, opts());
    expect(decision.delivery).toBe('transcode');
    if (decision.delivery !== 'transcode') return;
    expect(decision.variants.map((v) => [planId(v.plan), v.width, v.height])).toEqual([
      ['v1080.a1c', 1920, 1080],
      ['v720.a1c', 1280, 720],
      ['v480.a1c', 854, 480],
      ['v360.a1c', 640, 360],
    ]);
  });

  it('copies HEVC to a device that decodes it, and plays 10-bit only where the device says so', () => {
    const hevc10 = media({ formatName: 'mov,mp4', video: video({ codec: 'hevc', bitDepth: 10 }) });
    expect(
      decidePlayback(hevc10, opts({ device: deviceCodecs('hevc,aac,mp4'), format: 'mp4' })).delivery,
    ).toBe('transcode');
    expect(
      decidePlayback(hevc10, opts({ device: deviceCodecs('hevc,hevc-10,aac,mp4'), format: 'mp4' })).delivery,
    ).toBe('direct');
  });

  it('transcodes AVI MPEG-4 Part 2 and MPEG-2 recordings', () => {
    for (const codec of ['mpeg4', 'mpeg2video']) {
      const decision = decidePlayback(
        media({ formatName: 'avi', video: video({ codec, height: 576, width: 720 }) }),
        opts({ format: 'other' }),
      );
      expect(decision.delivery).toBe('transcode');
    }
  });

  it('remuxes a file with two audio tracks (a file cannot switch them) and starts with the preferred language', () => {
    const info = media({
      audio: [audio(1, { language: 'eng' }), audio(2, { language: 'fre', isDefault: false })],
    });
    const decision = decidePlayback(info, opts({ audioLanguage: 'fr' }));
    expect(decision).toMatchObject({ delivery: 'remux', audioIndex: 2 });
    expect(decidePlayback(info, opts({ audioLanguage: 'de' }))).toMatchObject({ audioIndex: 1 });
  });

  it('without ffmpeg offers what the device plays as it is, and says why when nothing plays', () => {
    const ac3 = media({ audio: [audio(1, { codec: 'ac3' })] });
    expect(decidePlayback(ac3, opts({ canConvert: false })).delivery).toBe('direct');
    // Two tracks and no ffmpeg: the file as it is, with the track the browser plays (its default).
    const two = media({
      audio: [audio(1, { language: 'eng' }), audio(2, { language: 'fre', isDefault: false })],
    });
    expect(decidePlayback(two, opts({ canConvert: false, audioLanguage: 'fr' }))).toMatchObject({
      delivery: 'direct',
      audioIndex: 1,
    });
    const hevc = media({ video: video({ codec: 'hevc' }) });
    expect(decidePlayback(hevc, opts({ canConvert: false }))).toEqual({
      delivery: 'unplayable',
      reason: 'no_ffmpeg',
    });
    expect(decidePlayback(media({ video: null }), opts())).toEqual({
      delivery: 'unplayable',
      reason: 'no_video',
    });
    expect(decidePlayback(media({ video: video({ codec: 'cinepak_unknown' }) }), opts())).toEqual({
      delivery: 'unplayable',
      reason: 'unsupported_codec',
    });
  });

  it('refuses a transcode on a server that does not transcode (TRANSCODE_MAX=0), but still remuxes', () => {
    const hevc = media({ video: video({ codec: 'hevc' }) });
    expect(decidePlayback(hevc, opts({ canTranscode: false }))).toEqual({
      delivery: 'unplayable',
      reason: 'no_transcode',
    });
    const ac3 = media({ audio: [audio(1, { codec: 'ac3' })] });
    expect(decidePlayback(ac3, opts({ canTranscode: false })).delivery).toBe('remux');
  });

  it('treats a client that sends no codecs as any browser: Matroska is remuxed, not risked', () => {
    expect(decidePlayback(media(), opts({ device: deviceCodecs(undefined) })).delivery).toBe('remux');
    expect(
      decidePlayback(
        media({ formatName: 'mov,mp4' }),
        opts({ device: deviceCodecs(undefined), format: 'mp4' }),
      ).delivery,
    ).toBe('direct');
  });
});

describe('pickAudio', () => {
  it('prefers the language, then the default track, then the first', () => {
    const tracks = [
      audio(1, { language: 'eng', isDefault: false }),
      audio(2, { language: 'jpn', isDefault: true }),
    ];
    expect(pickAudio(tracks, 'en')?.index).toBe(1);
    expect(pickAudio(tracks, 'fr')?.index).toBe(2);
    expect(pickAudio([], 'fr')).toBeNull();
  });
});

describe('plan ids', () => {
  const info = media({
    audio: [audio(1, { codec: 'ac3' }), audio(2)],
    subtitles: [
      {
        index: 3,
        codec: 'hdmv_pgs_subtitle',
        kind: 'image',
        language: 'eng',
        title: null,
        isDefault: false,
        isForced: false,
        isHearingImpaired: false,
      },
      {
        index: 4,
        codec: 'subrip',
        kind: 'text',
        language: 'eng',
        title: null,
        isDefault: false,
        isForced: false,
        isHearingImpaired: false,
      },
    ],
  });

  it('round-trips and accepts only plans that fit the file', () => {
    expect(parsePlanId('vc.a2c', info)).toEqual({
      video: 'copy',
      audio: { index: 2, mode: 'copy' },
      burn: null,
    });
    expect(planId(parsePlanId('v720.a1t.b3', info)!)).toBe('v720.a1t.b3');
    expect(parsePlanId('vc.an', info)).toEqual({ video: 'copy', audio: null, burn: null });
  });

  it('refuses streams the file lacks, copies the segments cannot carry and text subtitles to burn', () => {
    for (const id of [
      'vc.a9t',
      'v720.a4t',
      'v999.a1t',
      'vc.a1t.b3',
      'v720.a1t.b4',
      'v720.a1t.b9',
      '../x',
      'vc.a1t;rm',
    ]) {
      expect(parsePlanId(id, info)).toBeNull();
    }
    expect(parsePlanId('vc.a1t', media({ video: video({ codec: 'mpeg4' }) }))).toBeNull();
  });
});
