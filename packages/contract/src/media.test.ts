import { describe, expect, it } from 'vitest';
import { yearOf } from './media.ts';

describe('yearOf', () => {
  it('reads the year of a TMDB date', () => {
    expect(yearOf('1999-03-31')).toBe(1999);
    expect(yearOf('2026-01-01')).toBe(2026);
  });

  it.each([[''], [null], [undefined], ['abcd-01-01'], ['0000-00-00'], ['12']])('is null for %j', (date) => {
    expect(yearOf(date)).toBeNull();
  });
});
