import { describe, expect, it } from 'vitest';
import { nextEpisodeButtonVisible } from './autoplay.ts';
import { creditsStart, skippableAt } from './segments.ts';
import type { PlayerSegments } from './types.ts';

const file = (segments: PlayerSegments['segments']): PlayerSegments => ({
  access: 'a',
  fileId: 'f',
  duration: 1320,
  segments,
  detection: 'done',
  mine: [],
});
const show = file([
  { type: 'recap', start: 0, end: 40, source: 'chapters' },
  { type: 'intro', start: 95, end: 125, source: 'detected' },
  { type: 'credits', start: 1250, end: 1319, source: 'detected' },
]);

describe('segments in the player', () => {
  it('offers to skip the recap and the intro while they play, not in their last second, never the credits', () => {
    expect(skippableAt(show, 10)?.type).toBe('recap');
    expect(skippableAt(show, 95)?.type).toBe('intro');
    expect(skippableAt(show, 123.9)?.type).toBe('intro');
    expect(skippableAt(show, 124.5)).toBeNull();
    expect(skippableAt(show, 60)).toBeNull();
    expect(skippableAt(show, 1260)).toBeNull();
    expect(skippableAt(null, 10)).toBeNull();
  });

  it('takes the credits as the way to the next episode only when they run to the end', () => {
    expect(creditsStart(show, 1320)).toBe(1250);
    const midCredits = file([{ type: 'credits', start: 600, end: 700, source: 'viewers' }]);
    expect(creditsStart(midCredits, 1320)).toBeNull();
    expect(creditsStart(show, 0)).toBeNull();
  });

  it('shows the next episode from the start of the credits, not only in the last 30 s', () => {
    const at = (time: number, creditsAt: number | null) =>
      nextEpisodeButtonVisible({ time, duration: 1320, controlsVisible: false, hasPlayed: true, creditsAt });
    expect(at(1249, 1250)).toBe('hidden');
    expect(at(1250, 1250)).toBe('always');
    expect(at(1250, null)).toBe('hidden');
    expect(at(1291, null)).toBe('always');
  });
});
