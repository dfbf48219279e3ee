import { describe, expect, it } from 'vitest';
import { qualityOfHeight } from './hls-adapter.ts';
import { hlsError, mediaErrorCode } from './media-error.ts';
import { bisectionOrder } from './thumbnails.ts';

describe('display helpers', () => {
  it('maps MediaError codes to aborted, network, decode, not supported, generic', () => {
    expect([1, 2, 3, 4, 5, undefined].map(mediaErrorCode)).toEqual([
      'aborted',
      'network',
      'decode',
      'notSupported',
      'generic',
      'generic',
    ]);
    expect(hlsError('networkError', 'manifestLoadError')).toEqual({
      source: 'hls',
      code: 'network',
      message: 'manifestLoadError',
    });
    expect(hlsError('mediaError', 'bufferAppendError').code).toBe('decode');
    expect(hlsError('otherError', 'x').code).toBe('generic');
  });

  it('maps HLS level heights to qualities', () => {
    expect([2160, 1080, 720, 480, 360, 240].map(qualityOfHeight)).toEqual([
      '4k',
      '1080',
      '720',
      '480',
      '360',
      null,
    ]);
  });

  it('thumbnails in progressive bisection order: 0, end, ½, ¼, ¾, ⅛ …', () => {
    const order = bisectionOrder();
    expect(order).toHaveLength(65);
    expect(order.slice(0, 7)).toEqual([0, 1, 0.5, 0.25, 0.75, 0.125, 0.375]);
    expect(new Set(order).size).toBe(65);
  });
});
