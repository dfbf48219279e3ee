import { describe, expect, it } from 'vitest';
import { DayClock, detectDayOrder, parseInstant, parseIsoDay, parseNumericDay } from './dates.ts';

describe('dates', () => {
  it('puts a date-only play at 12:00 UTC, a second one that day a second later', () => {
    const clock = new DayClock();
    const day = parseIsoDay('2024-02-29')!;
    expect(clock.at(day, 'heat')).toBe('2024-02-29T12:00:00.000Z');
    expect(clock.at(day, 'heat')).toBe('2024-02-29T12:00:01.000Z');
    expect(clock.at(day, 'ran')).toBe('2024-02-29T12:00:00.000Z');
    expect(parseIsoDay('2023-02-29')).toBeNull();
    expect(parseIsoDay('1887-12-31')).toBeNull();
  });

  it('tells the day/month order from the dates that can only be read one way', () => {
    expect(detectDayOrder(['1/2/24', '13/2/24'])).toBe('dmy');
    expect(detectDayOrder(['1/2/24', '2/13/24'])).toBe('mdy');
    expect(detectDayOrder(['1/2/24', '3/4/24'])).toBeNull();
    expect(detectDayOrder(['13/2/24', '2/13/24'])).toBeNull();
    expect(parseNumericDay('3/4/24', 'mdy')).toEqual({
      day: { year: 2024, month: 3, day: 4 },
      ambiguous: true,
    });
    expect(parseNumericDay('4/4/2024', 'dmy')).toEqual({
      day: { year: 2024, month: 4, day: 4 },
      ambiguous: false,
    });
    expect(parseNumericDay('31/4/24', 'dmy')).toBeNull();
    expect(parseNumericDay('2024-01-31', 'dmy')).toEqual({
      day: { year: 2024, month: 1, day: 31 },
      ambiguous: false,
    });
  });

  it("reads instants: ISO with an offset, and Netflix's UTC start times", () => {
    expect(parseInstant('2024-01-31 21:14:05')).toBe('2024-01-31T21:14:05.000Z');
    expect(parseInstant('2024-01-31T23:00:00+02:00')).toBe('2024-01-31T21:00:00.000Z');
    expect(parseInstant('yesterday')).toBeNull();
  });
});
