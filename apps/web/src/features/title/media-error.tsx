import { useTranslation } from 'react-i18next';
import { Button, ButtonLink } from '../../components/button.tsx';
import { ApiError } from '../../lib/api/index.ts';
import { paths } from '../../lib/paths.ts';
import { householdProfileName, useAccountStore } from '../../stores/index.ts';

/** "Couldn't find that media" (bad key, unknown id), "Failed to load metadata" (source down), "Failed to load API metadata" (legacy lookup down). */
const TEXT = {
  notFound: ['title.errors.notFound', 'title.errors.notFoundDescription'],
  failed: ['title.errors.failed', 'title.errors.failedDescription'],
  failedApi: ['title.errors.failedApi', 'title.errors.failedDescription'],
} as const;

/**
 * The title's error screen. The title and text are said once, assertively (not the buttons). `onRetry`
 * (refetching the query that failed) is then the primary action, and home the way out.
 */
/**
 * Why metadata failed, when the error says: this device is offline, the operator's key is refused (only
 * they can fix it), or the service asks us to slow down. Else the general "down or blocked".
 */
function failureDescription(error: unknown): FailureDescription | null {
  if (typeof navigator !== 'undefined' && navigator.onLine === false)
    return 'title.errors.offlineDescription';
  if (!(error instanceof ApiError)) return null;
  if (error.code === 'network_error') return 'title.errors.offlineDescription';
  if (error.code === 'metadata_auth_failed') return 'title.errors.authFailedDescription';
  if (error.code === 'metadata_rate_limited') return 'title.errors.rateLimitedDescription';
  return null;
}
type FailureDescription =
  | 'title.errors.offlineDescription'
  | 'title.errors.authFailedDescription'
  | 'title.errors.rateLimitedDescription';

export function MediaError({
  kind,
  onRetry,
  error,
}: {
  kind: keyof typeof TEXT;
  onRetry?: () => void;
  /** What failed (a query's error): the description then says why, where it can. */
  error?: unknown;
}) {
  const { t } = useTranslation(['media', 'title']);
  if (error instanceof ApiError && error.code === 'over_content_limit') return <OverLimit />;
  const [title, general] = TEXT[kind];
  const description = (kind !== 'notFound' && failureDescription(error)) || general;
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

/**
 * A kids' profile opened a title over its limit (decision 106): said so, with the way to another
 * profile (which asks its PIN when it has one) and home. Never the player.
 */
function OverLimit() {
  const { t } = useTranslation(['media', 'title']);
  const name = useAccountStore((s) => householdProfileName(s.account));
  return (
    <div
      className="mx-auto flex min-h-[50vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
      data-testid="over-limit"
    >
      <div role="alert" className="flex flex-col items-center gap-4">
        <h1 className="text-2xl font-bold text-fg">{t('title.errors.overLimit')}</h1>
        <p className="text-fg-muted">{t('title.errors.overLimitDescription', { name })}</p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        <ButtonLink to={paths.home}>{t('media.backHome')}</ButtonLink>
        <ButtonLink to={paths.profiles} variant="secondary">
          {t('title.errors.switchProfile')}
        </ButtonLink>
      </div>
    </div>
  );
}
