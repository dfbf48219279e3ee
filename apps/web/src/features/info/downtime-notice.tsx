import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { clock } from '../../lib/clock.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';
import { dateTimeFormat } from '../../lib/intl.ts';

const DISMISSED_KEY = 'marquee.downtimeDismissed';

/** Whether now falls within the configured provider-downtime window. */
export function isInDowntime(window: { start: string; end: string } | null, now: Date): boolean {
  if (!window) return false;
  const t = now.getTime();
  return t >= Date.parse(window.start) && t <= Date.parse(window.end);
}

/**
 * The provider-downtime notice: shown instead of the app while the operator's window is active, once
 * per tab session (dismissed with a button).
 */
export function DowntimeGate({ children }: { children: ReactNode }) {
  const { t, i18n } = useTranslation(['downtime']);
  const config = runtimeConfig();
  const [dismissed, setDismissed] = useState(
    () => sessionStorage.getItem(DISMISSED_KEY) === config.downtime?.start,
  );
  if (dismissed || !config.downtime || !isInDowntime(config.downtime, clock.now())) return children;
  const fmt = (iso: string) =>
    dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <div
      className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
      data-testid="downtime-notice"
    >
      <h1 className="text-2xl font-bold text-fg">{t('downtime.title')}</h1>
      <p className="text-fg-muted">
        {t('downtime.text', { start: fmt(config.downtime.start), end: fmt(config.downtime.end) })}
      </p>
      <Button
        onClick={() => {
          sessionStorage.setItem(DISMISSED_KEY, config.downtime?.start ?? '');
          setDismissed(true);
        }}
      >
        {t('downtime.continue', { name: config.instanceName })}
      </Button>
    </div>
  );
}
