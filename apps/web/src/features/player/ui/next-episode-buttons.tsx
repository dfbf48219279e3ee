import { useTranslation } from 'react-i18next';
import { nextEpisodeButtonVisible } from '../core/autoplay.ts';
import { requests, usePlayer } from '../core/player-store.ts';
import { usePlayerUi } from '../core/ui-store.ts';
import type { NextEpisode } from '../session/use-episode-navigation.ts';
import { Icon } from './icons.tsx';

/** Replay and Next episode (or season), near the end of an episode. */
export function NextEpisodeButtons({ next, goNext }: { next: NextEpisode; goNext(): void }) {
  const { t } = useTranslation(['player']);
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
