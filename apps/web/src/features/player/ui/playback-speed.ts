import { playerStore, requests } from '../core/player-store.ts';

export const SPEEDS = [0.25, 0.5, 1, 1.5, 2] as const;

/** One step faster or slower along SPEEDS (an unlisted rate counts as 1×). */
export function changeSpeed(step: 1 | -1) {
  const rate = playerStore.getState().playback.playbackRate;
  const index = SPEEDS.findIndex((s) => s === rate);
  const next = SPEEDS[Math.max(0, Math.min(SPEEDS.length - 1, (index < 0 ? 2 : index) + step))]!;
  requests.setPlaybackRate(next);
}
