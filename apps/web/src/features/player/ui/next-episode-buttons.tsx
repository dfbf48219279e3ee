import { useTranslation } from 'react-i18next';
import { nextEpisodeButtonVisible } from '../core/autoplay.ts';
import { requests, usePlayer } from '../core/player-store.ts';
import { creditsStart } from '../core/segments.ts';
import { usePlayerUi } from '../core/ui-store.ts';
import { usePlayerPrefsStore } from '../../../stores/index.ts';
import type { NextEpisode } from '../session/use-episode-navigation.ts';
import { Icon } from './icons.tsx';
import { usePromptFocus } from './tv-focus.ts';

/** Replay and Next episode (or season), near the end of an episode; on a TV, Next takes focus (tv-focus.ts). */
export function NextEpisodeButtons({ next, goNext }: { next: NextEpisode; goNext(): void }) {
  const { t } = useTranslation(['player']);
  const focusRef = usePromptFocus();
  const time = usePlayer((s) => s.playback.time);
  const duration = usePlayer((s) => s.playback.duration);
  const hasPlayed = usePlayer((s) => s.playback.hasPlayedOnce);
  const hidden = usePlayer((s) => s.nextEpisodeHidden);
  const controlsVisible = usePlayerUi((s) => s.controlsVisible);
  // The credits bring the next episode forward, unless the viewer turned that off.
  const creditsAt = usePlayer((s) => creditsStart(s.segments, s.playback.duration));
  const offerAtCredits = usePlayerPrefsStore((s) => s.segmentSkips.credits !== 'off');
  const visible = nextEpisodeButtonVisible({
    time,
    duration,
    controlsVisible,
    hasPlayed,
    creditsAt: offerAtCredits ? creditsAt : null,
  });
  if (hidden || visible === 'hidden') return null;
  return (
    <div
      className="absolute bottom-28 end-6 z-20 flex gap-3"
      data-testid="next-episode"
      data-player-prompt=""
    >
      <button
        type="button"
        className="rounded-lg bg-white/15 px-4 py-2 text-sm font-semibold text-white backdrop-blur hover:bg-white/25 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
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
        ref={focusRef}
        type="button"
        className="rounded-lg bg-white px-4 py-2 text-sm font-semibold text-black hover:bg-white/90 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-white"
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
