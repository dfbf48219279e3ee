import { useRef, useState, type FocusEvent, type PointerEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isTvMode, useTvMode } from '../../../lib/tv/tv-mode.ts';
import { togglePlay, requests, usePlayer } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import { playerUi, usePlayerUi } from '../core/ui-store.ts';
import { PartyPanel } from '../party/party-panel.tsx';
import { usePartySync } from '../party/use-party-sync.ts';
import type { SessionProblem } from '../scrape/session.ts';
import { CaptionsOverlay } from './captions-view.tsx';
import { showControls } from './controls-visibility.ts';
import { Icon } from './icons.tsx';
import { lastInputWasKeyboard } from './keyboard-shortcuts.ts';
import { OverlayHost } from './menus/overlay-host.tsx';
import { NextEpisodeButtons } from './next-episode-buttons.tsx';
import { PauseOverlay } from './pause-overlay.tsx';
import { ShortcutsOverlay } from './shortcuts-overlay.tsx';
import { SkipSegmentButton } from './skip-segment-button.tsx';
import { BottomBar, TopBar } from './player-bars.tsx';
import { PlaybackErrorView, ProblemView, ScrapeNotFoundView, ScrapingView } from './status-views.tsx';
import { StillWatchingDialog } from './still-watching-dialog.tsx';
import { usePlayerEffects } from './use-player-effects.ts';
import { usePlayerMenus } from './use-player-menus.ts';
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
  /** Start from the beginning, not from saved progress (the title page's Start over). */
  fromStart?: boolean;
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

/** The screen for where the session is: a problem, the search, nothing found, a playback error. */
function StatusScreen({ problem, retry }: { problem: SessionProblem | null; retry(): void }) {
  const status = usePlayer((s) => s.status);
  if (problem && problem.kind !== 'failed') return <ProblemView problem={problem} onRetry={retry} />;
  if (status === 'idle' || status === 'scraping') return <ScrapingView />;
  if (status === 'scrapeNotFound')
    return (
      <ScrapeNotFoundView failure={problem?.kind === 'failed' ? problem.message : null} onRetry={retry} />
    );
  if (status === 'playbackError') return <PlaybackErrorView />;
  return null;
}

/** Over the video: a click toggles play, a double-click fullscreen, a tap shows or hides the controls. */
function SurfaceLayer() {
  const status = usePlayer((s) => s.status);
  const onPointerUp = (e: PointerEvent) => {
    if (e.target !== e.currentTarget) return;
    if (e.pointerType === 'touch') {
      playerUi.getState().set({ hovering: 'mobile', controlsVisible: !playerUi.getState().controlsVisible });
      return;
    }
    if (status === 'playing') togglePlay();
  };
  return (
    <div
      className="absolute inset-0"
      onPointerUp={onPointerUp}
      onDoubleClick={() => requests.toggleFullscreen()}
      data-testid="player-surface"
      aria-hidden="true"
    />
  );
}

// Focus coming in (Tab, a shortcut) shows the controls; keyboard focus keeps them shown. On a TV, focus
// the player gives itself (a prompt appearing, the bars hiding: tv-focus.ts) does not bring them back.
const onPlayerFocus = (e: FocusEvent<HTMLDivElement>) => {
  if (isTvMode() && (e.target === e.currentTarget || (e.target as Element).closest('[data-player-prompt]')))
    return;
  showControls();
  if (lastInputWasKeyboard() && !playerUi.getState().keyboardFocus)
    playerUi.getState().set({ keyboardFocus: true });
};
const onPlayerBlur = (e: FocusEvent<HTMLDivElement>) => {
  if (!e.currentTarget.contains(e.relatedTarget as Node | null) && playerUi.getState().keyboardFocus)
    playerUi.getState().set({ keyboardFocus: false });
};
const onPlayerPointerMove = (e: PointerEvent) => {
  if (e.pointerType === 'mouse') {
    playerUi.getState().set({ hovering: 'mouse' });
    showControls();
  }
};
const onPlayerPointerLeave = () => playerUi.getState().set({ hovering: 'none' });

/**
 * The player: one store (core/player-store.ts), one display that owns the `<video>` (display/), the
 * session hooks that run scraping, autoplay and casting (session/), and this view, which only renders
 * their state and sends requests. Menus are `?r=` overlays (menus/). What reaches outside the page comes
 * from `PlayerDeps` (session/player-deps.tsx).
 */
export function PlayerView({ meta, backTo, titleActions, startOnOpen, fromStart = false }: PlayerViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const [hoveringBars, setHoveringBars] = useState(false);
  const status = usePlayer((s) => s.status);
  const controlsVisible = usePlayerUi((s) => s.controlsVisible);
  const tv = useTvMode();
  const rolling = usePlayerUi((s) => s.rolling);
  const menus = usePlayerMenus(containerRef);
  const party = usePartySync(meta);
  const { problem, retry, next, goNext } = usePlayerEffects(meta, {
    startOnOpen,
    fromStart,
    containerRef,
    menus,
    hoveringBars,
    inParty: party !== null,
  });
  const showChrome = controlsVisible || menus.route !== null || status !== 'playing';

  const player = (
    <div
      ref={containerRef}
      className={`relative ${party ? 'h-[min(56.25vw,60dvh)] min-h-52 lg:h-dvh lg:min-w-0 lg:flex-1' : 'h-[100dvh]'} w-full select-none overflow-hidden bg-black text-white outline-none ${showChrome ? '' : 'cursor-none'} ${rolling ? 'animate-[spin_1s_ease-in-out] motion-reduce:animate-none' : ''}`}
      data-testid="player"
      data-status={status}
      data-player-root=""
      // On a TV the player itself holds focus while the bars are hidden (tv-focus.ts); never a Tab stop.
      tabIndex={tv ? -1 : undefined}
      onFocus={onPlayerFocus}
      onBlur={onPlayerBlur}
      onPointerMove={onPlayerPointerMove}
      onPointerLeave={onPlayerPointerLeave}
    >
      <VideoSurface containerRef={containerRef} />
      <SurfaceLayer />
      {status === 'playing' && <PauseOverlay meta={meta} menuOpen={menus.route !== null} />}
      <CaptionsOverlay raised={showChrome} />
      {status === 'playing' && <PlaybackIndicators />}
      <StatusScreen problem={problem} retry={retry} />
      {status === 'playing' && <SkipSegmentButton />}
      {next && status === 'playing' && <NextEpisodeButtons next={next} goNext={goNext} />}
      <TopBar
        meta={meta}
        backTo={backTo}
        titleActions={titleActions}
        shown={showChrome}
        onHover={setHoveringBars}
      />
      {status === 'playing' && (
        <BottomBar meta={meta} openMenu={menus.open} shown={showChrome} onHover={setHoveringBars} />
      )}
      <OverlayHost route={menus.route} open={menus.open} close={menus.close} back={menus.back} meta={meta} />
      <StillWatchingDialog meta={meta} backTo={backTo} />
      <ShortcutsOverlay />
    </div>
  );
  // In a watch party the chat and its members sit beside the video (under it on a phone).
  if (!party) return player;
  return (
    <div className="flex flex-col bg-black lg:flex-row" data-testid="party-layout">
      {player}
      <PartyPanel session={party} />
    </div>
  );
}
