import { describe, expect, it } from 'vitest';
import { changeWins, clampChangeTime, mediaTypeOf, SYNC_EPOCH_MS } from './sync-rules.ts';

describe('sync rules', () => {
  it('names the kind of a title from what clients send', () => {
    expect(mediaTypeOf('movie')).toBe('movie');
    expect(mediaTypeOf('show')).toBe('show');
    expect(mediaTypeOf('tv')).toBe('show');
    expect(mediaTypeOf('')).toBe('movie');
    expect(mediaTypeOf('', true)).toBe('show');
  });

  it('clamps change times to [sync epoch, now]', () => {
    const now = Date.UTC(2026, 0, 1);
    expect(clampChangeTime(now + 1000, now)).toBe(now);
    expect(clampChangeTime(0, now)).toBe(SYNC_EPOCH_MS);
    expect(clampChangeTime(now - 5, now)).toBe(now - 5);
  });

  it('lets a change win unless the stored one is newer; equal times: the later arrival', () => {
    expect(changeWins(2, 1)).toBe(true);
    expect(changeWins(1, 1)).toBe(true);
    expect(changeWins(1, 2)).toBe(false);
    expect(changeWins(1, null)).toBe(true);
  });
});
