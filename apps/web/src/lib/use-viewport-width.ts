import { useSyncExternalStore } from 'react';

// One width for every subscriber, read again only on resize: many components (a carousel each) ask on
// every render, and reading window.innerWidth each time is not free.
let width: number | null = null;
const listeners = new Set<() => void>();

function onResize() {
  const next = window.innerWidth;
  if (next === width) return;
  width = next;
  for (const listener of listeners) listener();
}

const subscribe = (onChange: () => void) => {
  if (listeners.size === 0) window.addEventListener('resize', onResize);
  listeners.add(onChange);
  return () => {
    listeners.delete(onChange);
    if (listeners.size === 0) {
      window.removeEventListener('resize', onResize);
      // Not listening any more: the next reader measures afresh.
      width = null;
    }
  };
};

const getSnapshot = () => (width ??= window.innerWidth);

export function useViewportWidth(): number {
  return useSyncExternalStore(subscribe, getSnapshot);
}
