import { useTranslation } from 'react-i18next';
import { useMigrationStatus } from '../stores/index.ts';

/** Shown while start-up migrates stored data (decision 030). */
export function MigrationScreen() {
  const { t } = useTranslation(['screens']);
  return (
    <div
      className="flex min-h-dvh flex-col items-center justify-center gap-4"
      role="status"
      data-testid="migration-screen"
    >
      <span
        className="h-10 w-10 animate-spin rounded-full border-4 border-surface-3 border-t-accent"
        aria-hidden="true"
      />
      <p className="text-fg">{t('screens.migration.inProgress')}</p>
    </div>
  );
}

/** "Failed to migrate your data", until dismissed. */
export function MigrationFailedBanner() {
  const { t } = useTranslation(['global', 'screens']);
  const failed = useMigrationStatus((s) => s.failed.length > 0 && !s.dismissed);
  const dismiss = useMigrationStatus((s) => s.dismiss);
  if (!failed) return null;
  return (
    <div
      role="alert"
      className="flex items-center justify-center gap-4 bg-red-800 px-4 py-2 text-sm text-white"
      data-testid="migration-failed"
    >
      <span>{t('screens.migration.failed')}</span>
      <button type="button" onClick={dismiss} className="font-semibold underline">
        {t('global.dismiss')}
      </button>
    </div>
  );
}
