import { useEffect } from 'react';
import { useLibraryStore } from '../../../stores/index.ts';
import { playerStore } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';

/** Library metadata of what plays (year unknown stays null). */
const libraryMeta = (meta: PlayerMeta) => ({
  tmdbId: meta.tmdbId,
  type: meta.type,
  title: meta.title,
  year: meta.releaseYear,
  poster: meta.poster,
});

export const PROGRESS_SAVE_MS = 3_000;

/**
 * Progress goes into the library every 3 s while playing, and on pause, after a seek, when the page is
 * hidden or left and when another title or episode starts, once the video has played and only when time
 * or duration changed. Saves while playing are held back for the account (one write per 15 s,
 * decision 079); the others, and whatever is held, are sent at once — the final position is never lost.
 */
export function useProgressSaver(meta: PlayerMeta) {
  useEffect(() => {
    let last = { time: -1, duration: -1 };
    const save = (hold: boolean) => {
      const library = useLibraryStore.getState();
      const { status, playback } = playerStore.getState();
      const playable = status === 'playing' && playback.hasPlayedOnce && playback.duration > 0;
      const watched = Math.floor(playback.time);
      const duration = Math.floor(playback.duration);
      if (playable && (watched !== last.time || duration !== last.duration)) {
        last = { time: watched, duration };
        library.saveProgress(
          {
            meta: libraryMeta(meta),
            watched,
            duration,
            ...(meta.type === 'show' && meta.season && meta.episode
              ? {
                  season: { id: meta.season.id, number: meta.season.number, title: meta.season.title },
                  episode: { id: meta.episode.id, number: meta.episode.number, title: meta.episode.title },
                }
              : {}),
          },
          { hold },
        );
      }
      if (!hold) library.sendHeldNow();
    };
    const timer = setInterval(() => save(true), PROGRESS_SAVE_MS);
    const unsubscribe = playerStore.subscribe((state, prev) => {
      const p = state.playback;
      const q = prev.playback;
      if ((p.isPaused && !q.isPaused) || (!p.isSeeking && q.isSeeking)) save(false);
    });
    const onHide = () => save(false);
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onHide);
    return () => {
      save(false);
      clearInterval(timer);
      unsubscribe();
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onHide);
    };
  }, [meta]);
}
