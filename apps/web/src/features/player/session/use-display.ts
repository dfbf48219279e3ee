import { useEffect, type RefObject } from 'react';
import { usePlayerDeps } from './player-deps.tsx';

/** The `<video>` belongs to the display while it is mounted (`attachDisplay` of the player's deps). */
export function useDisplay(
  videoRef: RefObject<HTMLVideoElement | null>,
  containerRef: RefObject<HTMLElement | null>,
) {
  const { attachDisplay } = usePlayerDeps();
  useEffect(() => {
    const video = videoRef.current;
    const container = containerRef.current;
    if (!video || !container) return;
    return attachDisplay(video, container);
  }, [videoRef, containerRef, attachDisplay]);
}
