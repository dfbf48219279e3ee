import { useEffect, useRef } from 'react';
import { usePreferencesStore } from '../../../stores/preferences-store.ts';
import { playerStore, requests } from '../core/player-store.ts';
import {
  answered,
  episodeStartsOnItsOwn,
  played,
  playerKey,
  stillWatchingStore,
  viewerActed,
} from '../core/still-watching.ts';
import type { PlayerMeta } from '../core/types.ts';
import type { NextEpisode } from './use-episode-navigation.ts';

/** What counts as the viewer being there: a key (a remote's too), a press, a touch, a scroll. */
const INPUT_EVENTS = ['keydown', 'pointerdown', 'touchstart', 'wheel'] as const;

/**
 * "Are you still watching?" for this player (decision 112): input anywhere starts the counts again,
 * playback time adds up, and while the question is asked over this player it stays paused. Off in a
 * watch party (a pause there pauses everyone). Returns how to go to the next episode on its own
 * (autoplay, an automatic credits skip), which counts it.
 */
export function useStillWatchingCounts(
  meta: PlayerMeta,
  o: { next: NextEpisode | null; goNext(): void; inParty: boolean },
): () => void {
  const key = playerKey(meta.tmdbId, meta.episode?.id);
  const latest = useRef(o);
  useEffect(() => {
    latest.current = o;
  });

  useEffect(() => {
    // A question asked over another player (the viewer left it another way) is not this one's.
    const { asking } = stillWatchingStore.getState();
    if (asking !== null && asking !== key) answered();
    for (const name of INPUT_EVENTS)
      window.addEventListener(name, viewerActed, { capture: true, passive: true });
    let last = performance.now();
    const unsubscribe = playerStore.subscribe((s) => {
      const now = performance.now();
      const step = now - last;
      last = now;
      if (latest.current.inParty || s.status !== 'playing') return;
      const { playback } = s;
      if (stillWatchingStore.getState().asking === key) {
        if (!playback.isPaused) requests.pause();
        return;
      }
      if (!playback.isPaused && !playback.isLoading)
        played(key, step, usePreferencesStore.getState().stillWatching);
    });
    // Asked over this player (its episode started on its own, or time ran out): it pauses.
    const unsubscribeAsk = stillWatchingStore.subscribe((s) => {
      if (s.asking === key && !playerStore.getState().playback.isPaused) requests.pause();
    });
    return () => {
      for (const name of INPUT_EVENTS) window.removeEventListener(name, viewerActed, { capture: true });
      unsubscribe();
      unsubscribeAsk();
    };
  }, [key]);

  return () => {
    const { next, goNext, inParty } = latest.current;
    if (next && !inParty)
      episodeStartsOnItsOwn(
        playerKey(meta.tmdbId, next.episode.id),
        usePreferencesStore.getState().stillWatching,
      );
    goNext();
  };
}
