import { describe, expect, it } from 'vitest';
import { isReleased, isTitleReleased, releaseDay } from './release.ts';

const now = new Date('2026-04-20T10:00:00Z');

describe('isReleased (the one release rule)', () => {
  it('a date today or earlier is released', () => {
    expect(isReleased('2026-04-20', now)).toBe(true);
    expect(isReleased('2026-04-19', now)).toBe(true);
    expect(isReleased('1999-03-31', now)).toBe(true);
  });

  it('a date after today is not released, even later today in another time zone', () => {
    expect(isReleased('2026-04-21', now)).toBe(false);
    expect(isReleased('2027-01-01', now)).toBe(false);
    // The day is the UTC day: just before midnight UTC it is still the 20th.
    expect(isReleased('2026-04-21', new Date('2026-04-20T23:59:59Z'))).toBe(false);
    expect(isReleased('2026-04-21', new Date('2026-04-21T00:00:00Z'))).toBe(true);
  });

  it.each([[null], [undefined], [''], ['   '], ['not a date'], ['2026-13-01'], ['2026-00-10'], [0], [NaN]])(
    'no date (%j) is not released',
    (value) => {
      expect(isReleased(value, now)).toBe(false);
    },
  );

  it('a year-only value counts from its first day: this year and before are out, a future year is not', () => {
    expect(isReleased('2026', now)).toBe(true);
    expect(isReleased(2026, now)).toBe(true);
    expect(isReleased(1999, now)).toBe(true);
    expect(isReleased('2027', now)).toBe(false);
    expect(isReleased(2027, now)).toBe(false);
    expect(isReleased('2026-05', now)).toBe(false);
    expect(isReleased('2026-04', now)).toBe(true);
  });

  it('reads a full timestamp by its day', () => {
    expect(isReleased('2026-04-20T23:00:00Z', now)).toBe(true);
    expect(isReleased('2026-04-21T00:00:00Z', now)).toBe(false);
  });
});

describe('isTitleReleased', () => {
  it('uses the date when there is one, whatever the year says', () => {
    expect(isTitleReleased({ releaseDate: '2026-12-18', year: 2026 }, now)).toBe(false);
    expect(isTitleReleased({ releaseDate: '2026-01-02', year: 2026 }, now)).toBe(true);
  });

  it('falls back to the year when the date is empty (library entries keep only the year)', () => {
    expect(isTitleReleased({ releaseDate: null, year: 2024 }, now)).toBe(true);
    expect(isTitleReleased({ releaseDate: '', year: 2027 }, now)).toBe(false);
  });

  it('a title with neither date nor year is not released', () => {
    expect(isTitleReleased({ releaseDate: '', year: null }, now)).toBe(false);
    expect(isTitleReleased({}, now)).toBe(false);
  });
});

describe('releaseDay', () => {
  it('gives the first day a value stands for', () => {
    expect(releaseDay('2026-07-15')).toBe('2026-07-15');
    expect(releaseDay('2026-07')).toBe('2026-07-01');
    expect(releaseDay(2026)).toBe('2026-01-01');
    expect(releaseDay('')).toBeNull();
  });
});
