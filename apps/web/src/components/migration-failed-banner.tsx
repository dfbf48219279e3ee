import { useTranslation } from 'react-i18next';
import { useMigrationStatus } from '../stores/index.ts';

/* Loaded only when a migration failed (app-layout.tsx): not part of the first view. */

/** "Failed to migrate your data", until dismissed. */
export function MigrationFailedBanner() {
  const { t } = useTranslation(['global', 'screens']);
  const dismiss = useMigrationStatus((s) => s.dismiss);
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
