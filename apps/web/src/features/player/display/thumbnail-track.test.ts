import { describe, expect, it } from 'vitest';
import { cuesByImage, parseThumbnailTrack, thumbnailTrackOf } from './thumbnail-track.ts';

const TRACK_URL = 'https://watch.example/api/sources/library/tok/abc/thumbnails/thumbnails.vtt';
const base = 'https://watch.example/api/sources/library/tok/abc/thumbnails/';

describe('the thumbnail track', () => {
  it("reads the server's cues: times, sprite URLs beside the track, tiles", () => {
    const vtt = [
      'WEBVTT',
      '',
      '00:00:00.000 --> 00:00:10.000',
      'sprite-0.jpg#xywh=0,0,320,180',
      '',
      '00:00:10.000 --> 00:00:20.000',
      'sprite-0.jpg#xywh=320,0,320,180',
      '',
      '00:16:40.000 --> 00:16:43.500',
      'sprite-1.jpg#xywh=0,0,320,180',
      '',
    ].join('\n');
    expect(parseThumbnailTrack(vtt, TRACK_URL)).toEqual([
      { start: 0, end: 10, url: `${base}sprite-0.jpg`, tile: { x: 0, y: 0, width: 320, height: 180 } },
      { start: 10, end: 20, url: `${base}sprite-0.jpg`, tile: { x: 320, y: 0, width: 320, height: 180 } },
      { start: 1000, end: 1003.5, url: `${base}sprite-1.jpg`, tile: { x: 0, y: 0, width: 320, height: 180 } },
    ]);
  });

  it('takes what other WebVTT thumbnail tracks write: cue ids, short times, CRLF, whole images, pixel:', () => {
    const vtt =
      '\uFEFFWEBVTT - thumbs\r\n\r\nNOTE made elsewhere\r\n\r\n1\r\n00:05.000 --> 00:10.000\r\n' +
      'https://cdn.example/t/1.jpg\r\n\r\ntwo\r\n01:00:00,000 --> 01:00:05,000\r\n' +
      '/img/s.jpg#xywh=pixel:10,20,30,40\r\n';
    expect(parseThumbnailTrack(vtt, TRACK_URL)).toEqual([
      { start: 5, end: 10, url: 'https://cdn.example/t/1.jpg', tile: null },
      {
        start: 3600,
        end: 3605,
        url: 'https://watch.example/img/s.jpg',
        tile: { x: 10, y: 20, width: 30, height: 40 },
      },
    ]);
  });

  it('has nothing for text that is not WebVTT, and skips cues without an image or with another scheme', () => {
    expect(parseThumbnailTrack('<html>not found</html>', TRACK_URL)).toEqual([]);
    expect(parseThumbnailTrack('', TRACK_URL)).toEqual([]);
    const vtt = [
      'WEBVTT',
      '',
      '00:00:00.000 --> 00:00:10.000',
      '',
      '00:00:10.000 --> 00:00:20.000',
      'javascript:alert(1)',
      '',
      '00:00:20.000 --> 00:00:20.000',
      'a.jpg',
      '',
      '00:00:30.000 --> 00:00:40.000',
      'data:image/png;base64,AAAA',
      '',
      '00:00:40.000 --> 00:00:50.000',
      'b.jpg#xywh=1,2,3',
    ].join('\n');
    expect(parseThumbnailTrack(vtt, TRACK_URL)).toEqual([
      { start: 40, end: 50, url: `${base}b.jpg`, tile: null },
    ]);
  });

  it('groups cues by image, in the order the track names them', () => {
    const cue = (url: string, start: number) => ({ start, end: start + 10, url, tile: null });
    const groups = cuesByImage([cue('a', 0), cue('b', 10), cue('a', 20)]);
    expect([...groups.keys()]).toEqual(['a', 'b']);
    expect(groups.get('a')!.map((c) => c.start)).toEqual([0, 20]);
  });

  it("finds a source's server thumbnails, when it has them", () => {
    expect(thumbnailTrackOf({ type: 'hls', url: 'https://x/master.m3u8' })).toBeNull();
    const withTrack = { type: 'hls' as const, url: 'https://x/master.m3u8', thumbnails: TRACK_URL };
    expect(thumbnailTrackOf(withTrack)).toBe(TRACK_URL);
  });
});
