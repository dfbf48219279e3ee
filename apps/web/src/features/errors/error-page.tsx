import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COPY_CONFIRMATION_MS } from '../../lib/calendar.ts';
import { Button } from '../../components/button.tsx';
import { useIsOnline } from '../../lib/online-status.ts';

/** First lines of the stack are enough to report a bug without drowning the reader. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    const stack = (error.stack ?? '').split('\n').slice(1, 6).join('\n');
    return stack ? `${error.name}: ${error.message}\n${stack}` : `${error.name}: ${error.message}`;
  }
  return String(error);
}

/**
 * A page's code that could not be fetched (a lazy chunk): offline, a page never opened on this device
 * (the service worker caches what was used, decision 078); online, files a newer deploy replaced.
 * Browsers word it differently.
 */
export function isPageCodeMissing(error: unknown): boolean {
  return (
    error instanceof Error &&
    /dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i.test(
      error.message + ' ' + error.name,
    )
  );
}

/** The error page: Reload the page, Show error details, and a copy button confirmed for 2 s. */
export function ErrorPage({
  error,
  onReload = () => window.location.reload(),
}: {
  error: unknown;
  onReload?: () => void;
}) {
  const { t } = useTranslation(['errors', 'global']);
  const [showDetails, setShowDetails] = useState(false);
  const [copied, setCopied] = useState(false);
  const details = describeError(error);
  const online = useIsOnline();
  const codeMissing = isPageCodeMissing(error);

  // Offline, a page never opened here opens by itself once the network is back.
  const [wasOffline, setWasOffline] = useState(!online);
  useEffect(() => {
    if (!online) setWasOffline(true);
    else if (codeMissing && wasOffline) onReload();
  }, [online, codeMissing, wasOffline, onReload]);

  useEffect(() => {
    if (!copied) return undefined;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(details);
      setCopied(true);
    } catch {
      setShowDetails(true);
    }
  };

  return (
    <div className="mx-auto flex min-h-[60vh] max-w-xl flex-col items-center justify-center gap-4 px-4 text-center">
      {/* Said once, assertively; the buttons and the details shown later are not part of it. */}
      <div role="alert" className="flex flex-col items-center gap-4">
        <h1 className="text-2xl font-bold text-fg">
          {codeMissing && !online ? t('errors.pageUnavailable.title') : t('errors.title')}
        </h1>
        <p className="text-fg-muted">
          {codeMissing
            ? t(online ? 'errors.pageUnavailable.updated' : 'errors.pageUnavailable.offline')
            : error instanceof Error
              ? error.message
              : t('global.generic')}
        </p>
      </div>
      <div className="flex flex-wrap justify-center gap-3">
        <Button onClick={onReload}>{t('errors.reload')}</Button>
        <Button variant="secondary" onClick={() => setShowDetails((v) => !v)} aria-expanded={showDetails}>
          {showDetails ? t('errors.hideDetails') : t('errors.showDetails')}
        </Button>
      </div>
      {showDetails && (
        <section className="w-full rounded-lg bg-surface-2 p-4 text-start" aria-label={t('errors.details')}>
          <pre
            className="max-h-64 overflow-auto whitespace-pre-wrap break-words text-xs text-fg-muted"
            data-testid="error-details"
          >
            {details}
          </pre>
          <Button variant="secondary" className="mt-3" onClick={() => void copy()}>
            {copied ? t('errors.copied') : t('errors.copy')}
          </Button>
        </section>
      )}
    </div>
  );
}
