import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { ExportSection } from './export/export-section.tsx';
import { ImportSection } from './import/import-section.tsx';

/** `/import`: bring a library in from other services, take everything out (issue 27; decisions 096, 098). */
export function TransferPage() {
  const { t } = useTranslation(['transfer']);
  usePageTitle(t('transfer.title'));
  return (
    <div className="mx-auto flex max-w-3xl flex-col gap-12 py-8">
      <header>
        <h1 className="mb-2 text-3xl font-bold text-fg">{t('transfer.title')}</h1>
        <p className="text-fg-muted">{t('transfer.intro')}</p>
      </header>
      <ImportSection />
      <ExportSection />
    </div>
  );
}
