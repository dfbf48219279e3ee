import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from './icons.tsx';
import { SearchingView } from './status-views.tsx';

/**
 * The player's box while the title's details (and a show's episode) load: the same size, the same
 * "Looking for sources…" and back link as the player that replaces it, so the page neither moves nor
 * waits for the details to show something.
 */
export function PlayerPlaceholder({ backTo }: { backTo: string }) {
  const { t } = useTranslation(['player']);
  return (
    <div
      className="relative h-[100dvh] w-full select-none overflow-hidden bg-black text-white"
      data-testid="player-placeholder"
    >
      <SearchingView />
      <div className="absolute inset-x-0 top-0 z-30 flex items-center gap-3 bg-gradient-to-b from-black/80 to-transparent px-4 py-3">
        <Link
          to={backTo}
          className="flex items-center gap-1 rounded-full px-2 py-1 text-sm font-semibold hover:bg-white/15"
        >
          <Icon name="arrowLeft" className="h-5 w-5" />
          {t('player.back')}
        </Link>
      </div>
    </div>
  );
}
