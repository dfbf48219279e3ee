import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from './icons.tsx';

/** The player box's top bar with its way back (the placeholder's and the not-yet-released state's). */
export function PlayerBackBar({ backTo }: { backTo: string }) {
  const { t } = useTranslation(['player']);
  return (
    <div className="absolute inset-x-0 top-0 z-30 flex items-center gap-3 bg-gradient-to-b from-black/80 to-transparent px-4 py-3 tv:px-overscan-x tv:pt-overscan-y">
      <Link
        to={backTo}
        className="flex items-center gap-1 rounded-full px-2 py-1 text-sm font-semibold hover:bg-white/15"
      >
        <Icon name="arrowLeft" className="h-5 w-5" />
        {t('player.back')}
      </Link>
    </div>
  );
}
