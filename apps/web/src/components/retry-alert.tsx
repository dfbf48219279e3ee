import { Button } from './button.tsx';

/**
 * An error with its way out beside it: `retryLabel` ("Try again", in the caller's words) asks again.
 * Only the message is the alert, so a screen reader does not read the button as part of it.
 */
export function RetryAlert({
  message,
  onRetry,
  retryLabel,
  testId,
}: {
  message: string;
  onRetry: () => void;
  retryLabel: string;
  testId?: string;
}) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-3 rounded-lg bg-red-900/40 px-3 py-2 text-sm text-red-200">
      <p role="alert" data-testid={testId}>
        {message}
      </p>
      <Button variant="secondary" onClick={onRetry}>
        {retryLabel}
      </Button>
    </div>
  );
}
