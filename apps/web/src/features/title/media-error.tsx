import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button.tsx';
import { paths } from '../../app/paths.ts';

/** "Couldn't find that media" (bad key, unknown id), "Failed to load metadata" (source down), "Failed to load API metadata" (legacy lookup down). */
const TEXT = {
  notFound: ['media.errors.notFound', 'media.errors.notFoundDescription'],
  failed: ['media.errors.failed', 'media.errors.failedDescription'],
  failedApi: ['media.errors.failedApi', 'media.errors.failedDescription'],
} as const;

export function MediaError({ kind, onRetry }: { kind: keyof typeof TEXT; onRetry?: () => void }) {
  const { t } = useTranslation(['media']);
  const [title, description] = TEXT[kind];
  return (
    <div
      className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 text-center"
      role="alert"
      data-testid="media-error"
    >
      <h1 className="text-2xl font-bold text-fg">{t(title)}</h1>
      <p className="text-fg-muted">{t(description)}</p>
      <div className="flex gap-3">
        <ButtonLink to={paths.home}>{t('media.backHome')}</ButtonLink>
        {onRetry && (
          <Button variant="secondary" onClick={onRetry}>
            {t('media.tryAgain')}
          </Button>
        )}
      </div>
    </div>
  );
}
