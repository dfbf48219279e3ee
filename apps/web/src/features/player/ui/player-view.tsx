import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { togglePlay, requests, usePlayer } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { playerUi, usePlayerUi } from '../core/ui-store.ts';
import { useAutoplay } from '../session/use-autoplay.ts';
import { useCasting } from '../session/use-casting.ts';
import { useEpisodeNavigation } from '../session/use-episode-navigation.ts';
import { useCaptionsFollowSource, usePlaySession } from '../session/use-play-session.ts';
import { useThumbnails } from '../session/use-thumbnails.ts';
import { CaptionsOverlay } from './captions-view.tsx';
import {
  lastInputWasKeyboard,
  showControls,
  useControlsAutoHide,
  usePlayerWidth,
  useKeyboardShortcuts,
  useMediaSession,
  useProgressSaver,
  useRememberVolume,
  useVolumeSupport,
} from './hooks.ts';
import { Icon } from './icons.tsx';
import { OverlayHost } from './menus/overlay-host.tsx';
import { NextEpisodeButtons } from './next-episode-buttons.tsx';
import { BottomBar, TopBar } from './player-bars.tsx';
import { PlaybackErrorView, ProblemView, ScrapeNotFoundView, ScrapingView } from './status-views.tsx';
import { useOverlayRoute } from './use-overlay.ts';
import { VideoSurface } from './video-surface.tsx';

export interface PlayerViewProps {
  meta: PlayerMeta;
  /** Where the back link goes (the last page that was not a player). */
  backTo: string;
  /** Actions next to the title (the bookmark toggle), rendered by the app. */
  titleActions?: ReactNode;
  /**
   * Start playing once the source is found (a deep link to an episode or a time, see `startsOnOpen`).
   * Otherwise nothing but metadata loads before the viewer presses Play.
   */
  startOnOpen: boolean;
}

/** The spinner while media loads, and the big Play button before the first frame (or when autoplay was refused). */
function PlaybackIndicators() {
  const { t } = useTranslation(['global', 'player']);
  const isLoading = usePlayer((s) => s.playback.isLoading);
  const isPaused = usePlayer((s) => s.playback.isPaused);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  const autoplayBlocked = usePlayer((s) => s.playback.autoplayBlocked);
  return (
    <>
      {isLoading && !autoplayBlocked && (
        <div
          className="pointer-events-none absolute inset-0 flex items-center justify-center"
          role="status"
          data-testid="player-loading"
        >
          <span
            className="h-12 w-12 animate-spin rounded-full border-4 border-white/20 border-t-white"
            aria-hidden="true"
          />
          <span className="sr-only">{t('global.loading')}</span>
        </div>
      )}
      {(autoplayBlocked || (!hasPlayed && isPaused && !isLoading)) && (
        <button
          type="button"
          className="absolute left-1/2 top-1/2 z-10 -translate-x-1/2 -translate-y-1/2 rounded-full bg-white/20 p-6 backdrop-blur hover:bg-white/30"
          onClick={() => requests.play()}
          aria-label={t('player.controls.play')}
          data-testid="big-play"
        >
          <Icon name="play" className="h-12 w-12" />
        </button>
      )}
    </>
  );
}

/**
 * The player: one store (core/player-store.ts), one display that owns the `<video>` (display/), the
 * session hooks that run scraping, autoplay and casting (session/), and this view, which only renders
 * their state and sends requests. Menus are `?r=` overlays (menus/).
 */
export function PlayerView({ meta, backTo, titleActions, startOnOpen }: PlayerViewProps) {
  const navigate = useNavigate();
  const containerRef = useRef<HTMLDivElement>(null);
  const [hoveringBars, setHoveringBars] = useState(false);
  const status = usePlayer((s) => s.status);
  const controlsVisible = usePlayerUi((s) => s.controlsVisible);
  const rolling = usePlayerUi((s) => s.rolling);
  const { route, open: openRoute, close } = useOverlayRoute();
  const back = () => navigate(-1);
  // The button that opened the menus: focus returns to it when they close (Escape, a pick, the backdrop).
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
    [route, openRoute],
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
  const { problem, retry } = usePlaySession(meta, { startOnOpen });
  const { next, previous, goNext, goPrevious } = useEpisodeNavigation(meta);
  const menuOpen = route !== null;

  usePlayerWidth(containerRef);
  useProgressSaver(meta);
  useCasting();
  useRememberVolume();
  useVolumeSupport();
  useThumbnails();
  useKeyboardShortcuts({
    menuOpen,
    closeMenu: close,
    openShortcuts: () => (route === '/shortcuts' ? close() : open('/shortcuts')),
  });
  useControlsAutoHide({ menuOpen, hoveringBars });
  useMediaSession(meta, { next: goNext, previous: goPrevious, hasNext: !!next, hasPrevious: !!previous });
  useCaptionsFollowSource();
  useAutoplay(meta, next ? goNext : null);

  const showChrome = controlsVisible || menuOpen || status !== 'playing';

  const onSurfacePointerUp = (e: React.PointerEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.pointerType === 'touch') {
      playerUi.getState().set({ hovering: 'mobile', controlsVisible: !playerUi.getState().controlsVisible });
      return;
    }
    if (status === 'playing') togglePlay();
  };

  return (
    <div
      ref={containerRef}
      className={`relative h-[100dvh] w-full select-none overflow-hidden bg-black text-white ${showChrome ? '' : 'cursor-none'} ${rolling ? 'animate-[spin_1s_ease-in-out] motion-reduce:animate-none' : ''}`}
      data-testid="player"
      data-status={status}
      // Focus coming in (Tab, a shortcut) shows the controls; keyboard focus keeps them shown.
      onFocus={() => {
        showControls();
        if (lastInputWasKeyboard() && !playerUi.getState().keyboardFocus)
          playerUi.getState().set({ keyboardFocus: true });
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null) && playerUi.getState().keyboardFocus)
          playerUi.getState().set({ keyboardFocus: false });
      }}
      onPointerMove={(e) => {
        if (e.pointerType === 'mouse') {
          playerUi.getState().set({ hovering: 'mouse' });
          showControls();
        }
      }}
      onPointerLeave={() => playerUi.getState().set({ hovering: 'none' })}
    >
      <VideoSurface containerRef={containerRef} />
      {/* Click toggles play, double-click fullscreen, a tap shows the controls. */}
      <div
        className="absolute inset-0"
        onPointerUp={onSurfacePointerUp}
        onDoubleClick={() => requests.toggleFullscreen()}
        data-testid="player-surface"
        aria-hidden="true"
      />
      <CaptionsOverlay raised={showChrome} />

      {status === 'playing' && <PlaybackIndicators />}

      {problem && problem.kind !== 'failed' ? (
        <ProblemView problem={problem} onRetry={retry} />
      ) : status === 'idle' || status === 'scraping' ? (
        <ScrapingView />
      ) : status === 'scrapeNotFound' ? (
        <ScrapeNotFoundView failure={problem?.kind === 'failed' ? problem.message : null} onRetry={retry} />
      ) : status === 'playbackError' ? (
        <PlaybackErrorView />
      ) : null}

      {next && status === 'playing' && <NextEpisodeButtons next={next} goNext={goNext} />}

      <TopBar
        meta={meta}
        backTo={backTo}
        titleActions={titleActions}
        shown={showChrome}
        onHover={setHoveringBars}
      />
      {status === 'playing' && (
        <BottomBar meta={meta} openMenu={open} shown={showChrome} onHover={setHoveringBars} />
      )}

      <OverlayHost route={route} open={open} close={close} back={back} meta={meta} />
    </div>
  );
}
