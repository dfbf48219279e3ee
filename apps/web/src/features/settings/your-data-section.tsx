import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/button.tsx';
import { paths } from '../../lib/paths.ts';
import { Section } from './settings-ui.tsx';

/** Settings → Your data: the way to the import and export page (issue 27). */
export function YourDataSection() {
  const { t } = useTranslation(['settings']);
  return (
    <Section id="your-data" title={t('settings.yourData.heading')}>
      <div className="flex flex-col items-start gap-3 rounded-xl bg-surface-1 p-4">
        <p className="text-fg-muted">{t('settings.yourData.text')}</p>
        <ButtonLink variant="secondary" to={paths.transfer} data-testid="settings-import-link">
          {t('settings.yourData.open')}
        </ButtonLink>
      </div>
    </Section>
  );
}
