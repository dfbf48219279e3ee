import { useQuery } from '@tanstack/react-query';
import { isReleased, libraryKey, mediaPath } from '@marquee/contract';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { clock } from '../../../lib/clock.ts';
import { extensionClient } from '../../../lib/extension/messaging.ts';
import { customProxyUrls } from '../../../lib/proxy-transport.ts';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import {
  useAccountStore,
  useLibraryStore,
  usePlayerPrefsStore,
  usePreferencesStore,
} from '../../../stores/index.ts';
import { autoSelectCaption } from '../captions/caption-actions.ts';
import { canAutoplay, isInAutoplayZone, nextEpisodeButtonVisible, resumePosition } from '../core/autoplay.ts';
import { nextEpisodeInSeason, nextSeason, previousEpisodeInSeason } from '../core/meta.ts';
import { playerStore, requests, togglePlay, usePlayer } from '../core/player-store.ts';
import { parseTimestamp } from '../core/timestamp.ts';
import type { PlayerEpisode, PlayerMeta } from '../core/types.ts';
import { playerUi, usePlayerUi } from '../core/ui-store.ts';
import { setUpCasting } from '../display/cast.ts';
import { createDisplay } from '../display/display.ts';
import { generateThumbnails } from '../display/thumbnails.ts';
import { runSession, type SessionProblem } from '../scrape/session.ts';
import { CaptionsOverlay } from './captions-view.tsx';
import {
  ControlButton,
  PlayPauseButton,
  ProgressBar,
  SkipButtons,
  TimeDisplay,
  VolumeControl,
} from './controls.tsx';
import {
  showControls,
  useControlsAutoHide,
  useKeyboardShortcuts,
  useMediaSession,
  useProgressSaver,
  useRememberVolume,
  useVolumeSupport,
} from './hooks.ts';
import { Icon } from './icons.tsx';
import { OverlayHost } from './overlays.tsx';
import { seasonEpisodesQuery } from './queries.ts';
import { useOverlayRoute } from './use-overlay.ts';
import { PlaybackErrorView, ProblemView, ScrapeNotFoundView, ScrapingView } from './status-views.tsx';

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

interface NavState {
  fromStart?: boolean;
}

/** Where a source starts: `?t=`, else "from the start" after Next episode/Replay, else saved progress. */
function useStartPosition(meta: PlayerMeta) {
  const location = useLocation();
  const query = useRef(new URLSearchParams(location.search).get('t'));
  const fromStart = useRef((location.state as NavState | null)?.fromStart === true);
  return () => {
    const queryTime = parseTimestamp(query.current);
    if (fromStart.current && queryTime === null) return 0;
    const entry = useLibraryStore.getState().progress[libraryKey(meta.type, meta.tmdbId)];
    const saved =
      meta.type === 'movie'
        ? (entry?.progress ?? null)
        : meta.episode
          ? (entry?.episodes[meta.episode.id]?.progress ?? null)
          : null;
    return resumePosition({ queryTime, saved });
  };
}

/** Runs the metadata and scraping steps for this title; a new title (or retry) starts over. */
function useSession(meta: PlayerMeta) {
  const [problem, setProblem] = useState<SessionProblem | null>(null);
  const [attempt, setAttempt] = useState(0);
  const startAt = useStartPosition(meta);
  const startAtRef = useRef(startAt);
  useEffect(() => {
    startAtRef.current = startAt;
  });
  useEffect(() => {
    const controller = new AbortController();
    const store = playerStore.getState();
    store.reset();
    store.setMeta(meta);
    setProblem(null);
    const prefs = usePreferencesStore.getState();
    void runSession(
      playerStore,
      meta,
      {
        proxyList: useAccountStore.getState().proxyUrls,
        sourceOrder: prefs.enableSourceOrder ? prefs.sourceOrder : [],
        captcha: runtimeConfig().captcha.provider,
        startAt: () => startAtRef.current(),
      },
      controller.signal,
    ).then((p) => {
      if (!controller.signal.aborted) setProblem(p);
    });
    return () => controller.abort();
  }, [meta, attempt]);
  return { problem, retry: () => setAttempt((n) => n + 1) };
}

