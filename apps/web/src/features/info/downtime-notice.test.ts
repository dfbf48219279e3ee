import { describe, expect, it } from 'vitest';
import { isInDowntime } from './downtime-notice.tsx';

describe('provider downtime window', () => {
  const window = { start: '2026-11-21T10:00:00Z', end: '2026-11-21T12:00:00Z' };
  it('is active only between start and end, inclusive', () => {
    expect(isInDowntime(window, new Date('2026-11-21T09:59:59Z'))).toBe(false);
    expect(isInDowntime(window, new Date('2026-11-21T10:00:00Z'))).toBe(true);
    expect(isInDowntime(window, new Date('2026-11-21T12:00:00Z'))).toBe(true);
    expect(isInDowntime(window, new Date('2026-11-21T12:00:01Z'))).toBe(false);
    expect(isInDowntime(null, new Date())).toBe(false);
  });
});
