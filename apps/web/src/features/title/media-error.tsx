import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button.tsx';

/** "Couldn't find that media" (bad key, unknown id) or "Failed to load metadata" (source down). */
export function MediaError({ kind, onRetry }: { kind: 'notFound' | 'failed'; onRetry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 text-center" role="alert" data-testid="media-error">
      <h1 className="text-2xl font-bold text-fg">{t(kind === 'notFound' ? 'media.errors.notFound' : 'media.errors.failed')}</h1>
      <p className="text-fg-muted">{t(kind === 'notFound' ? 'media.errors.notFoundDescription' : 'media.errors.failedDescription')}</p>
      <div className="flex gap-3">
        <ButtonLink to="/">{t('media.backHome')}</ButtonLink>
        {onRetry && <Button variant="secondary" onClick={onRetry}>{t('media.tryAgain')}</Button>}
      </div>
    </div>
  );
}
