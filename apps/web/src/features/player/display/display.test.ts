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
    expect(hlsError({ type: 'networkError', details: 'manifestLoadError' })).toEqual({
      source: 'hls',
      code: 'network',
      message: 'manifestLoadError',
    });
    expect(hlsError({ type: 'mediaError', details: 'bufferAppendError' }).code).toBe('decode');
    expect(hlsError({ type: 'otherError', details: 'x' }).code).toBe('generic');
  });

  describe('a library conversion the server refused while playing', () => {
    const errorBody = (code: string) =>
      JSON.stringify({ errorType: 'message', code, message: `refused: ${code}` });
    /** The request hls.js keeps: an XMLHttpRequest answered with `status` and `body`. */
    const xhrWith = (status: number, body: string, responseType: XMLHttpRequestResponseType) => {
      const xhr = new XMLHttpRequest();
      const bytes = new TextEncoder().encode(body).buffer;
      Object.defineProperties(xhr, {
        status: { value: status },
        responseType: { value: responseType },
        response: { value: responseType === 'arraybuffer' ? bytes : body },
        responseText: {
          get: () => {
            if (responseType !== '' && responseType !== 'text')
              throw new DOMException('', 'InvalidStateError');
            return body;
          },
        },
      });
      return xhr;
    };

    it("reads a segment's JSON error body (bytes): conversion failed", () => {
      const error = hlsError({
        type: 'networkError',
        details: 'fragLoadError',
        response: { code: 502 },
        networkDetails: xhrWith(502, errorBody('conversion_failed'), 'arraybuffer'),
      });
      expect(error).toMatchObject({ code: 'network', serverCode: 'conversion_failed' });
      expect(error.message).toContain('502');
    });

    it("reads a playlist's JSON error body (text): server busy", () => {
      const error = hlsError({
        type: 'networkError',
        details: 'manifestLoadError',
        response: { code: 503 },
        networkDetails: xhrWith(503, errorBody('server_busy'), 'text'),
      });
      expect(error.serverCode).toBe('server_busy');
    });

    it('a 503 without a readable body is the server being busy; other statuses say nothing more', () => {
      const busy = { type: 'networkError', details: 'fragLoadError', response: { code: 503 } };
      expect(hlsError(busy).serverCode).toBe('server_busy');
      expect(
        hlsError({ ...busy, networkDetails: xhrWith(503, '<html>busy</html>', 'arraybuffer') }).serverCode,
      ).toBe('server_busy');
      expect(hlsError({ ...busy, response: { code: 502 } }).serverCode).toBeUndefined();
      expect(hlsError({ ...busy, response: { code: 404 } })).toEqual({
        source: 'hls',
        code: 'network',
        message: 'fragLoadError',
      });
      // A code the player has no words of its own for is left to the generic network text.
      expect(
        hlsError({
          ...busy,
          response: { code: 403 },
          networkDetails: xhrWith(403, errorBody('media_url_expired'), 'arraybuffer'),
        }).serverCode,
      ).toBeUndefined();
    });
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
