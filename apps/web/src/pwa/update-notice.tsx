import { useTranslation } from 'react-i18next';
import { Button } from '../components/button.tsx';

/**
 * "A new version is available": a small notice at the bottom (the whole width on a phone, the end
 * corner on wider screens), not a dialog, so nothing is interrupted. Its status region stays in the
 * page while hidden, so screen readers announce the text when it appears.
 */
export function UpdateNotice({
  visible,
  onReload,
  onDismiss,
}: {
  visible: boolean;
  onReload: () => void;
  onDismiss: () => void;
}) {
  const { t } = useTranslation(['global']);
  return (
    <div
      role="status"
      className="pointer-events-none fixed start-0 end-0 bottom-0 z-50 flex justify-center p-3 sm:justify-end tv:px-overscan-x tv:pb-overscan-y"
    >
      {visible && (
        <div
          className="pointer-events-auto flex w-full max-w-md items-center gap-2 rounded-xl border border-white/10 bg-surface-2 py-2 ps-4 pe-2 shadow-lg"
          data-testid="update-notice"
        >
          <p className="flex-1 text-sm text-fg">{t('global.update.available')}</p>
          <Button onClick={onReload}>{t('global.update.reload')}</Button>
          <Button variant="ghost" onClick={onDismiss}>
            {t('global.update.dismiss')}
          </Button>
        </div>
      )}
    </div>
  );
}
