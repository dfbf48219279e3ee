import { describe, expect, it } from 'vitest';
import { gridSegments, keyframeSegments } from './hls-segments.ts';
import { codecsOf, masterPlaylist, mediaPlaylist } from './hls-playlists.ts';
import type { MediaInfo } from './media-info.ts';
import { hlsVariants } from './playback-plan.ts';

describe('segments', () => {
  it('puts a transcode on a 4 s grid and keeps a few milliseconds of tail in the last segment', () => {
    expect(gridSegments(12.005).map((s) => [s.start, s.firstChunk, +s.duration.toFixed(3)])).toEqual([
      [0, 0, 4],
      [4, 1, 4],
      [8, 2, 4.005],
    ]);
    expect(gridSegments(13).length).toBe(4);
    expect(gridSegments(0.2)).toEqual([{ start: 0, duration: 0.2, firstChunk: 0, chunks: 1 }]);
  });

  it('groups a copied video’s GOPs into segments of about 4 s, starting at 0', () => {
    // Keyframes every 2.5 s (the first one a little after 0, B-frame delay), 30 s in all.
    const keyframes = Array.from({ length: 12 }, (_, i) => 0.005 + i * 2.5);
    const segments = keyframeSegments(keyframes, 30);
    expect(segments[0]).toEqual({ start: 0, duration: 5.005, firstChunk: 0, chunks: 2 });
    expect(
      segments.every(
        (s, i) => i === 0 || s.firstChunk === segments[i - 1]!.firstChunk + segments[i - 1]!.chunks,
      ),
    ).toBe(true);
    expect(segments.reduce((sum, s) => sum + s.duration, 0)).toBeCloseTo(30, 6);
    // Long GOPs (10 s) are one segment each; a short tail joins the last one.
    expect(keyframeSegments([0, 10, 20], 20.5).map((s) => [s.start, s.chunks])).toEqual([
      [0, 1],
      [10, 2],
    ]);
    expect(keyframeSegments([0, 4, 8, 11.9], 12).map((s) => s.chunks)).toEqual([1, 1, 2]);
  });
});

describe('playlists', () => {
  const info: MediaInfo = {
    formatName: 'matroska,webm',
    duration: 8,
    bitRate: 2_000_000,
    video: {
      index: 0,
      codec: 'h264',
      profile: 'High',
      level: 41,
      pixelFormat: 'yuv420p',
      bitDepth: 8,
      width: 1920,
      height: 800,
      frameRate: 23.976,
      dynamicRange: 'sdr',
      bitRate: null,
    },
    audio: [
      {
        index: 1,
        codec: 'eac3',
        profile: null,
        channels: 6,
        channelLayout: '5.1',
        sampleRate: 48000,
        language: 'eng',
        title: null,
        isDefault: true,
        bitRate: 640_000,
      },
    ],
    subtitles: [],
    chapters: [],
  };

  it('names each rendition with relative URIs, its size and codecs', () => {
    const variants = hlsVariants(info, info.video!, { copy: true, audio: { index: 1, mode: 'aac' } });
    expect(codecsOf(variants[0]!, info)).toBe('avc1.640029,mp4a.40.2');
    const text = masterPlaylist(variants, info);
    expect(text).toContain(
      'RESOLUTION=1920x800,CODECS="avc1.640029,mp4a.40.2",FRAME-RATE=23.976\n../vc.a1t/index.m3u8',
    );
    expect(text).toContain('RESOLUTION=1280x534,CODECS="avc1.640028,mp4a.40.2"');
    // A copied E-AC3 track is named for the devices that decode it.
    const copied = hlsVariants(info, info.video!, { copy: true, audio: { index: 1, mode: 'copy' } });
    expect(codecsOf(copied[0]!, info)).toBe('avc1.640029,ec-3');
  });

  it('lists every segment of a VOD rendition behind one init segment', () => {
    const text = mediaPlaylist(gridSegments(8.4));
    expect(text).toBe(
      [
        '#EXTM3U',
        '#EXT-X-VERSION:7',
        '#EXT-X-TARGETDURATION:5',
        '#EXT-X-PLAYLIST-TYPE:VOD',
        '#EXT-X-MEDIA-SEQUENCE:0',
        '#EXT-X-INDEPENDENT-SEGMENTS',
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXTINF:4.000000,',
        '0.m4s',
        '#EXTINF:4.400000,',
        '1.m4s',
        '#EXT-X-ENDLIST',
        '',
      ].join('\n'),
    );
  });
});
