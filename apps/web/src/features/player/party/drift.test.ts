import { describe, expect, it } from 'vitest';
import { PARTY_HOLD_MS, type PartyPlaybackState } from '@marquee/contract/values';
import { clockOffset, MAX_NUDGE, syncStep, type LocalPlayback } from './drift.ts';

const room = (over: Partial<PartyPlaybackState> = {}): PartyPlaybackState => ({
  playing: true,
  position: 100,
  at: 1_000_000,
  rate: 1,
  waitingFor: [],
  holdUntil: null,
  ...over,
});
const local = (over: Partial<LocalPlayback> = {}): LocalPlayback => ({
  time: 100,
  isPaused: false,
  isLoading: false,
  playbackRate: 1,
  ...over,
});

describe('following the room', () => {
  it('plays at normal speed when in step', () => {
    expect(syncStep(room(), local({ time: 110.02 }), 1_010_000)).toEqual({ drift: expect.closeTo(0.02, 5) });
  });

  it('slows down when ahead and speeds up when behind, by at most the largest nudge', () => {
    expect(syncStep(room(), local({ time: 110.2 }), 1_010_000).rate).toBe(0.9);
    expect(syncStep(room(), local({ time: 109.9 }), 1_010_000).rate).toBe(1.05);
    expect(syncStep(room(), local({ time: 110.6 }), 1_010_000).rate).toBe(0.7 + 0.05);
    expect(syncStep(room(), local({ time: 110.9 }), 1_010_000).rate).toBe(1 - MAX_NUDGE);
    // Back in step: normal speed again.
    expect(syncStep(room(), local({ time: 110, playbackRate: 0.9 }), 1_010_000).rate).toBe(1);
  });

  it('seeks when far off, but not again while that seek loads', () => {
    expect(syncStep(room(), local({ time: 50 }), 1_010_000)).toMatchObject({ seek: 110, rate: 1 });
    expect(syncStep(room(), local({ time: 108, isLoading: true }), 1_010_000).seek).toBeUndefined();
    expect(syncStep(room(), local({ time: 90, isLoading: true }), 1_010_000).seek).toBe(110);
  });

  it('pauses with a paused room, at its position', () => {
    expect(syncStep(room({ playing: false }), local({ time: 103 }), 1_010_000)).toMatchObject({
      pause: true,
      seek: 100,
    });
    expect(syncStep(room({ playing: false }), local({ isPaused: true, time: 100.1 }), 1_010_000)).toEqual({
      drift: expect.closeTo(0.1, 5),
    });
  });

  it('waits while the room is held for a member, then plays on from where it held', () => {
    const held = room({ waitingFor: ['ana'], holdUntil: 1_000_000 + PARTY_HOLD_MS });
    expect(syncStep(held, local({ time: 100.3 }), 1_005_000)).toMatchObject({ pause: true, seek: 100 });
    expect(
      syncStep(held, local({ isPaused: true, time: 100 }), 1_000_000 + PARTY_HOLD_MS + 2_000),
    ).toMatchObject({
      play: true,
      seek: 102,
    });
  });

  it('starts a paused member at the room’s position', () => {
    expect(syncStep(room(), local({ isPaused: true, time: 0 }), 1_030_000)).toMatchObject({
      play: true,
      seek: 130,
    });
  });
});

describe('the server clock', () => {
  it('takes the sample with the shortest round trip, halfway through it', () => {
    const samples = [
      { sentAt: 1000, serverNow: 5200, receivedAt: 1400 },
      { sentAt: 2000, serverNow: 6030, receivedAt: 2040 },
      { sentAt: 3000, serverNow: 7500, receivedAt: 3900 },
    ];
    expect(clockOffset(samples)).toBe(4010);
    expect(clockOffset([])).toBe(0);
  });
});
