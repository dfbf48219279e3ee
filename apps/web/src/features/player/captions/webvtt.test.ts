import { describe, expect, it } from 'vitest';
import { parseCaptions } from './parse.ts';
import { formatVttTime, toWebVtt, vttCueText } from './webvtt.ts';

describe('the shown caption as WebVTT (decision 113)', () => {
  it('writes times as HH:MM:SS.mmm', () => {
    expect(formatVttTime(0)).toBe('00:00:00.000');
    expect(formatVttTime(3725.0456)).toBe('01:02:05.046');
    expect(formatVttTime(-3)).toBe('00:00:00.000');
  });

  it('shifts cues by the viewer’s delay, leaving out those that end before the start', () => {
    const cues = [
      { start: 0.5, end: 1, text: 'Gone' },
      { start: 1, end: 3, text: 'Cut' },
      { start: 10, end: 12, text: 'Later' },
      { start: 20, end: 20, text: 'Never shown' },
    ];
    expect(toWebVtt(cues, { delay: -1.5 })).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nCut\n\n00:00:08.500 --> 00:00:10.500\nLater\n',
    );
    expect(toWebVtt([])).toBe('WEBVTT\n\n\n');
  });

  it('keeps b, i and u, turns <br> into a line, drops other tags, and escapes the rest', () => {
    expect(vttCueText('<i>Hi</i> <font color="#fff">there</font><br/>Tom & Jerry')).toBe(
      '<i>Hi</i> there\nTom &amp; Jerry',
    );
    expect(vttCueText('a --> b < c &amp; d &nbsp; &#233;')).toBe('a --&gt; b &lt; c &amp; d &nbsp; &#233;');
    expect(vttCueText('<B>Loud</B>\r\n\r\n\r\nafter a gap\u0000')).toBe('<b>Loud</b>\nafter a gap');
    expect(vttCueText('<c.yellow>Bob</c> <v Ana>hi')).toBe('Bob hi');
  });

  it('reads the casing fix and the standalone "i" as the page shows them', () => {
    expect(toWebVtt([{ start: 1, end: 2, text: 'WHERE AM i NOW' }], { fixCapitalisation: true })).toContain(
      '\nWhere am I now\n',
    );
    expect(toWebVtt([{ start: 1, end: 2, text: 'i think' }])).toContain('\nI think\n');
  });

  it('makes a file the player’s own parser reads back to the same cues', () => {
    const cues = [
      { start: 1.25, end: 2.5, text: '<i>One</i>' },
      { start: 61, end: 3725.5, text: 'Two\nlines' },
    ];
    expect(parseCaptions(toWebVtt(cues))).toEqual(cues);
  });
});
