import { describe, expect, it } from 'vitest';
import { libraryMediaOf, librarySegmentsPath, segmentMarkProblem } from './segment-routes.ts';

describe('segment marks (decision 111)', () => {
  it('fit the video: 3 s at least, a type’s most at most, ending within the runtime', () => {
    expect(segmentMarkProblem('intro', 10, 40, 1_320)).toBeNull();
    expect(segmentMarkProblem('credits', 1_300, 1_320.8, 1_320)).toBeNull();
    expect(segmentMarkProblem('credits', 120, 1_320, 7_200)).toBeNull();
    expect(segmentMarkProblem('intro', 10, 12, 1_320)).toMatch(/at least 3 s/);
    expect(segmentMarkProblem('intro', 40, 10, 1_320)).toMatch(/after the start/);
    expect(segmentMarkProblem('intro', -1, 10, 1_320)).toMatch(/≥ 0/);
    expect(segmentMarkProblem('intro', 0, 301, 1_320)).toMatch(/at most 300 s/);
    expect(segmentMarkProblem('credits', 1_300, 1_322, 1_320)).toMatch(/after the video/);
    expect(segmentMarkProblem('recap', 0, 30, null)).toMatch(/not known/);
  });

  it('are made under the access token of the video’s own media URLs', () => {
    const access = 'tqz9k1.s1396.~.AAAAAAAAAAAAAAAAAAAAAA';
    const fileId = 'BBBBBBBBBBBBBBBBBBBBBB';
    for (const url of [
      `https://tv.example/api/sources/library/${access}/${fileId}/Show%20S01E01.mkv`,
      `https://tv.example/api/sources/library/${access}/${fileId}/hls/v-copy.a-0/master.m3u8`,
    ])
      expect(libraryMediaOf(url)).toEqual({ access, fileId });
    expect(libraryMediaOf('https://tv.example/api/sources/sample/x/hls/master.m3u8')).toBeNull();
    expect(librarySegmentsPath(access, fileId)).toBe(`/api/sources/library/${access}/${fileId}/segments`);
  });
});
