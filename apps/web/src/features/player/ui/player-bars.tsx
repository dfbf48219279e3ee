import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { requests, usePlayer } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';
import {
  ControlButton,
  PlayPauseButton,
  ProgressBar,
  SkipButtons,
  TimeDisplay,
  VolumeControl,
} from './controls.tsx';
import type { OptionalControl } from '../core/bar-layout.ts';
import { usePlayerUi } from '../core/ui-store.ts';
import { Icon } from './icons.tsx';
import { useBarLayout } from './player-width.ts';

interface BarProps {
  /** Whether the bars show (else they fade out and let the pointer through). */
  shown: boolean;
  onHover(hovering: boolean): void;
}

const fade = (shown: boolean) =>
  `transition-opacity motion-reduce:transition-none ${shown ? 'opacity-100' : 'pointer-events-none opacity-0'}`;

/** The back link, the title (and episode), the sample label and the app's title actions. */
export function TopBar({
  meta,
  backTo,
  titleActions,
  shown,
  onHover,
}: BarProps & { meta: PlayerMeta; backTo: string; titleActions?: ReactNode }) {
  const { t } = useTranslation(['media', 'player']);
  const isSample = usePlayer((s) => s.isSample);
  const episodeLabel =
    meta.type === 'show' && meta.season && meta.episode
      ? t('media.seasons.seasonEpisode', { season: meta.season.number, episode: meta.episode.number })
      : null;
  return (
    <div
      className={`absolute inset-x-0 top-0 z-30 flex items-center gap-3 bg-gradient-to-b from-black/80 to-transparent px-4 py-3 tv:px-overscan-x tv:pt-overscan-y ${fade(shown)}`}
      // Hidden controls cannot be focused or pressed (Tab shows them first: useKeyboardShortcuts).
      inert={!shown}
      data-testid="player-top-bar"
      data-player-bar=""
      onPointerEnter={() => onHover(true)}
      onPointerLeave={() => onHover(false)}
    >
      <Link
        to={backTo}
        className="flex min-h-11 shrink-0 items-center gap-1 rounded-full px-2 py-1 text-sm font-semibold hover:bg-white/15 focus-visible:outline-2 focus-visible:outline-white"
        data-testid="player-back"
      >
        <Icon name="arrowLeft" className="h-5 w-5" />
        {t('player.back')}
      </Link>
      <span className="text-white/40">/</span>
      <h2 className="min-w-0 truncate text-sm font-semibold" data-testid="player-title">
        <bdi>{meta.title}</bdi>
        {episodeLabel && <span className="ms-2 text-white/70">{episodeLabel}</span>}
        {meta.episode && <bdi className="ms-2 hidden text-white/60 xl:inline">{meta.episode.title}</bdi>}
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
  );
}

/** The Cast SDK's own button element (shows and hides itself). */
export function CastLauncher() {
  return (
    <span className="inline-flex h-11 w-11 shrink-0 p-2.5" data-testid="cast">
      <google-cast-launcher />
    </span>
  );
}

/**
 * The seek bar and the controls; the menus open through `openMenu` (`?r=` routes). Play, the time,
 * subtitles, settings and fullscreen are always there; the others only where they fit (bar-layout.ts),
 * else the settings menu offers them.
 */
export function BottomBar({
  meta,
  openMenu,
  shown,
  onHover,
}: BarProps & { meta: PlayerMeta; openMenu(path: string): void }) {
  const { t } = useTranslation(['player']);
  const isFullscreen = usePlayer((s) => s.playback.isFullscreen);
  const layout = useBarLayout(meta.type === 'show');
  const narrow = usePlayerUi((s) => s.width < 480);
  const inBar = Object.fromEntries(layout.bar.map((c) => [c, true])) as Partial<
    Record<OptionalControl, true>
  >;
  return (
    <div
      className={`absolute inset-x-0 bottom-0 z-30 bg-gradient-to-t from-black/85 to-transparent px-2 pb-2 pt-10 min-[480px]:px-4 min-[480px]:pb-3 tv:px-overscan-x tv:pb-overscan-y ${fade(shown)}`}
      // Hidden controls cannot be focused or pressed (Tab shows them first: useKeyboardShortcuts).
      inert={!shown}
      onPointerEnter={() => onHover(true)}
      onPointerLeave={() => onHover(false)}
      data-testid="player-controls"
      data-player-bar=""
      data-in-menu={layout.menu.join(' ')}
    >
      <ProgressBar />
      <div className="flex items-center gap-1">
        <PlayPauseButton />
        {inBar.skip && <SkipButtons />}
        {inBar.volume && <VolumeControl />}
        <TimeDisplay elapsedOnly={layout.time === 'elapsed'} short={narrow} />
        <div className="ms-auto flex shrink-0 items-center gap-1">
          {inBar.episodes && (
            <ControlButton
              icon="episodes"
              label={t('player.controls.episodes')}
              onClick={() => openMenu('/episodes')}
              testId="open-episodes"
            />
          )}
          <ControlButton
            icon="captions"
            label={t('player.controls.captions')}
            onClick={() => openMenu('/captions')}
            testId="open-captions"
          />
          <ControlButton
            icon="settings"
            label={t('player.controls.settings')}
            onClick={() => openMenu('/settings')}
            testId="open-settings"
          />
          {inBar.pip && (
            <ControlButton
              icon="pip"
              label={t('player.controls.pip')}
              onClick={() => requests.togglePictureInPicture()}
              testId="pip"
            />
          )}
          {inBar.airplay && (
            <ControlButton
              icon="airplay"
              label={t('player.controls.airplay')}
              onClick={() => requests.startAirplay()}
              testId="airplay"
            />
          )}
          {inBar.cast && <CastLauncher />}
          <ControlButton
            icon={isFullscreen ? 'exitFullscreen' : 'fullscreen'}
            label={isFullscreen ? t('player.controls.exitFullscreen') : t('player.controls.fullscreen')}
            onClick={() => requests.toggleFullscreen()}
            testId="fullscreen"
          />
        </div>
      </div>
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
