import { useTranslation } from 'react-i18next';
import { useSessionStatus } from '../../stores/index.ts';

const restore = () => import('../../lib/sync/session.ts').then((m) => m.restore());

/** "Failed to load your profile" over the working app (see `useProfileLoadFailure`); loaded only then. */
export function ProfileLoadNotice() {
  const { t } = useTranslation(['account', 'global']);
  const dismiss = useSessionStatus((s) => s.dismissFailure);
  return (
    <div
      role="status"
      className="flex items-center justify-center gap-4 bg-amber-800 px-4 py-2 text-sm text-white"
      data-testid="profile-load-notice"
    >
      <span>{t('account.loadFailed.title')}</span>
      <button type="button" className="font-semibold underline" onClick={() => void restore()}>
        {t('account.loadFailed.retry')}
      </button>
      <button type="button" className="font-semibold underline" onClick={dismiss}>
        {t('global.dismiss')}
      </button>
    </div>
  );
}
