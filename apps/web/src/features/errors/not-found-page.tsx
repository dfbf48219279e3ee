import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button.tsx';
import { usePageTitle } from '../../lib/use-page-title.ts';
import { paths } from '../../lib/paths.ts';

export function NotFoundPage() {
  const { t } = useTranslation(['notFound']);
  usePageTitle(t('notFound.pageTitle'));
  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 text-center">
      <h1 className="text-2xl font-bold text-fg">{t('notFound.title')}</h1>
      <p className="text-fg-muted">{t('notFound.text')}</p>
      <div className="flex gap-3">
        <ButtonLink to={paths.home}>{t('notFound.backHome')}</ButtonLink>
        <Button variant="secondary" onClick={() => window.location.reload()}>
          {t('notFound.tryAgain')}
        </Button>
      </div>
    </div>
  );
}
