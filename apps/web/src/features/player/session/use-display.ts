import { useEffect, type RefObject } from 'react';
import { usePlayerPrefsStore } from '../../../stores/index.ts';
import { playerStore } from '../core/player-store.ts';
import { createDisplay } from '../display/display.ts';

/**
 * Gives the `<video>` to the display while it is mounted: the display owns the element, loads sources
 * and carries out the UI's requests (those asked before it attached included).
 */
export function useDisplay(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    const video = videoRef.current;
    const container = containerRef.current;
    if (!video || !container) return;
    return createDisplay({
      video,
      container,
      store: playerStore,
      qualityPreference: () => {
        const p = usePlayerPrefsStore.getState();
        return {
          automaticQuality: p.automaticQuality,
          lastChosenQuality: (p.lastChosenQuality as never) ?? null,
        };
      },
    });
  }, [videoRef, containerRef]);
}
