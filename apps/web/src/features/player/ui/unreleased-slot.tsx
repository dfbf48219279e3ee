import { releaseDay } from '@marquee/contract/values';
import { useTranslation } from 'react-i18next';
import { PlayerBackBar } from './back-link.tsx';
import { dateTimeFormat } from '../../../lib/intl.ts';

export interface UnreleasedSlotProps {
  backTo: string;
  /** An episode airs; a title (movie or show) is released. */
  kind: 'episode' | 'title';
  /** Its date as the metadata has it (null or empty when none is known). */
  date: string | null;
}

/**
 * What the player's slot shows for a title or episode that is not out yet (the contract's release
 * rule): no player, no scraping — the Unreleased state, with the date when one is known.
 */
export function UnreleasedSlot({ backTo, kind, date }: UnreleasedSlotProps) {
  const { t, i18n } = useTranslation(['media', 'player']);
  const day = releaseDay(date);
  const formatted = day
    ? dateTimeFormat(i18n.language, { dateStyle: 'long', timeZone: 'UTC' }).format(
        new Date(`${day}T00:00:00Z`),
      )
    : null;
  const when = formatted
    ? kind === 'episode'
      ? t('media.seasons.airsOn', { date: formatted })
      : t('player.unreleased.releasesOn', { date: formatted })
    : t('player.unreleased.noDate');
  return (
    <div
      className="relative flex min-h-[50dvh] w-full select-none flex-col items-center justify-center gap-2 bg-black px-6 py-16 text-center text-white"
      data-testid="player-unreleased"
      role="status"
    >
      <PlayerBackBar backTo={backTo} />
      <p className="text-2xl font-bold">{t('media.unreleased')}</p>
      <p className="text-white/70">{when}</p>
    </div>
  );
}
