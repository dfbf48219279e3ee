import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { StillWatching } from '../../../stores/player-settings-rules.ts';

/*
 * "Are you still watching?" (decision 112): counts what played since the viewer last touched a key, the
 * screen or the remote — episodes that started on their own (autoplay, credits skipped automatically)
 * and time played — across the episodes of one sitting (each episode mounts its own player: this store
 * outlives them). Pure rules here; the hook is session/use-still-watching.ts.
 */

export interface StillWatchingState {
  /** The player (`playerKey`) the question is asked over, or null. */
  asking: string | null;
  /** Episodes started on their own since the last input. */
  episodes: number;
  /** Playback (ms) since the last input. */
  playedMs: number;
}

export const stillWatchingStore = createStore<StillWatchingState>()(() => ({
  asking: null,
  episodes: 0,
  playedMs: 0,
}));
export const useStillWatching = <T>(selector: (s: StillWatchingState) => T): T =>
  useStore(stillWatchingStore, selector);

/** The key of one title's or episode's player (as the route keys its view). */
export const playerKey = (tmdbId: string, episodeId: string | undefined) => `${tmdbId}-${episodeId ?? ''}`;

/** Whether the counts reached a limit (0 = that limit is off). */
export function stillWatchingDue(
  counts: Pick<StillWatchingState, 'episodes' | 'playedMs'>,
  limits: StillWatching,
) {
  return (
    (limits.episodes > 0 && counts.episodes >= limits.episodes) ||
    (limits.minutes > 0 && counts.playedMs >= limits.minutes * 60_000)
  );
}

/** The viewer did something: the counts start again (an open question stays until answered). */
export function viewerActed(): void {
  const s = stillWatchingStore.getState();
  if (s.episodes || s.playedMs) stillWatchingStore.setState({ episodes: 0, playedMs: 0 });
}

/** The next episode (player `next`) starts on its own: counted, and asked over when a limit is reached. */
export function episodeStartsOnItsOwn(next: string, limits: StillWatching): void {
  const s = stillWatchingStore.getState();
  const episodes = s.episodes + 1;
  const due = stillWatchingDue({ episodes, playedMs: s.playedMs }, limits);
  stillWatchingStore.setState({ episodes, asking: due ? next : s.asking });
}

/**
 * The most one step of playback counts: a tab in the background or a sleeping laptop sends no updates,
 * and the gap after it is not time watched.
 */
export const PLAYED_STEP_MAX_MS = 5_000;

/** `ms` more played in player `key`: asked over it when a limit is reached. */
export function played(key: string, ms: number, limits: StillWatching): void {
  const s = stillWatchingStore.getState();
  const playedMs = s.playedMs + Math.min(Math.max(0, ms), PLAYED_STEP_MAX_MS);
  const due = s.asking === null && stillWatchingDue({ episodes: s.episodes, playedMs }, limits);
  stillWatchingStore.setState({ playedMs, asking: due ? key : s.asking });
}

/** The viewer answered (or left): nothing asked, the counts start again. */
export function answered(): void {
  stillWatchingStore.setState({ asking: null, episodes: 0, playedMs: 0 });
}
