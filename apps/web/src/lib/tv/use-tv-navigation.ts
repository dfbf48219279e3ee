import { useEffect } from 'react';
import { useTvMode } from './tv-mode.ts';

/**
 * The remote's keys while TV mode is on (issue 30; tv-navigation.ts), off again when it goes off. Their
 * code loads only then: a visitor who is not on a TV never downloads it, and the first
 * view stays within its budget (docs/decisions/062-delivery-compression-caching-csp.md).
 */
export function useTvNavigation(goHome: () => Promise<void> | void): void {
  const on = useTvMode();
  useEffect(() => {
    if (!on) return undefined;
    let live = true;
    let uninstall: (() => void) | undefined;
    // A chunk that cannot load (offline) leaves the page as it is; the next time TV mode comes on tries again.
    void import('./tv-navigation.ts')
      .then((m) => {
        if (live) uninstall = m.installTvNavigation(window, window.history, goHome);
      })
      .catch(() => undefined);
    return () => {
      live = false;
      uninstall?.();
    };
  }, [on, goHome]);
}
