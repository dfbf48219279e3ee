import { describe, expect, it } from 'vitest';
import { QualitySelectionError, qualityRanks, selectQuality, sortQualities } from './quality.ts';

const manual = (q: Parameters<typeof selectQuality>[1]['lastChosenQuality']) => ({
  automaticQuality: false,
  lastChosenQuality: q,
});
const auto = { automaticQuality: true, lastChosenQuality: null };

describe('quality selection', () => {
  it('ranks unknown 0, 360p 10, 480p 20, 720p 30, 4k 35, 1080p 40', () => {
    expect(qualityRanks).toEqual({ unknown: 0, '360': 10, '480': 20, '720': 30, '4k': 35, '1080': 40 });
    expect(sortQualities(['360', '4k', 'unknown', '1080', '720', '480'])).toEqual([
      '1080',
      '4k',
      '720',
      '480',
      '360',
      'unknown',
    ]);
  });

  it('automatic picks the best-ranked available, 1080p above 4k', () => {
    expect(selectQuality(['360', '720', '480'], auto)).toBe('720');
    expect(selectQuality(['4k', '1080'], auto)).toBe('1080');
    expect(selectQuality(['unknown'], auto)).toBe('unknown');
  });

  it('no preference behaves as automatic', () => {
    expect(selectQuality(['360', '720'], manual(null))).toBe('720');
  });

  it('the last chosen quality when it is available', () => {
    expect(selectQuality(['360', '480', '720'], manual('480'))).toBe('480');
    expect(selectQuality(['unknown', '720'], manual('unknown'))).toBe('unknown');
  });

  it('otherwise the nearest higher rank first', () => {
    expect(selectQuality(['360', '720', '1080'], manual('480'))).toBe('720');
    // 720p wanted; 4k (35) is the nearest higher rank, before 1080p (40).
    expect(selectQuality(['360', '4k', '1080'], manual('720'))).toBe('4k');
    expect(selectQuality(['1080', '360'], manual('4k'))).toBe('1080');
  });

  it('then the nearest lower rank', () => {
    expect(selectQuality(['360', '480'], manual('720'))).toBe('480');
    expect(selectQuality(['unknown', '360'], manual('1080'))).toBe('360');
    expect(selectQuality(['unknown'], manual('480'))).toBe('unknown');
  });

  it('fails with "couldn\'t select quality" when nothing is available', () => {
    expect(() => selectQuality([], auto)).toThrow(QualitySelectionError);
    expect(() => selectQuality([], manual('720'))).toThrow("couldn't select quality");
  });

  it('ignores duplicates and unknown names', () => {
    expect(selectQuality(['720', '720', 'bogus' as never], auto)).toBe('720');
  });
});
