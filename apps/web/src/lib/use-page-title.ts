import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { runtimeConfig } from './runtime-config.ts';

/** Sets the document title to "<page> - <instance name>", or just the instance name. */
export function usePageTitle(title?: string | null): void {
  const { t } = useTranslation(['global']);
  useEffect(() => {
    const name = runtimeConfig().instanceName;
    document.title = title ? t('global.pageTitle', { title, name }) : name;
  }, [t, title]);
}
