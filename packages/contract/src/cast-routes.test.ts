import { describe, expect, it } from 'vitest';
import { CAST_CAPTION_ID, isWebVtt } from './cast-routes.ts';

describe('captions relayed for casting (decision 113)', () => {
  it('are WebVTT by their signature line', () => {
    for (const text of [
      'WEBVTT',
      'WEBVTT\n\n',
      '\uFEFFWEBVTT\r\n',
      'WEBVTT - Kind: captions\n',
      'WEBVTT\tx\r',
    ])
      expect(isWebVtt(text), JSON.stringify(text)).toBe(true);
    for (const text of ['', 'WEBVTTX\n', ' WEBVTT\n', 'webvtt\n', '1\n00:00:01,000 --> 00:00:02,000\nSRT\n'])
      expect(isWebVtt(text), JSON.stringify(text)).toBe(false);
  });

  it('have ids of 22 base64url characters', () => {
    expect(CAST_CAPTION_ID.test('AbcdEfgh_-0123456789xy')).toBe(true);
    expect(CAST_CAPTION_ID.test('AbcdEfgh_-0123456789x')).toBe(false);
    expect(CAST_CAPTION_ID.test('AbcdEfgh_-0123456789x/')).toBe(false);
  });
});
