import type { RefObject } from 'react';
import type { PlayerMeta } from '../core/types.ts';
import { useAutoplay } from '../session/use-autoplay.ts';
import { useCasting } from '../session/use-casting.ts';
import { useEpisodeNavigation } from '../session/use-episode-navigation.ts';
import { useCaptionsFollowSource, usePlaySession } from '../session/use-play-session.ts';
import { useAutomaticSkips, useSegments } from '../session/use-segments.ts';
import { useStillWatchingCounts } from '../session/use-still-watching.ts';
import { useThumbnails } from '../session/use-thumbnails.ts';
import { useTraktScrobble } from '../session/use-trakt-scrobble.ts';
import { useControlsAutoHide } from './controls-visibility.ts';
import { useKeyboardShortcuts } from './keyboard-shortcuts.ts';
import { useMediaKeys } from './media-keys.ts';
import { useMediaSession } from './media-session.ts';
import { usePlayerWidth } from './player-width.ts';
import { useProgressSaver } from './progress-saving.ts';
import { useTvFocus } from './tv-focus.ts';
import type { PlayerMenus } from './use-player-menus.ts';
import { useRememberVolume, useVolumeSupport } from './volume.ts';

/**
 * Everything that runs beside the player view while a title is open: its play session, progress
 * saving, Trakt scrobbles, casting, volume, thumbnails, the keys (a TV remote's and the media keys too),
 * the controls' auto-hide, the Media Session, captions, autoplay and "Are you still watching?". What
 * reaches outside the page comes from the player deps (session/player-deps.tsx); Trakt's scrobbles go
 * through the API client (session/use-trakt-scrobble.ts).
 */
export function usePlayerEffects(
  meta: PlayerMeta,
  o: {
    startOnOpen: boolean;
    fromStart?: boolean;
    containerRef: RefObject<HTMLElement | null>;
    menus: PlayerMenus;
    hoveringBars: boolean;
    /** In a watch party (nobody is asked "Are you still watching?"). */
    inParty: boolean;
  },
) {
  const { route, open, close } = o.menus;
  const menuOpen = route !== null;
  const { problem, retry } = usePlaySession(meta, {
    startOnOpen: o.startOnOpen,
    fromStart: o.fromStart ?? false,
  });
  const { next, previous, goNext, goPrevious } = useEpisodeNavigation(meta);
  usePlayerWidth(o.containerRef);
  useProgressSaver(meta);
  useTraktScrobble(meta);
  useCasting();
  useRememberVolume();
  useVolumeSupport();
  useThumbnails();
  useKeyboardShortcuts({
    menuOpen,
    closeMenu: close,
    openShortcuts: () => (route === '/shortcuts' ? close() : open('/shortcuts')),
    containerRef: o.containerRef,
  });
  useControlsAutoHide({ menuOpen, hoveringBars: o.hoveringBars });
  useTvFocus(o.containerRef);
  const runMedia = useMediaKeys({
    next: goNext,
    previous: goPrevious,
    hasNext: !!next,
    hasPrevious: !!previous,
  });
  useMediaSession(meta, runMedia, !!next);
  useCaptionsFollowSource();
  // The next episode starting on its own counts towards "Are you still watching?".
  const goNextOnItsOwn = useStillWatchingCounts(meta, { next, goNext, inParty: o.inParty });
  useAutoplay(meta, next ? goNextOnItsOwn : null);
  useSegments();
  useAutomaticSkips(next ? goNextOnItsOwn : null);
  return { problem, retry, next, goNext };
}
