import { useRef, type RefObject } from 'react';
import { useDisplay } from '../session/use-display.ts';

/** The `<video>`: it belongs to the display (which raises preload when playback starts); React only places it. */
export function VideoSurface({ containerRef }: { containerRef: RefObject<HTMLDivElement | null> }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  useDisplay(videoRef, containerRef);
  // Captions are drawn by CaptionsOverlay (styled, delayed, sanitised), not as native tracks.
  return (
    // eslint-disable-next-line jsx-a11y/media-has-caption
    <video
      ref={videoRef}
      className="absolute inset-0 h-full w-full bg-black object-contain"
      playsInline
      preload="none"
      data-testid="player-video"
    />
  );
}
