import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
// English without the sections of lazily loaded screens (catalog-plugin.ts); those screens add them.
import en from 'virtual:first-view-catalog';

/** Languages written right to left; `<html dir>` follows the active language. */
const RTL = new Set(['ar', 'he', 'fa', 'ur']);

export const isRtl = (language: string) => RTL.has(language.split('-')[0] ?? language);

/** English ships in the first view; other catalogs load on demand (added as languages land). */
const loaders: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {};

let current: i18n | undefined;

/**
 * Adds catalog sections that the first view leaves out (the player, onboarding): the lazy screen that
 * needs them calls this when its code loads, before it renders.
 */
export function addLazyCatalog(sections: Record<string, unknown>): void {
  current?.addResourceBundle('en', 'translation', sections, true, false);
}

export async function initI18n(language = 'en'): Promise<i18n> {
  const instance = i18next.createInstance();
  current = instance;
  await instance.use(initReactI18next).init({
    lng: 'en',
    fallbackLng: 'en',
    resources: { en: { translation: en } },
    interpolation: { escapeValue: false },
    returnObjects: false,
  });
  instance.on('languageChanged', (lng) => {
    document.documentElement.lang = lng;
    document.documentElement.dir = isRtl(lng) ? 'rtl' : 'ltr';
  });
  if (language !== 'en') await changeLanguage(instance, language);
  return instance;
}

export async function changeLanguage(instance: i18n, language: string): Promise<void> {
  const load = loaders[language];
  if (load && !instance.hasResourceBundle(language, 'translation')) {
    instance.addResourceBundle(language, 'translation', (await load()).default);
  }
  await instance.changeLanguage(language);
}
