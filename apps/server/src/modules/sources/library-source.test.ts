import { describe, expect, it } from 'vitest';
import type { AudioStreamInfo, MediaInfo, SubtitleStreamInfo } from '../media/media-info.ts';
import { deviceCodecs, planId, type HlsPlan } from '../media/playback-plan.ts';
import type { LibraryVideo } from './library-index.ts';
import { libraryStream, type LibraryDevice, type LibraryUrls } from './library-source.ts';

// Picture subtitles (PGS, VobSub) of a library title: offered with a burned-in playlist per audio track
// (docs/decisions/085-library-pipeline.md), only where the server transcodes.

const CHROMIUM = deviceCodecs('h264,vp8,vp9,av1,aac,mp3,opus,vorbis,flac,mp4,webm,mkv');

const audio = (index: number, language: string, codec = 'aac', isDefault = false): AudioStreamInfo => ({
  index,
  codec,
  profile: null,
  channels: 2,
  channelLayout: 'stereo',
  sampleRate: 48000,
  language,
  title: null,
  isDefault,
  bitRate: 128_000,
});

const subtitle = (
  index: number,
  codec: string,
  language: string,
  o: Partial<SubtitleStreamInfo> = {},
): SubtitleStreamInfo => ({
  index,
  codec,
  kind: ['hdmv_pgs_subtitle', 'dvd_subtitle', 'dvb_subtitle'].includes(codec) ? 'image' : 'text',
  language,
  title: null,
  isDefault: false,
  isForced: false,
  isHearingImpaired: false,
  ...o,
});

function videoFile(o: { audio: AudioStreamInfo[]; subtitles: SubtitleStreamInfo[] }): LibraryVideo {
  const info: MediaInfo = {
    formatName: 'matroska,webm',
    duration: 600,
    bitRate: 4_000_000,
    video: {
      index: 0,
      codec: 'h264',
      profile: 'High',
      level: 40,
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      width: 1920,
      height: 800,
      frameRate: 24,
      dynamicRange: 'sdr',
      bitRate: 3_500_000,
    },
    audio: o.audio,
    subtitles: o.subtitles,
    chapters: [],
  };
  return {
    kind: 'video',
    id: 'AAAAAAAAAAAAAAAAAAAAAA',
    path: '/library/film.mkv',
    name: 'film.mkv',
    format: 'matroska',
    info,
    size: 1000,
    mtimeMs: 1,
    quality: '1080',
    subtitles: [],
  };
}

const urls: LibraryUrls = {
  file: (f) => `https://lib.test/${f.id}/${f.name}`,
  hls: (f, plan: HlsPlan) => `https://lib.test/${f.id}/hls/${planId(plan)}/master.m3u8`,
  subtitle: (f, index) => `https://lib.test/${f.id}/subtitles/${index ?? 'file'}.vtt`,
  ass: (f, index) => `https://lib.test/${f.id}/subtitles/${index ?? 'file'}.ass`,
};

const device = (o: Partial<LibraryDevice> = {}): LibraryDevice => ({
  codecs: CHROMIUM,
  canConvert: true,
  canTranscode: true,
  ...o,
});

