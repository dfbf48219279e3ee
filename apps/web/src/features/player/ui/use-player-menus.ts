import { useCallback, useEffect, useRef, type RefObject } from 'react';
import { useNavigate } from 'react-router';
import { useOverlayRoute } from './use-overlay.ts';

export interface PlayerMenus {
  /** The open menu's path, or null. */
  route: string | null;
  open(path: string): void;
  close(): void;
  /** One step back in the history (a sub-menu's parent). */
  back(): void;
}

/**
 * The player's `?r=` menus (use-overlay.ts). The button that opened them gets focus back when they
 * close (Escape, a pick, the backdrop), so a keyboard user stays where they were.
 */
export function usePlayerMenus(containerRef: RefObject<HTMLElement | null>): PlayerMenus {
  const navigate = useNavigate();
  const { route, open: openRoute, close } = useOverlayRoute();
  const trigger = useRef<HTMLElement | null>(null);
  const open = useCallback(
    (path: string) => {
      if (route === null) {
        const active = document.activeElement;
        trigger.current =
          active instanceof HTMLElement && containerRef.current?.contains(active) ? active : null;
      }
      openRoute(path);
    },
    [route, openRoute, containerRef],
  );
  const lastRoute = useRef(route);
  useEffect(() => {
    if (lastRoute.current !== null && route === null) {
      const target = trigger.current;
      trigger.current = null;
      if (target?.isConnected) target.focus({ preventScroll: true });
    }
    lastRoute.current = route;
  }, [route]);
  return { route, open, close, back: () => navigate(-1) };
}
