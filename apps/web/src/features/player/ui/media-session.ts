import { useEffect, useRef } from 'react';
import { playerStore, requests, seekBy } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';

/** Media Session: title, show and artwork, and the keyboard/headset keys. */
export function useMediaSession(
  meta: PlayerMeta,
  o: { next(): void; previous(): void; hasNext: boolean; hasPrevious: boolean },
) {
  const actions = useRef(o);
  useEffect(() => {
    actions.current = o;
  });
  useEffect(() => {
    if (!('mediaSession' in navigator)) return;
    const session = navigator.mediaSession;
    const title =
      meta.type === 'show' && meta.season && meta.episode
        ? `S${meta.season.number} E${meta.episode.number}: ${meta.episode.title}`
        : meta.title;
    try {
      session.metadata = new MediaMetadata({
        title,
        ...(meta.type === 'show' ? { artist: meta.title } : {}),
        artwork: meta.poster ? [{ src: meta.poster, sizes: '342x513', type: 'image/png' }] : [],
      });
    } catch {
      // Some browsers refuse artwork they cannot read; the keys still work.
    }
    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ['play', () => requests.play()],
      ['pause', () => requests.pause()],
      ['seekto', (d) => d.seekTime !== undefined && requests.seek(d.seekTime)],
      ['seekbackward', (d) => seekBy(-(d.seekOffset ?? 10))],
      ['seekforward', (d) => seekBy(d.seekOffset ?? 10)],
      ['previoustrack', o.hasPrevious ? () => actions.current.previous() : null],
      ['nexttrack', o.hasNext ? () => actions.current.next() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        session.setActionHandler(action, handler);
      } catch {
        // Not every browser knows every action.
      }
    }
    let lastSent = -10;
    const unsubscribe = playerStore.subscribe((state) => {
      const { time, duration, playbackRate, isPaused } = state.playback;
      session.playbackState = isPaused ? 'paused' : 'playing';
      if (duration > 0 && Math.abs(time - lastSent) >= 1 && session.setPositionState) {
        lastSent = time;
        try {
          session.setPositionState({ duration, position: Math.min(time, duration), playbackRate });
        } catch {
          // Position out of range while a new source loads.
        }
      }
    });
    return () => {
      unsubscribe();
      for (const [action] of handlers) {
        try {
          session.setActionHandler(action, null);
        } catch {
          // ignore
        }
      }
      session.metadata = null;
    };
  }, [meta, o.hasNext, o.hasPrevious]);
}
