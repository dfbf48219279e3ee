import { describe, expect, it } from 'vitest';
import { changeWins, mediaTypeOf } from './sync-rules.ts';

describe('sync rules', () => {
  it('names the kind of a title from what clients send', () => {
    expect(mediaTypeOf('movie')).toBe('movie');
    expect(mediaTypeOf('show')).toBe('show');
    expect(mediaTypeOf('tv')).toBe('show');
    expect(mediaTypeOf('')).toBe('movie');
    expect(mediaTypeOf('', true)).toBe('show');
  });

  it('lets a change win unless the stored one is newer; equal times: the later arrival', () => {
    expect(changeWins(2, 1)).toBe(true);
    expect(changeWins(1, 1)).toBe(true);
    expect(changeWins(1, 2)).toBe(false);
    expect(changeWins(1, null)).toBe(true);
  });
});
