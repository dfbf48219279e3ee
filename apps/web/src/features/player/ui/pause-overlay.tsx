import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { clock } from '../../../lib/clock.ts';
import { dateTimeFormat, listFormat, numberFormat } from '../../../lib/intl.ts';
import { watchedEpisodeIds } from '../../../stores/library/history-rules.ts';
import { useLibraryStore } from '../../../stores/library/library-store.ts';
import { usePreferencesStore } from '../../../stores/preferences-store.ts';
import { usePlayer } from '../core/player-store.ts';
import { playerKey, useStillWatching } from '../core/still-watching.ts';
import type { PlayerMeta } from '../core/types.ts';
import { playerUi } from '../core/ui-store.ts';

/** How long the player stays paused and untouched before the overlay shows (Netflix waits about as long). */
export const PAUSE_OVERLAY_DELAY_MS = 5_000;

/** What wakes the player from the overlay: the controls come back. */
const WAKE_EVENTS = ['pointermove', 'pointerdown', 'keydown', 'touchstart', 'wheel'] as const;

/** "1 hour 12 minutes" in the viewer's language, whole minutes (at least one). */
export function remainingText(language: string, seconds: number): string {
  const minutes = Math.max(1, Math.round(seconds / 60));
  const unit = (value: number, u: 'hour' | 'minute') =>
    numberFormat(language, { style: 'unit', unit: u, unitDisplay: 'long' }).format(value);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (!hours) return unit(rest, 'minute');
  if (!rest) return unit(hours, 'hour');
  return listFormat(language, { style: 'long', type: 'unit' }).format([
    unit(hours, 'hour'),
    unit(rest, 'minute'),
  ]);
}

/**
 * Whether the overlay shows: on (the viewer's setting), paused after having played, nothing loading,
 * no menu and no question open, and no movement or key for `PAUSE_OVERLAY_DELAY_MS`. Any of them hides
 * it, and the controls show again.
 */
function usePauseOverlayShown(meta: PlayerMeta, menuOpen: boolean): boolean {
  const enabled = usePreferencesStore((s) => s.enablePauseOverlay);
  const paused = usePlayer(
    (s) => s.status === 'playing' && s.playback.hasPlayedOnce && s.playback.isPaused && !s.playback.isLoading,
  );
  const asked = useStillWatching((s) => s.asking === playerKey(meta.tmdbId, meta.episode?.id));
  const waiting = enabled && paused && !menuOpen && !asked;
  const [shown, setShown] = useState(false);
  useEffect(() => {
    setShown(false);
    if (!waiting) return;
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        setShown(true);
        playerUi.getState().set({ controlsVisible: false });
      }, PAUSE_OVERLAY_DELAY_MS);
    };
    const wake = () => {
      setShown(false);
      arm();
    };
    arm();
    for (const name of WAKE_EVENTS) window.addEventListener(name, wake, { capture: true, passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of WAKE_EVENTS) window.removeEventListener(name, wake, { capture: true });
    };
  }, [waiting]);
  return shown && waiting;
}

/** Spoilers hidden (decision 115) and this episode not watched yet: what it is about is not shown. */
function useEpisodeOverviewHidden(meta: PlayerMeta): boolean {
  const hide = usePreferencesStore((s) => s.hideSpoilers);
  const episodeId = meta.type === 'show' ? meta.episode?.id : undefined;
  // Read only while it matters: the history is scanned once per change of it, not per frame.
  const history = useLibraryStore((s) => (hide && episodeId !== undefined ? s.history : null));
  const watched = useMemo(
    () => !!history && !!episodeId && watchedEpisodeIds(history, meta.tmdbId).has(episodeId),
    [history, episodeId, meta.tmdbId],
  );
  return hide && episodeId !== undefined && !watched;
}

/**
 * The pause overlay (decision 112; p-stream's `enablePauseOverlay`): while paused and untouched, what is
 * playing — the title, the season and episode with its name, what it is about — and how much is left,
 * ending when. Text over a darkened video at the start side; it takes no focus and no clicks (a click
 * reaches the video, as without it).
 */
export function PauseOverlay({ meta, menuOpen }: { meta: PlayerMeta; menuOpen: boolean }) {
  const { t, i18n } = useTranslation(['media', 'player']);
  const shown = usePauseOverlayShown(meta, menuOpen);
  const overviewHidden = useEpisodeOverviewHidden(meta);
  const time = usePlayer((s) => s.playback.time);
  const duration = usePlayer((s) => s.playback.duration);
  const rate = usePlayer((s) => s.playback.playbackRate);
  if (!shown) return null;
  const left = duration > 0 ? Math.max(0, duration - time) : null;
  const endsAt = left === null ? null : new Date(clock.now().getTime() + (left / (rate || 1)) * 1000);
  const overview = overviewHidden
    ? null
    : ((meta.type === 'show' ? meta.episode?.overview : meta.overview) ?? null);
  return (
    <div
      className="pointer-events-none absolute inset-0 z-20 flex items-center bg-black/70 [text-shadow:0_1px_3px_rgb(0_0_0/0.8)] sm:bg-transparent sm:bg-gradient-to-r sm:from-black/85 sm:via-black/50 sm:to-transparent sm:rtl:bg-gradient-to-l"
      data-testid="pause-overlay"
    >
      <div className="max-w-xl px-6 sm:px-12">
        <p className="text-sm font-semibold uppercase tracking-wide text-white/70">
          {t('player.pauseOverlay.watching')}
        </p>
        <h2 className="mt-1 text-3xl font-bold sm:text-5xl">
          <bdi>{meta.title}</bdi>
        </h2>
        {meta.type === 'show' && meta.season && meta.episode && (
          <p className="mt-2 text-lg font-semibold text-white/90" data-testid="pause-overlay-episode">
            {t('media.seasons.seasonEpisode', { season: meta.season.number, episode: meta.episode.number })}
            <bdi className="ms-2 font-normal">{meta.episode.title}</bdi>
          </p>
        )}
        {overview && (
          <p className="mt-3 line-clamp-3 text-white/80 sm:line-clamp-4">
            <bdi>{overview}</bdi>
          </p>
        )}
        {left !== null && endsAt && (
          <p className="mt-4 text-white/80" data-testid="pause-overlay-time">
            {t('player.pauseOverlay.left', { duration: remainingText(i18n.language, left) })}
            <span aria-hidden="true"> · </span>
            {t('player.pauseOverlay.endsAt', {
              time: dateTimeFormat(i18n.language, { timeStyle: 'short' }).format(endsAt),
            })}
          </p>
        )}
      </div>
    </div>
  );
}
