import { describe, expect, it } from 'vitest';
import {
  CaptionParseError,
  formatSrtTime,
  parseCaptionFile,
  parseCaptions,
  parseCueTime,
  toSrt,
  visibleCues,
} from './parse.ts';

const SRT = `1
00:00:01,000 --> 00:00:03,500
Hello there

2
00:00:04,000 --> 00:00:06,000
Two lines
of text
`;

const VTT = `WEBVTT - sample

NOTE a comment
that spans lines

STYLE
::cue { color: red }

intro
00:00:01.000 --> 00:00:02.000 align:start position:10%
<v Bob>Hi</v>

00:03.500 --> 00:05.000
Short timestamps
`;

describe('caption parsing', () => {
  it('reads SRT cues', () => {
    expect(parseCaptions(SRT)).toEqual([
      { start: 1, end: 3.5, text: 'Hello there' },
      { start: 4, end: 6, text: 'Two lines\nof text' },
    ]);
  });

  it('reads WebVTT cues, skipping NOTE and STYLE blocks, with cue ids, settings and short timestamps', () => {
    expect(parseCaptions(VTT)).toEqual([
      { start: 1, end: 2, text: '<v Bob>Hi</v>' },
      { start: 3.5, end: 5, text: 'Short timestamps' },
    ]);
  });

  it('handles a BOM and CRLF line ends', () => {
    const text = `\uFEFF${SRT.replace(/\n/g, '\r\n')}`;
    expect(parseCaptions(text)).toHaveLength(2);
  });

  it('"Given text is empty" for empty or blank input', () => {
    expect(() => parseCaptions('')).toThrow('Given text is empty');
    expect(() => parseCaptions(' \n\t\n')).toThrow(CaptionParseError);
  });

  it('sets the code of a refusal where it throws: empty or invalid', async () => {
    const codeOf = (text: string) => {
      try {
        parseCaptions(text);
      } catch (error) {
        return error instanceof CaptionParseError ? error.code : 'not a parse error';
      }
      return 'parsed';
    };
    expect(codeOf(' \n')).toBe('empty');
    expect(codeOf('WEBVTT\n\nno timing here')).toBe('invalid');
    await expect(parseCaptionFile('movie.ass', '')).rejects.toMatchObject({ code: 'empty' });
    await expect(parseCaptionFile('movie.sbv', 'garbage')).rejects.toMatchObject({ code: 'invalid' });
  });

  it('"Invalid subtitle format" when nothing is a cue', () => {
    expect(() => parseCaptions('<html><body>not captions</body></html>')).toThrow('Invalid subtitle format');
    expect(() => parseCaptions('WEBVTT\n\nno timing here')).toThrow('Invalid subtitle format');
    expect(() => parseCaptions('1\n00:00:05,000 --> 00:00:01,000\nends before it starts')).toThrow(
      'Invalid subtitle format',
    );
    expect(() => parseCaptions('1\n00:00:99,000 --> 00:01:00,000\nbad seconds')).toThrow(
      'Invalid subtitle format',
    );
  });

  it('timestamps', () => {
    expect(parseCueTime('01:02:03,456')).toBeCloseTo(3723.456);
    expect(parseCueTime('02:03.4')).toBeCloseTo(123.4);
    expect(parseCueTime('nope')).toBeNaN();
    expect(formatSrtTime(3723.456)).toBe('01:02:03,456');
    expect(formatSrtTime(-1)).toBe('00:00:00,000');
  });

  it('round-trips to SRT', () => {
    expect(parseCaptions(toSrt(parseCaptions(VTT)))).toEqual(parseCaptions(VTT));
  });

  it('shows cues between start + delay and end + delay', () => {
    const cues = parseCaptions(SRT);
    expect(visibleCues(cues, 1.5, 0).map((c) => c.text)).toEqual(['Hello there']);
    expect(visibleCues(cues, 1.5, 1)).toEqual([]);
    expect(visibleCues(cues, 4.4, 1).map((c) => c.text)).toEqual(['Hello there']);
    expect(visibleCues(cues, 0.5, -0.6).map((c) => c.text)).toEqual(['Hello there']);
  });

  it('uploads: SRT/VTT here, other formats through subsrt-ts', async () => {
    expect(await parseCaptionFile('movie.srt', SRT)).toHaveLength(2);
    const sbv = '0:00:01.000,0:00:02.000\nFrom SBV\n\n0:00:03.000,0:00:04.000\nSecond\n';
    expect(await parseCaptionFile('movie.sbv', sbv)).toEqual([
      { start: 1, end: 2, text: 'From SBV' },
      { start: 3, end: 4, text: 'Second' },
    ]);
    await expect(parseCaptionFile('movie.ass', '')).rejects.toThrow('Given text is empty');
    await expect(parseCaptionFile('movie.sbv', 'garbage')).rejects.toThrow('Invalid subtitle format');
  });
});
