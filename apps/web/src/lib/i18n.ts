import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';

/** Languages written right to left; `<html dir>` follows the active language. */
const RTL = new Set(['ar', 'he', 'fa', 'ur']);

export const isRtl = (language: string) => RTL.has(language.split('-')[0] ?? language);

/** English ships in the first view; other catalogs load on demand (added as languages land). */
const loaders: Record<string, () => Promise<{ default: Record<string, unknown> }>> = {};

export async function initI18n(language = 'en'): Promise<i18n> {
  const instance = i18next.createInstance();
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
