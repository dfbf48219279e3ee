import { useTranslation } from 'react-i18next';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Faq } from './faq.tsx';

export function SupportPage() {
  const { t } = useTranslation(['support']);
  usePageTitle(t('support.pageTitle'));
  const { links, dmcaEmail } = runtimeConfig();
  const button =
    'inline-flex items-center rounded-lg bg-surface-2 px-4 py-2 text-sm font-semibold text-fg hover:bg-surface-3';
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-3xl font-bold text-fg">{t('support.title')}</h1>
      <p className="mt-4 text-fg-muted">{t('support.intro')}</p>
      <Faq
        items={([1, 2, 3] as const).map((n) => ({
          question: t(`support.faq.q${n}`),
          answer: t(`support.faq.a${n}`),
        }))}
      />
      <div className="mt-8 flex flex-wrap items-center gap-3">
        {links.docs && (
          <a className={button} href={links.docs} target="_blank" rel="noreferrer">
            {t('support.docs')}
          </a>
        )}
        {dmcaEmail && (
          <a className={button} href={`mailto:${dmcaEmail}`}>
            {t('support.contact')}
          </a>
        )}
      </div>
      {dmcaEmail && (
        <p className="mt-4 text-sm text-fg-muted">{t('support.contactText', { email: dmcaEmail })}</p>
      )}
    </div>
  );
}
