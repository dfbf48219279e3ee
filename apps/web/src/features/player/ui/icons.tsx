const PATHS = {
  play: 'M8 5v14l11-7z',
  pause: 'M7 5h4v14H7zM13 5h4v14h-4z',
  back10: 'M12 5V2L7 6l5 4V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z',
  forward10: 'M12 5V2l5 4-5 4V7a6 6 0 1 0 6 6h2a8 8 0 1 1-8-8z',
  volume: 'M4 9v6h4l5 5V4L8 9zm12.5 3a4.5 4.5 0 0 0-2.5-4v8a4.5 4.5 0 0 0 2.5-4z',
  volumeMuted:
    'M4 9v6h4l5 5V4L8 9zm16.6 0L19 7.4 16.6 9.8 14.2 7.4 12.8 8.8l2.4 2.4-2.4 2.4 1.4 1.4 2.4-2.4 2.4 2.4 1.4-1.4-2.4-2.4z',
  fullscreen: 'M4 4h6v2H6v4H4zm10 0h6v6h-2V6h-4zM4 14h2v4h4v2H4zm14 0h2v6h-6v-2h4z',
  exitFullscreen: 'M8 4h2v6H4V8h4zm6 0h2v4h4v2h-6zM4 14h6v6H8v-4H4zm10 0h6v2h-4v4h-2z',
  pip: 'M3 5h18v14H3zm2 2v10h14V7zm7 5h6v4h-6z',
  settings:
    'M12 8a4 4 0 1 0 0 8 4 4 0 0 0 0-8zm9 4-2.1-.7.3-2.2-2-1-1.5 1.6-2-.9L13 4h-2l-.7 2.1-2 .9-1.5-1.6-2 1 .3 2.2L3 12l.1 2 2.1.7-.3 2.2 2 1 1.5-1.6 2 .9L11 20h2l.7-2.1 2-.9 1.5 1.6 2-1-.3-2.2L21 14z',
  captions: 'M3 5h18v14H3zm2 2v10h14V7zm2 3h4v1.5H8.5v1H11V14H7zm6 0h4v1.5h-2.5v1H17V14h-4z',
  episodes: 'M4 5h16v2H4zm0 6h16v2H4zm0 6h10v2H4z',
  arrowLeft: 'M15 5 8 12l7 7-1.4 1.4L5.2 12l8.4-8.4z',
  chevronRight: 'M9 5l7 7-7 7-1.4-1.4L13.2 12 7.6 6.4z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4z',
  close: 'M6.4 5 5 6.4 10.6 12 5 17.6 6.4 19 12 13.4 17.6 19 19 17.6 13.4 12 19 6.4 17.6 5 12 10.6z',
  next: 'M6 6l8.5 6L6 18zm10 0h2v12h-2z',
  replay: 'M12 5V2L7 6l5 4V7a6 6 0 1 1-6 6H4a8 8 0 1 0 8-8z',
  airplay: 'M6 22h12l-6-6zM21 3H3v14h4v-2H5V5h14v10h-2v2h4z',
  keyboard:
    'M3 6h18v12H3zm2 2v2h2V8zm4 0v2h2V8zm4 0v2h2V8zm4 0v2h2V8zM5 12v2h2v-2zm12 0v2h2v-2zM9 12v2h6v-2z',
  upload: 'M5 18h14v2H5zm7-14 5 5h-3v6h-4V9H7z',
} as const;

export type IconName = keyof typeof PATHS;

/** Icons that point along the reading direction: mirrored in right-to-left languages. */
const DIRECTIONAL = new Set<IconName>(['arrowLeft', 'chevronRight', 'next']);

export function Icon({ name, className = 'h-6 w-6' }: { name: IconName; className?: string }) {
  const mirrored = DIRECTIONAL.has(name) ? ' rtl:-scale-x-100' : '';
  return (
    <svg viewBox="0 0 24 24" className={className + mirrored} fill="currentColor" aria-hidden="true">
      <path d={PATHS[name]} />
    </svg>
  );
}
