import { useTranslation } from 'react-i18next';
import { browserAndSystemOf } from '@marquee/contract/values';

/**
 * A readable name for this device in the viewer's language ("Firefox on Linux"), never empty: what a
 * passkey or a session is called when the viewer names nothing.
 */
export function useDefaultDeviceName(): string {
  const { t } = useTranslation(['auth']);
  const { browser, os } = browserAndSystemOf(navigator.userAgent);
  // A name goes into a field and to the server: no bidi isolation marks around the names (i18n.ts).
  if (browser && os)
    return t('auth.deviceNameDefault', { browser, os, interpolation: { alwaysFormat: false } });
  return browser ?? os ?? t('auth.deviceNameUnknown');
}
