import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import { dateTimeFormat } from '../../lib/intl.ts';
import { runtimeConfig } from '../../lib/runtime-config.ts';

/** The notice itself (`DowntimeGate` decides when): the window in the viewer's language, and a way on. */
export function DowntimeNotice({
  window,
  onContinue,
}: {
  window: { start: string; end: string };
  onContinue: () => void;
}) {
  const { t, i18n } = useTranslation(['downtime']);
  const fmt = (iso: string) =>
    dateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
  return (
    <div
      className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center gap-4 px-4 text-center"
      data-testid="downtime-notice"
    >
      <h1 className="text-2xl font-bold text-fg">{t('downtime.title')}</h1>
      <p className="text-fg-muted">
        {t('downtime.text', { start: fmt(window.start), end: fmt(window.end) })}
      </p>
      <Button onClick={onContinue}>{t('downtime.continue', { name: runtimeConfig().instanceName })}</Button>
    </div>
  );
}
