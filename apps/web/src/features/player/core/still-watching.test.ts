import { beforeEach, describe, expect, it } from 'vitest';
import {
  answered,
  episodeStartsOnItsOwn,
  played,
  PLAYED_STEP_MAX_MS,
  stillWatchingDue,
  stillWatchingStore,
  viewerActed,
} from './still-watching.ts';

const limits = { episodes: 3, minutes: 90 };
const state = () => stillWatchingStore.getState();

beforeEach(() => answered());

describe('"Are you still watching?" (decision 112)', () => {
  it('is due after the episodes or the minutes, whichever comes first; 0 turns a limit off', () => {
    expect(stillWatchingDue({ episodes: 2, playedMs: 0 }, limits)).toBe(false);
    expect(stillWatchingDue({ episodes: 3, playedMs: 0 }, limits)).toBe(true);
    expect(stillWatchingDue({ episodes: 0, playedMs: 90 * 60_000 }, limits)).toBe(true);
    expect(stillWatchingDue({ episodes: 0, playedMs: 90 * 60_000 - 1 }, limits)).toBe(false);
    expect(stillWatchingDue({ episodes: 50, playedMs: 1e9 }, { episodes: 0, minutes: 0 })).toBe(false);
    expect(stillWatchingDue({ episodes: 50, playedMs: 0 }, { episodes: 0, minutes: 30 })).toBe(false);
  });

  it('asks over the third episode that starts on its own in a row, not before', () => {
    episodeStartsOnItsOwn('1396-e2', limits);
    episodeStartsOnItsOwn('1396-e3', limits);
    expect(state().asking).toBeNull();
    episodeStartsOnItsOwn('1396-e4', limits);
    expect(state()).toMatchObject({ asking: '1396-e4', episodes: 3 });
  });

  it('input starts the counts again; an open question stays until answered', () => {
    episodeStartsOnItsOwn('1396-e2', limits);
    episodeStartsOnItsOwn('1396-e3', limits);
    viewerActed();
    episodeStartsOnItsOwn('1396-e4', limits);
    expect(state()).toMatchObject({ asking: null, episodes: 1 });
    episodeStartsOnItsOwn('1396-e5', { episodes: 1, minutes: 0 });
    viewerActed();
    expect(state().asking).toBe('1396-e5');
    answered();
    expect(state()).toEqual({ asking: null, episodes: 0, playedMs: 0 });
  });

  it('time played adds up to the limit and asks over the player it runs in', () => {
    const short = { episodes: 0, minutes: 1 };
    for (let i = 0; i < 11; i += 1) played('603-', 5_000, short);
    expect(state().asking).toBeNull();
    played('603-', 5_000, short);
    expect(state().asking).toBe('603-');
  });

  it('a long gap between updates (a sleeping laptop) counts as one step at most', () => {
    played('603-', 3 * 60 * 60_000, limits);
    expect(state().playedMs).toBe(PLAYED_STEP_MAX_MS);
    played('603-', -50, limits);
    expect(state().playedMs).toBe(PLAYED_STEP_MAX_MS);
  });
});