/** The episode after this one: next in the season, else the first aired one of the next season. */
function useNextEpisode(
  meta: PlayerMeta,
): { seasonId: string; episode: PlayerEpisode; nextSeason: boolean } | null {
  const inSeason = nextEpisodeInSeason(meta);
  const following = inSeason ? null : nextSeason(meta);
  const q = useQuery({ ...seasonEpisodesQuery(meta.tmdbId, following?.number ?? 0), enabled: !!following });
  if (inSeason && meta.season) {
    const aired = inSeason.airDate ? isReleased({ releaseDate: inSeason.airDate }, clock.now()) : false;
    return aired ? { seasonId: meta.season.id, episode: inSeason, nextSeason: false } : null;
  }
  if (!following || !q.data) return null;
  const first = q.data.episodes.find((e) => e.airDate && isReleased({ releaseDate: e.airDate }, clock.now()));
  return first ? { seasonId: q.data.id, episode: first, nextSeason: true } : null;
}

/** Chromecast: Google's sender script (a third party) loads once the viewer wants to watch, not on open. */
function useCasting() {
  const playRequested = usePlayer((s) => s.playRequested);
  useEffect(() => {
    if (!playRequested) return undefined;
    let stopCast: () => void = () => undefined;
    let live = true;
    void setUpCasting(playerStore, () => {
      const s = playerStore.getState().source;
      if (!s) return null;
      if (s.type === 'hls') return s.url;
      const q = playerStore.getState().currentQuality;
      return (q && s.qualities[q]?.url) || null;
    }).then((stop) => {
      if (live) stopCast = stop;
      else stop();
    });
    return () => {
      live = false;
      stopCast();
    };
  }, [playRequested]);
}

function VideoSurface({ containerRef }: { containerRef: React.RefObject<HTMLDivElement | null> }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = videoRef.current;
    const container = containerRef.current;
    if (!video || !container) return;
    const destroy = createDisplay({
      video,
      container,
      store: playerStore,
      qualityPreference: () => {
        const p = usePlayerPrefsStore.getState();
        return {
          automaticQuality: p.automaticQuality,
          lastChosenQuality: (p.lastChosenQuality as never) ?? null,
        };
      },
    });
    return destroy;
  }, [containerRef]);
  // The element belongs to the display (which raises preload when playback starts); React only places it.
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

/** Thumbnails for the seek bar when the viewer enabled them, once the source has played (never before Play). */
function useThumbnails() {
  const enabled = usePreferencesStore((s) => s.enableThumbnails);
  const version = usePlayer((s) => s.sourceVersion);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  useEffect(() => {
    const source = playerStore.getState().source;
    if (!enabled || !source || !hasPlayed) return;
    const controller = new AbortController();
    void generateThumbnails(
      source,
      (at, data) => !controller.signal.aborted && playerStore.getState().addThumbnail({ at, data }),
      controller.signal,
    );
    return () => controller.abort();
  }, [enabled, version, hasPlayed]);
}

function NextEpisodeButtons({
  next,
  goNext,
}: {
  next: NonNullable<ReturnType<typeof useNextEpisode>>;
  goNext(): void;
}) {
  const { t } = useTranslation();
  const time = usePlayer((s) => s.playback.time);
  const duration = usePlayer((s) => s.playback.duration);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  const hidden = usePlayer((s) => s.nextEpisodeHidden);
  const controlsVisible = usePlayerUi((s) => s.controlsVisible);
  if (hidden || nextEpisodeButtonVisible({ time, duration, controlsVisible, hasPlayed }) === 'hidden')
    return null;
  return (
    <div className="absolute bottom-28 end-6 z-20 flex gap-3" data-testid="next-episode">
      <button
        type="button"
        className="rounded-lg bg-white/15 px-4 py-2 text-sm font-semibold text-white backdrop-blur hover:bg-white/25"
        onClick={() => {
          requests.seek(0);
          requests.play();
        }}
        data-testid="replay"
      >
        <span className="inline-flex items-center gap-2">
          <Icon name="replay" className="h-4 w-4" />
          {t('player.nextEpisode.replay')}
        </span>
      </button>
      <button
        type="button"
        className="rounded-lg bg-white px-4 py-2 text-sm font-semibold text-black hover:bg-white/90"
        onClick={goNext}
        data-testid="next-episode-button"
      >
        <span className="inline-flex items-center gap-2">
          <Icon name="next" className="h-4 w-4" />
          {next.nextSeason ? t('player.nextEpisode.nextSeason') : t('player.nextEpisode.next')}
        </span>
      </button>
    </div>
  );
}

