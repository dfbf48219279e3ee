import { useEffect } from 'react';
import { playerStore, requests } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import type { RunMedia } from './media-keys.ts';

/**
 * Media Session: title, show and artwork, and the keyboard/headset keys. Their actions run as the media
 * keys pressed on the page do, through the same runner (media-keys.ts: a press heard both ways runs
 * once; stop pauses; previous starts the episode again past its first seconds, so a film has it too;
 * next only when there is a next episode).
 */
export function useMediaSession(meta: PlayerMeta, run: RunMedia, hasNext: boolean) {
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
      ['play', () => run('play', 'session')],
      ['pause', () => run('pause', 'session')],
      ['stop', () => run('stop', 'session')],
      ['seekto', (d) => d.seekTime !== undefined && requests.seek(d.seekTime)],
      ['seekbackward', (d) => run('rewind', 'session', d.seekOffset)],
      ['seekforward', (d) => run('fastForward', 'session', d.seekOffset)],
      ['previoustrack', () => run('previous', 'session')],
      ['nexttrack', hasNext ? () => run('next', 'session') : null],
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
  }, [meta, run, hasNext]);
}