describe('picture subtitles of a library title', () => {
  const pictures = [
    subtitle(3, 'subrip', 'eng'),
    subtitle(4, 'hdmv_pgs_subtitle', 'fre', { title: 'Français' }),
    subtitle(5, 'dvd_subtitle', 'eng', { isForced: true }),
    subtitle(6, 'dvb_subtitle', 'ger'),
  ];

  it('burns PGS and VobSub in at the top height, one playlist per audio track; forced first', () => {
    const file = videoFile({
      audio: [audio(1, 'eng', 'ac3', true), audio(2, 'fre')],
      subtitles: pictures,
    });
    const stream = libraryStream([file], urls, device())!;
    expect(stream.type).toBe('hls');
    const id = file.id;
    expect(stream.imageSubtitles).toEqual([
      {
        id: `library-${id}-5`,
        language: 'en',
        label: null,
        forced: true,
        format: 'vobsub',
        playlists: {
          // The AC3 track converted (the device has no AC3), the AAC one copied.
          '1': `https://lib.test/${id}/hls/v1080.a1t.b5/master.m3u8`,
          '2': `https://lib.test/${id}/hls/v1080.a2c.b5/master.m3u8`,
        },
      },
      {
        id: `library-${id}-4`,
        language: 'fr',
        label: 'Français',
        forced: false,
        format: 'pgs',
        playlists: {
          '1': `https://lib.test/${id}/hls/v1080.a1t.b4/master.m3u8`,
          '2': `https://lib.test/${id}/hls/v1080.a2c.b4/master.m3u8`,
        },
      },
    ]);
    // They are not captions; the text track is.
    expect(stream.captions.map((c) => c.id)).toEqual([`library-${id}-3`]);
    // The audio tracks' ids are the playlists' keys.
    expect(stream.audioTracks!.map((t) => t.id)).toEqual(['1', '2']);
  });

  it('offers a file that plays as it is the same way, with the one track it plays as `default`', () => {
    const file = videoFile({ audio: [audio(1, 'eng', 'aac', true)], subtitles: pictures.slice(1, 2) });
    const stream = libraryStream([file], urls, device())!;
    expect(stream).toMatchObject({ type: 'file', delivery: 'direct' });
    expect(stream.imageSubtitles?.[0]?.playlists).toEqual({
      default: `https://lib.test/${file.id}/hls/v1080.a1c.b4/master.m3u8`,
    });
  });

  it('offers none where the server may not transcode video, or cannot convert at all', () => {
    const file = videoFile({ audio: [audio(1, 'eng', 'aac', true)], subtitles: pictures });
    expect(libraryStream([file], urls, device({ canTranscode: false }))!.imageSubtitles).toBeUndefined();
    expect(
      libraryStream([file], urls, device({ canConvert: false, canTranscode: false }))!.imageSubtitles,
    ).toBeUndefined();
  });

  it('offers none for a file without picture subtitles', () => {
    const file = videoFile({ audio: [audio(1, 'eng', 'aac', true)], subtitles: pictures.slice(0, 1) });
    expect(libraryStream([file], urls, device())!.imageSubtitles).toBeUndefined();
  });
});

describe('ASS/SSA captions of a library title', () => {
  it('carry their own script beside the WebVTT, inside the file and beside it; other text has none', () => {
    const file = videoFile({
      audio: [audio(1, 'eng', 'aac', true)],
      subtitles: [subtitle(2, 'ass', 'fre'), subtitle(3, 'ssa', 'ger'), subtitle(4, 'subrip', 'eng')],
    });
    const sidecar = {
      kind: 'subtitle' as const,
      id: 'BBBBBBBBBBBBBBBBBBBBBB',
      path: '/library/film.es.ass',
      name: 'film.es.ass',
      format: 'ass' as const,
      type: 'vtt' as const,
      language: 'es',
      forced: false,
      hearingImpaired: false,
      isDefault: false,
      label: null,
    };
    const stream = libraryStream([{ ...file, subtitles: [sidecar] }], urls, device())!;
    const byLanguage = Object.fromEntries(stream.captions.map((c) => [c.language, c]));
    const id = file.id;
    expect(byLanguage.fr).toMatchObject({
      url: `https://lib.test/${id}/subtitles/2.vtt`,
      assUrl: `https://lib.test/${id}/subtitles/2.ass`,
    });
    expect(byLanguage.de).toMatchObject({ assUrl: `https://lib.test/${id}/subtitles/3.ass` });
    expect(byLanguage.en).not.toHaveProperty('assUrl');
    expect(byLanguage.es).toMatchObject({
      url: `https://lib.test/${sidecar.id}/subtitles/file.vtt`,
      assUrl: `https://lib.test/${sidecar.id}/subtitles/file.ass`,
    });
  });
});