/**
 * The player: one store (core/player-store.ts), one display that owns the `<video>` (display/), and
 * this UI, which only reads state and sends requests. Menus are `?r=` overlays.
 */
export function PlayerView({ meta, backTo, titleActions, startOnOpen }: PlayerViewProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const containerRef = useRef<HTMLDivElement>(null);
  const [hoveringBars, setHoveringBars] = useState(false);
  const status = usePlayer((s) => s.status);
  const isSample = usePlayer((s) => s.isSample);
  const isLoading = usePlayer((s) => s.playback.isLoading);
  const isPaused = usePlayer((s) => s.playback.isPaused);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  const autoplayBlocked = usePlayer((s) => s.playback.autoplayBlocked);
  const isFullscreen = usePlayer((s) => s.playback.isFullscreen);
  const caps = usePlayer((s) => s.capabilities);
  const controlsVisible = usePlayerUi((s) => s.controlsVisible);
  const rolling = usePlayerUi((s) => s.rolling);
  const { route, open, close } = useOverlayRoute();
  const back = () => navigate(-1);
  const { problem, retry } = useSession(meta);
  const next = useNextEpisode(meta);
  const previous = previousEpisodeInSeason(meta);
  const menuOpen = route !== null;

  // Volume and speed the viewer set last, and whether to play at once, before the display reads them.
  useState(() => {
    const volume = usePlayerPrefsStore.getState().volume;
    playerStore.getState().updatePlayback({ volume: volume > 0 ? volume : 1, muted: volume === 0 });
    playerStore.getState().setPlayRequested(startOnOpen);
    return null;
  });

  const goTo = (seasonId: string, episodeId: string) =>
    navigate(mediaPath(meta.mediaKey, seasonId, episodeId), {
      state: { fromStart: true } satisfies NavState,
    });
  const goNext = () => next && goTo(next.seasonId, next.episode.id);

  useProgressSaver(meta);
  useCasting();
  useRememberVolume();
  useVolumeSupport();
  useThumbnails();
  useKeyboardShortcuts({ menuOpen, closeMenu: close, openShortcuts: () => open('/shortcuts') });
  useControlsAutoHide({ menuOpen, hoveringBars });
  useMediaSession(meta, {
    next: goNext,
    previous: () => previous && meta.season && goTo(meta.season.id, previous.id),
    hasNext: !!next,
    hasPrevious: !!previous,
  });

  // A new source with subtitles on: the last language comes back.
  useEffect(
    () =>
      playerStore.subscribe((s, prev) => {
        if (s.sourceVersion !== prev.sourceVersion && s.source) void autoSelectCaption();
      }),
    [],
  );

  // Autoplay of the next episode in the last 1 % (once per episode), when allowed.
  const nextRef = useRef(goNext);
  useEffect(() => {
    nextRef.current = goNext;
  });
  const hasNext = !!next;
  useEffect(() => {
    let done = false;
    return playerStore.subscribe((s) => {
      if (done || !hasNext || s.status !== 'playing' || !s.playback.hasPlayedOnce) return;
      const allowed = canAutoplay({
        enableAutoplay: usePreferencesStore.getState().enableAutoplay,
        mediaType: meta.type,
        instanceAllows: runtimeConfig().allowAutoplay,
        extensionActive: extensionClient().isActive(),
        hasCustomProxy: customProxyUrls(useAccountStore.getState().proxyUrls).length > 0,
      });
      if (allowed && isInAutoplayZone(s.playback.time, s.playback.duration)) {
        done = true;
        nextRef.current();
      }
    });
  }, [meta, hasNext]);

  const title =
    meta.type === 'show' && meta.season && meta.episode
      ? t('media.seasons.seasonEpisode', { season: meta.season.number, episode: meta.episode.number })
      : null;
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
      className={`relative h-[100dvh] w-full select-none overflow-hidden bg-black text-white ${showChrome ? '' : 'cursor-none'} ${rolling ? 'animate-[spin_1s_ease-in-out]' : ''}`}
      data-testid="player"
      data-status={status}
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

      {status === 'playing' && isLoading && !autoplayBlocked && (
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
      {status === 'playing' && (autoplayBlocked || (!hasPlayed && isPaused && !isLoading)) && (
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

      {problem && problem.kind !== 'failed' ? (
        <ProblemView problem={problem} onRetry={retry} />
      ) : status === 'idle' || status === 'scraping' ? (
        <ScrapingView />
      ) : status === 'scrapeNotFound' ? (
        <ScrapeNotFoundView failure={problem?.kind === 'failed' ? problem.message : null} />
      ) : status === 'playbackError' ? (
        <PlaybackErrorView />
      ) : null}

      {next && status === 'playing' && <NextEpisodeButtons next={next} goNext={goNext} />}

      {/* Top bar */}
      <div
        className={`absolute inset-x-0 top-0 z-30 flex items-center gap-3 bg-gradient-to-b from-black/80 to-transparent px-4 py-3 transition-opacity ${showChrome ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
        onPointerEnter={() => setHoveringBars(true)}
        onPointerLeave={() => setHoveringBars(false)}
      >
        <Link
          to={backTo}
          className="flex items-center gap-1 rounded-full px-2 py-1 text-sm font-semibold hover:bg-white/15"
          data-testid="player-back"
        >
          <Icon name="arrowLeft" className="h-5 w-5" />
          {t('player.back')}
        </Link>
        <span className="text-white/40">/</span>
        <h2 className="min-w-0 truncate text-sm font-semibold" data-testid="player-title">
          {meta.title}
          {title && <span className="ms-2 text-white/70">{title}</span>}
          {meta.episode && <span className="ms-2 hidden text-white/60 xl:inline">{meta.episode.title}</span>}
        </h2>
        {isSample && (
          <span
            className="rounded-full bg-amber-400 px-2 py-0.5 text-xs font-bold uppercase text-black"
            data-testid="sample-label"
            title={t('player.sampleHint')}
          >
            {t('player.sample')}
          </span>
        )}
        <div className="ms-auto flex items-center gap-2">{titleActions}</div>
      </div>

      {/* Bottom bar */}
      {status === 'playing' && (
        <div
          className={`absolute inset-x-0 bottom-0 z-30 bg-gradient-to-t from-black/85 to-transparent px-4 pb-3 pt-10 transition-opacity ${showChrome ? 'opacity-100' : 'pointer-events-none opacity-0'}`}
          onPointerEnter={() => setHoveringBars(true)}
          onPointerLeave={() => setHoveringBars(false)}
          data-testid="player-controls"
        >
          <ProgressBar />
          <div className="flex items-center gap-1">
            <PlayPauseButton />
            <SkipButtons />
            <VolumeControl />
            <TimeDisplay />
            <div className="ms-auto flex items-center gap-1">
              {meta.type === 'show' && (
                <ControlButton
                  icon="episodes"
                  label={t('player.controls.episodes')}
                  onClick={() => open('/episodes')}
                  testId="open-episodes"
                />
              )}
              <ControlButton
                icon="captions"
                label={t('player.controls.captions')}
                onClick={() => open('/captions')}
                testId="open-captions"
              />
              <ControlButton
                icon="settings"
                label={t('player.controls.settings')}
                onClick={() => open('/settings')}
                testId="open-settings"
              />
              {caps.canPictureInPicture && (
                <ControlButton
                  icon="pip"
                  label={t('player.controls.pip')}
                  onClick={() => requests.togglePictureInPicture()}
                  testId="pip"
                />
              )}
              {caps.canAirplay && (
                <ControlButton
                  icon="airplay"
                  label={t('player.controls.airplay')}
                  onClick={() => requests.startAirplay()}
                  testId="airplay"
                />
              )}
              {caps.canCast && (
                <span className="inline-block h-6 w-6" data-testid="cast">
                  {/* The Cast SDK's own button element (shows and hides itself). */}
                  <google-cast-launcher />
                </span>
              )}
              <ControlButton
                icon={isFullscreen ? 'exitFullscreen' : 'fullscreen'}
                label={isFullscreen ? t('player.controls.exitFullscreen') : t('player.controls.fullscreen')}
                onClick={() => requests.toggleFullscreen()}
                testId="fullscreen"
              />
            </div>
          </div>
        </div>
      )}

      <OverlayHost route={route} open={open} close={close} back={back} meta={meta} />
    </div>
  );
}

declare module 'react' {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace JSX {
    interface IntrinsicElements {
      'google-cast-launcher': React.DetailedHTMLProps<React.HTMLAttributes<HTMLElement>, HTMLElement>;
    }
  }
}
