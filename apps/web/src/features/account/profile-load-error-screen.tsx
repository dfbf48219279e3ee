import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { useAccountStore } from '../../stores/index.ts';

const logout = () => import('../../lib/sync/session.ts').then((m) => m.logout());

/**
 * "Failed to load your profile" as a full screen (see `useProfileLoadFailure`): loaded only when it is
 * shown, so the app's first view does not carry it.
 */
export function ProfileLoadErrorScreen() {
  const { t } = useTranslation(['account']);
  const backendUrl = useAccountStore((s) => s.backendUrl);
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-4 p-6 text-center"
      role="alert"
      data-testid="profile-load-error"
    >
      <h1 className="text-2xl font-bold text-fg">{t('account.loadFailed.title')}</h1>
      <p className="max-w-md text-fg-muted">{t('account.loadFailed.text')}</p>
      <div className="flex flex-wrap justify-center gap-3">
        <Button variant="secondary" onClick={() => void logout()}>
          {t('account.loadFailed.logout')}
        </Button>
        {backendUrl && (
          <Button
            variant="secondary"
            onClick={() => {
              void logout().then(() => useAccountStore.getState().setBackendUrl(null));
            }}
          >
            {t('account.loadFailed.resetServer')}
          </Button>
        )}
        <Button onClick={() => window.location.reload()}>{t('account.loadFailed.reload')}</Button>
      </div>
    </div>
  );
}
