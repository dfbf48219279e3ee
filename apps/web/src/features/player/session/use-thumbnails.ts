import { useEffect } from 'react';
import { usePreferencesStore } from '../../../stores/index.ts';
import { playerStore, usePlayer } from '../core/player-store.ts';
import { generateThumbnails } from '../display/thumbnails.ts';

/** Thumbnails for the seek bar when the viewer enabled them, once the source has played (never before Play). */
export function useThumbnails() {
  const enabled = usePreferencesStore((s) => s.enableThumbnails);
  const version = usePlayer((s) => s.sourceVersion);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  useEffect(() => {
    const source = playerStore.getState().source;
    if (!enabled || !source || !hasPlayed) return;
    const controller = new AbortController();
    void generateThumbnails(
      source,
      (at, data) => !controller.signal.aborted && playerStore.getState().addThumbnail({ at, data }),
      controller.signal,
    );
    return () => controller.abort();
  }, [enabled, version, hasPlayed]);
}
