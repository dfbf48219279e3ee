import { useTranslation } from 'react-i18next';
import { requests, usePlayer } from '../../core/player-store.ts';
import { SPEEDS } from '../hooks.ts';
import { MenuCard } from './menu-parts.tsx';

/** `/settings/playback`: the playback speed. */
export function PlaybackMenu({ back }: { back(): void }) {
  const { t } = useTranslation(['player']);
  const rate = usePlayer((s) => s.playback.playbackRate);
  return (
    <MenuCard
      title={t('player.settings.playback')}
      testId="playback-menu"
      back={t('player.menu.back')}
      onBack={back}
    >
      <p className="px-3 py-1 text-sm text-white/70">{t('player.speed.label')}</p>
      <div className="flex flex-wrap gap-2 px-3 py-2">
        {SPEEDS.map((s) => (
          <button
            key={s}
            type="button"
            onClick={() => requests.setPlaybackRate(s)}
            aria-pressed={rate === s}
            data-testid={`speed-${s}`}
            className={`rounded-lg px-3 py-1.5 text-sm ${rate === s ? 'bg-accent text-white' : 'bg-white/10 hover:bg-white/20'}`}
          >
            {t('player.speed.value', { rate: s })}
          </button>
        ))}
      </div>
    </MenuCard>
  );
}
