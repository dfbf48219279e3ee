import { describe, expect, it } from 'vitest';
import { containerOf, isSubtitleText } from './media-signature.ts';

const bytes = (...parts: (number[] | string)[]) =>
  new Uint8Array(
    Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p)))),
  );

describe('containerOf', () => {
  it('recognises MP4/MOV boxes, Matroska/WebM and MPEG-TS by their first bytes', () => {
    expect(containerOf(bytes([0, 0, 0, 0x20], 'ftypisom'), 5_000)).toBe('iso-bmff');
    expect(containerOf(bytes([0, 0, 0, 0x08], 'wide'), 5_000)).toBe('iso-bmff');
    expect(containerOf(bytes([0x1a, 0x45, 0xdf, 0xa3, 0x01]), 5_000)).toBe('matroska');
    const ts = new Uint8Array(188 * 3);
    for (let i = 0; i < 3; i++) ts[i * 188] = 0x47;
    expect(containerOf(ts, ts.length)).toBe('mpeg-ts');
    const m2ts = new Uint8Array(192 * 3);
    for (let i = 0; i < 3; i++) m2ts[i * 192 + 4] = 0x47;
    expect(containerOf(m2ts, m2ts.length)).toBe('mpeg-ts');
  });

  it('refuses text, other formats and implausible box sizes', () => {
    expect(containerOf(bytes('root:x:0:0:root:/root:/bin/bash\n'), 32)).toBeNull();
    expect(containerOf(bytes('%PDF-1.7\n'), 9)).toBeNull();
    expect(containerOf(bytes('abcdftyp'), 100)).toBeNull();
    expect(containerOf(bytes([0, 0, 0, 0x20], 'ftypisom'), 16)).toBeNull();
    expect(containerOf(bytes('G not a transport stream'), 24)).toBeNull();
    expect(containerOf(new Uint8Array(0), 0)).toBeNull();
  });
});

describe('isSubtitleText', () => {
  it('accepts SRT and WebVTT in UTF-8 (with or without BOM) and UTF-16; refuses binary and other text', () => {
    expect(isSubtitleText(bytes('1\r\n00:00:01,000 --> 00:00:02,000\r\nHi\r\n'))).toBe(true);
    expect(isSubtitleText(bytes([0xef, 0xbb, 0xbf], 'WEBVTT\n'))).toBe(true);
    expect(
      isSubtitleText(new Uint8Array(Buffer.from('\ufeff1\n00:00:01,000 --> 00:00:02,000\n', 'utf16le'))),
    ).toBe(true);
    expect(isSubtitleText(bytes([0x00, 0x01, 0x02]))).toBe(false);
    expect(isSubtitleText(bytes('root:x:0:0:root:/root:/bin/bash\n'))).toBe(false);
  });
});
