import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

interface OverlayState {
  overlayDepth?: number;
}

/**
 * Player menus live in the URL's `r` query parameter (`?r=/settings/quality`), so Back closes them:
 * each step into a menu is a history entry, and closing goes back over all of them.
 */
export function useOverlayRoute() {
  const location = useLocation();
  const navigate = useNavigate();
  const route = new URLSearchParams(location.search).get('r');
  const depth = (location.state as OverlayState | null)?.overlayDepth ?? 0;

  const open = useCallback(
    (path: string) => {
      const params = new URLSearchParams(location.search);
      params.set('r', path);
      navigate(
        { search: `?${params.toString()}` },
        { state: { ...(location.state as object | null), overlayDepth: depth + 1 } },
      );
    },
    [location.search, location.state, navigate, depth],
  );

  const close = useCallback(() => {
    if (depth > 0) {
      navigate(-depth);
      return;
    }
    const params = new URLSearchParams(location.search);
    params.delete('r');
    const search = params.toString();
    navigate({ search: search ? `?${search}` : '' }, { replace: true, state: location.state });
  }, [depth, location.search, location.state, navigate]);

  return { route, open, close };
}
