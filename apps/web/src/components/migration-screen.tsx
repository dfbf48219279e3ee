import { useTranslation } from 'react-i18next';

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
