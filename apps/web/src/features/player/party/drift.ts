import { partyHolding, partyPositionAt, type PartyPlaybackState } from '@marquee/contract/values';

/*
 * Keeping one member's player in step with the room (decision 110), as SyncPlay does, tuned: a small
 * drift is corrected by playing a little faster or slower (no jump, no sound cut), a large one by a seek.
 * Pure: the party hook reads the player, asks this what to do, and does it.
 */

/** Closer than this to the room (seconds): in step, normal speed. */
export const IN_STEP_S = 0.04;
/** Further than this: seek (a rate nudge would take too long). */
export const SEEK_OVER_S = 1;
/**
 * A nudge changes the speed by half the drift, at most this much: 0.9×–1.1× for the usual tenths of a
 * second (hardly audible; browsers keep the pitch), up to 0.75×–1.25× to close half a second in two.
 */
export const MAX_NUDGE = 0.25;
/** Paused or held, a member this far from the room's position is moved there (a still frame costs one seek). */
const PAUSED_SLACK_S = 0.1;

export interface LocalPlayback {
  time: number;
  isPaused: boolean;
  /** Waiting for data: a seek now would only restart the wait. */
  isLoading: boolean;
  playbackRate: number;
}

export interface SyncStep {
  play?: true;
  pause?: true;
  seek?: number;
  /** The speed to play at now (1 when in step). */
  rate?: number;
  /** The member's distance from the room (seconds; positive: ahead). */
  drift: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** What to do now to follow the room at server time `serverNow`. */
export function syncStep(room: PartyPlaybackState, local: LocalPlayback, serverNow: number): SyncStep {
  const target = partyPositionAt(room, serverNow);
  const drift = local.time - target;
  const step: SyncStep = { drift };
  const moving = room.playing && !partyHolding(room, serverNow);
  if (!moving) {
    if (!local.isPaused) step.pause = true;
    if (Math.abs(drift) > PAUSED_SLACK_S) step.seek = target;
    if (local.playbackRate !== 1) step.rate = 1;
    return step;
  }
  if (local.isPaused) {
    step.play = true;
    if (Math.abs(drift) > PAUSED_SLACK_S) step.seek = target;
    step.rate = 1;
    return step;
  }
  if (Math.abs(drift) > SEEK_OVER_S) {
    // Loading already: seeking again restarts the wait; past a few seconds the wait is not catching up.
    if (!local.isLoading || Math.abs(drift) > 5) step.seek = target;
    step.rate = 1;
    return step;
  }
  const rate = Math.abs(drift) <= IN_STEP_S ? 1 : 1 - clamp(drift / 2, -MAX_NUDGE, MAX_NUDGE);
  if (Math.abs(rate - local.playbackRate) > 0.001) step.rate = Math.round(rate * 1000) / 1000;
  return step;
}

/**
 * The server clock's offset from this device's (ms to add to Date.now()), from round trips to the
 * clock route: the sample with the shortest trip wins (NTP's rule), taken halfway through it.
 */
export function clockOffset(
  samples: readonly { sentAt: number; serverNow: number; receivedAt: number }[],
): number {
  let best = samples[0];
  if (!best) return 0;
  for (const s of samples) if (s.receivedAt - s.sentAt < best.receivedAt - best.sentAt) best = s;
  return best.serverNow - (best.sentAt + best.receivedAt) / 2;
}
