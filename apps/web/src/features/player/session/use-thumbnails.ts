import { useEffect } from 'react';
import { usePreferencesStore } from '../../../stores/index.ts';
import { playerStore, usePlayer } from '../core/player-store.ts';
import { thumbnailTrackOf } from '../display/thumbnail-track.ts';
import { usePlayerDeps } from './player-deps.tsx';

/**
 * Thumbnails for the seek bar when the viewer enabled them, once the source has played (never before
 * Play): the server's sprites when the source has them (library titles, decision 086), else frames
 * grabbed in the browser — also when the server's track fails to load.
 */
export function useThumbnails() {
  const enabled = usePreferencesStore((s) => s.enableThumbnails);
  const version = usePlayer((s) => s.sourceVersion);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  const { loadSpriteThumbnails, generateThumbnails } = usePlayerDeps();
  useEffect(() => {
    const source = playerStore.getState().source;
    if (!enabled || !source || !hasPlayed) return;
    const controller = new AbortController();
    const { signal } = controller;
    const add = (at: number, data: string) => {
      if (!signal.aborted) playerStore.getState().addThumbnail({ at, data });
    };
    const track = thumbnailTrackOf(source);
    void (async () => {
      if (track) {
        try {
          await loadSpriteThumbnails(track, add, signal);
          return;
        } catch {
          if (signal.aborted) return;
        }
      }
      await generateThumbnails(source, add, signal);
    })();
    return () => controller.abort();
  }, [enabled, version, hasPlayed, loadSpriteThumbnails, generateThumbnails]);
}
