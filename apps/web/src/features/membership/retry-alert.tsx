import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';

/** An error with the way out beside it: Retry asks again (every error state of the purchase has one). */
export function RetryAlert({
  message,
  onRetry,
  testId,
}: {
  message: string;
  onRetry: () => void;
  testId?: string;
}) {
  const { t } = useTranslation(['membership']);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200">
      <p role="alert" data-testid={testId}>
        {message}
      </p>
      <Button variant="secondary" className="min-h-11" onClick={onRetry}>
        {t('membership.retry')}
      </Button>
    </div>
  );
}
