import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';

/** Registered only when a DMCA address is configured (the router checks). */
export function DmcaPage() {
  const { t } = useTranslation(['dmca']);
  usePageTitle(t('dmca.pageTitle'));
  const email = runtimeConfig().dmcaEmail ?? '';
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-3xl font-bold text-fg">{t('dmca.title')}</h1>
      <p className="mt-4 leading-relaxed text-fg-muted">{t('dmca.text')}</p>
      <a className="mt-6 inline-block text-fg-accent hover:underline" href={`mailto:${email}`}>
        {t('dmca.contact', { email })}
      </a>
    </div>
  );
}
