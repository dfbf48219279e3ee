import { useTranslation } from 'react-i18next';
import { requests, usePlayer } from '../../core/player-store.ts';
import { SPEEDS } from '../playback-speed.ts';
import { MenuCard, MenuGroup, MenuList, MenuRadio } from './menu-parts.tsx';

/** `/settings/playback`: the playback speed, one of a few. */
export function PlaybackMenu({ back }: { back(): void }) {
  const { t } = useTranslation(['player']);
  const rate = usePlayer((s) => s.playback.playbackRate);
  return (
    <MenuCard
      title={t('player.settings.playback')}
      testId="playback-menu"
      back={{ label: t('player.menu.back'), go: back }}
      parent={back}
    >
      <MenuList>
        <MenuGroup label={t('player.speed.label')}>
          {SPEEDS.map((s) => (
            <MenuRadio
              key={s}
              checked={rate === s}
              onClick={() => requests.setPlaybackRate(s)}
              data-testid={`speed-${s}`}
            >
              <span className="flex-1">{t('player.speed.value', { rate: s })}</span>
            </MenuRadio>
          ))}
        </MenuGroup>
      </MenuList>
    </MenuCard>
  );
}
