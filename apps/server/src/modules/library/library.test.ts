import { describe, expect, it } from 'vitest';
import { changeTimeOf, iso } from './library.ts';

describe('changeTimeOf', () => {
  const now = Date.UTC(2026, 0, 1);

  it('clamps the change time a client sends to [sync epoch, now]', () => {
    expect(changeTimeOf(iso(now + 1000), now)).toBe(now);
    expect(changeTimeOf(iso(0), now)).toBe(Date.UTC(2021, 6, 13));
    expect(changeTimeOf(iso(now - 5), now)).toBe(now - 5);
  });

  it('is now when the client sent no time or an unreadable one', () => {
    expect(changeTimeOf(undefined, now)).toBe(now);
    expect(changeTimeOf('yesterday-ish', now)).toBe(now);
  });
});
