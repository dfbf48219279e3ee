import { describe, expect, it } from 'vitest';
import {
  ALTERNATE_PHRASE_CHANCE,
  PING_INTERVAL_MS,
  PING_ONLINE_EVERY,
  greetingFor,
  pickPhrase,
  shouldPing,
  themeFor,
} from './calendar.ts';

/** A local wall-clock time (greetings follow the viewer's own clock). */
const at = (month: number, day: number, hour: number, minute = 0) =>
  new Date(2025, month - 1, day, hour, minute);

describe('greetingFor', () => {
  it.each([
    [0, 0, 'night'],
    [4, 59, 'night'],
    [5, 0, 'morning'],
    [11, 59, 'morning'],
    [12, 0, 'day'],
    [18, 59, 'day'],
    [19, 0, 'night'],
    [23, 59, 'night'],
  ])('%i:%i → %s', (hour, minute, greeting) => {
    expect(greetingFor(at(3, 14, hour, minute))).toBe(greeting);
  });

  it('has its own greeting all day on 20 April and 9 June', () => {
    for (const hour of [0, 4, 9, 15, 23]) {
      expect(greetingFor(at(4, 20, hour))).toBe('420');
      expect(greetingFor(at(6, 9, hour))).toBe('69');
    }
  });

  it('goes back to the time of day on the days around them', () => {
    expect(greetingFor(at(4, 19, 23, 59))).toBe('night');
    expect(greetingFor(at(4, 21, 0, 0))).toBe('night');
    expect(greetingFor(at(6, 10, 9))).toBe('morning');
    expect(greetingFor(at(9, 6, 9))).toBe('morning');
  });
});

describe('pickPhrase', () => {
  const extras = ['alt one', 'alt two', 'alt three'];
  const sequence = (...values: number[]) => {
    let i = 0;
    return () => values[i++] ?? 0;
  };

  it('uses an alternate phrase 35 % of the time', () => {
    expect(ALTERNATE_PHRASE_CHANCE).toBe(0.35);
    expect(pickPhrase('default', extras, sequence(0.3499, 0))).toBe('alt one');
    expect(pickPhrase('default', extras, sequence(0, 0.99))).toBe('alt three');
    expect(pickPhrase('default', extras, sequence(0.35))).toBe('default');
    expect(pickPhrase('default', extras, sequence(0.9))).toBe('default');
  });

  it('keeps the default when there is no alternate', () => {
    expect(pickPhrase('default', [], sequence(0))).toBe('default');
  });

  it('picks alternates at about the stated rate over many views', () => {
    let state = 12345;
    const random = () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return state / 2_147_483_648;
    };
    let alternates = 0;
    for (let i = 0; i < 20_000; i += 1)
      if (pickPhrase('default', extras, random) !== 'default') alternates += 1;
    expect(alternates / 20_000).toBeGreaterThan(0.33);
    expect(alternates / 20_000).toBeLessThan(0.37);
  });
});

describe('themeFor', () => {
  it('is no theme by default and teal on 20 April only', () => {
    expect(themeFor(null, at(4, 20, 10))).toBe('teal');
    expect(themeFor(null, at(4, 20, 0))).toBe('teal');
    expect(themeFor(null, at(4, 19, 23))).toBeNull();
    expect(themeFor(null, at(4, 21, 0))).toBeNull();
    expect(themeFor(null, at(6, 9, 12))).toBeNull();
  });

  it('lets a theme the user chose win, also on 20 April', () => {
    expect(themeFor('red', at(4, 20, 10))).toBe('red');
    expect(themeFor('blue', at(1, 1, 10))).toBe('blue');
  });
});

describe('online ping', () => {
  it('runs every 5 s: each tick while offline, every 10th tick while online', () => {
    expect(PING_INTERVAL_MS).toBe(5_000);
    expect(PING_ONLINE_EVERY).toBe(10);
    const offline = Array.from({ length: 20 }, (_, tick) => shouldPing(tick + 1, false));
    expect(offline.every(Boolean)).toBe(true);
    const online = Array.from({ length: 30 }, (_, i) => i + 1).filter((tick) => shouldPing(tick, true));
    expect(online).toEqual([10, 20, 30]);
  });
});
