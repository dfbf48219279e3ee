import { describe, expect, it } from 'vitest';
import { chapterSegments, segmentTypeOfTitle } from './chapter-segments.ts';

describe('segments from chapter titles (decision 111)', () => {
  it.each([
    ['Intro', 'intro'],
    ['Opening', 'intro'],
    ['OP', 'intro'],
    ['OP2', 'intro'],
    ['Opening Credits', 'intro'],
    ['Générique', 'intro'],
    ['Vorspann', 'intro'],
    ['オープニング', 'intro'],
    ['Recap', 'recap'],
    ['Previously on…', 'recap'],
    ['Résumé', 'recap'],
    ['Was bisher geschah', 'recap'],
    ['Credits', 'credits'],
    ['End Credits', 'credits'],
    ['Ending', 'credits'],
    ['ED', 'credits'],
    ['ED 1', 'credits'],
    ['GÉNÉRIQUE DE FIN', 'credits'],
    ['Abspann', 'credits'],
    ['エンディング', 'credits'],
    ['Preview', 'preview'],
    ['Next Time', 'preview'],
    ['Next Episode Preview', 'preview'],
    ['Prochainement', 'preview'],
    ['次回予告', 'preview'],
  ] as const)('%s → %s', (title, type) => {
    expect(segmentTypeOfTitle(title)).toBe(type);
  });

  it.each(['Chapter 3', 'Episode', 'Top secret', 'Edit', 'Opening scene', 'The Opera', 'Part 1', ''])(
    '%s names no segment',
    (title) => {
      expect(segmentTypeOfTitle(title)).toBeNull();
    },
  );

  it('takes the first intro and the last credits, joins consecutive chapters of one type, skips odd lengths', () => {
    expect(
      chapterSegments([
        { start: 0, end: 60, title: 'Prologue' },
        { start: 60, end: 90, title: 'Opening' },
        { start: 90, end: 1200, title: 'Part A' },
        { start: 1200, end: 1200.5, title: 'Intro' },
        { start: 1250, end: 1300, title: 'Credits' },
        { start: 1300, end: 1330, title: 'Credits (cont.)' },
        { start: 1330, end: 1360, title: 'Next time' },
        { start: 1360, end: 1360, title: 'Recap' },
      ]),
    ).toEqual([
      { type: 'intro', start: 60, end: 90 },
      { type: 'credits', start: 1250, end: 1330 },
      { type: 'preview', start: 1330, end: 1360 },
    ]);
    expect(chapterSegments([{ start: 0, end: 3600, title: 'Intro' }])).toEqual([]);
  });
});
