import { useTranslation } from 'react-i18next';
import { ButtonLink } from '../../components/button.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { Faq } from './faq.tsx';
import { paths } from '../../lib/paths.ts';

export function AboutPage() {
  const { t } = useTranslation(['about']);
  usePageTitle(t('about.pageTitle'));
  return (
    <div className="mx-auto max-w-3xl py-10">
      <h1 className="text-3xl font-bold text-fg">{t('about.title')}</h1>
      <p className="mt-4 leading-relaxed text-fg-muted">{t('about.description')}</p>
      <h2 className="mt-10 text-xl font-bold text-fg">{t('about.faqTitle')}</h2>
      <Faq
        items={([1, 2, 3, 4, 5] as const).map((n) => ({
          question: t(`about.faq.q${n}`),
          answer: t(`about.faq.a${n}`),
        }))}
      />
      <div className="mt-8 flex flex-wrap gap-3">
        <ButtonLink to={paths.discover}>{t('about.discover')}</ButtonLink>
        <ButtonLink to={paths.support} variant="secondary">
          {t('about.support')}
        </ButtonLink>
      </div>
    </div>
  );
}
