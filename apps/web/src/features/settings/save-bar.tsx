import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/button.tsx';
import type { SaveResult } from './save-settings.ts';
import { saveResultText } from './settings-form.ts';

/**
 * The outcome of a save, announced and focused, so keyboard and screen-reader users land on it.
 * `raised`: the save bar shows below it.
 */
export function SaveResultNotice({ result, raised }: { result: SaveResult; raised: boolean }) {
  const { t, i18n } = useTranslation(['errors', 'settings']);
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [result]);
  return (
    <div
      className={`fixed inset-x-0 z-40 px-4 tv:px-overscan-x ${raised ? 'bottom-20 tv:bottom-[calc(5rem_+_var(--spacing-overscan-y))]' : 'bottom-4 tv:bottom-overscan-y'}`}
    >
      <p
        ref={ref}
        tabIndex={-1}
        role={result.failed.length ? 'alert' : 'status'}
        className={`mx-auto max-w-xl rounded-lg px-4 py-3 text-sm shadow-xl focus:outline-none focus-visible:ring-2 focus-visible:ring-accent ${result.failed.length ? 'bg-red-900/90 text-red-100' : 'bg-green-900/90 text-green-100'}`}
        data-testid="save-result"
      >
        {saveResultText(result, t, i18n.language)}
      </p>
    </div>
  );
}

/** The bar of an unsaved draft: what is wrong with it (or that it is unsaved), Reset and Save. */
export function SaveBar({
  message,
  saving,
  onReset,
  onSave,
}: {
  /** Translated. */
  message: string;
  saving: boolean;
  onReset(): void;
  onSave(): void;
}) {
  const { t } = useTranslation(['settings']);
  return (
    <div
      className="fixed inset-x-0 bottom-0 z-40 border-t border-white/10 bg-surface-2/95 backdrop-blur"
      data-testid="save-bar"
    >
      {/* In TV mode the bar reaches the screen's edges, its content stays inside the overscan margins. */}
      <div className="mx-auto flex max-w-screen-2xl items-center justify-between gap-4 px-4 py-3 sm:px-6 tv:px-overscan-x tv:pb-overscan-y">
        <p className="text-sm text-fg">{message}</p>
        <div className="flex gap-3">
          <Button variant="secondary" onClick={onReset}>
            {t('settings.reset')}
          </Button>
          <Button onClick={onSave} disabled={saving}>
            {t('settings.save')}
          </Button>
        </div>
      </div>
    </div>
  );
}
