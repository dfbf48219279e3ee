import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button.tsx';
import { paths } from '../../app/paths.ts';

/** "Couldn't find that media" (bad key, unknown id), "Failed to load metadata" (source down), "Failed to load API metadata" (legacy lookup down). */
const TEXT = {
  notFound: ['media.errors.notFound', 'media.errors.notFoundDescription'],
  failed: ['media.errors.failed', 'media.errors.failedDescription'],
  failedApi: ['media.errors.failedApi', 'media.errors.failedDescription'],
} as const;

/**
 * The title's error screen. The title and text are said once, assertively (not the buttons). `onRetry`
 * (refetching the query that failed) is then the primary action, and home the way out.
 */
export function MediaError({ kind, onRetry }: { kind: keyof typeof TEXT; onRetry?: () => void }) {
  const { t } = useTranslation(['media']);
  const [title, description] = TEXT[kind];
  return (
    <div
      className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 text-center"
      data-testid="media-error"
    >
      <div role="alert" className="flex flex-col items-center gap-4">
        <h1 className="text-2xl font-bold text-fg">{t(title)}</h1>
        <p className="text-fg-muted">{t(description)}</p>
      </div>
      <div className="flex gap-3">
        {onRetry && <Button onClick={onRetry}>{t('media.tryAgain')}</Button>}
        <ButtonLink to={paths.home} variant={onRetry ? 'secondary' : 'primary'}>
          {t('media.backHome')}
        </ButtonLink>
      </div>
    </div>
  );
}
