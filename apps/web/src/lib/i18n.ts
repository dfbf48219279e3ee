import i18next, { type FormatterModule, type i18n } from 'i18next';
import resourcesToBackend from 'i18next-resources-to-backend';
import languages, { namespaces } from 'virtual:catalogs';
import { initReactI18next } from 'react-i18next';
import { LAYOUT_NAMESPACES } from '../locales/namespaces.ts';
import type { Namespace } from '../locales/resources.ts';
import type { UiLanguage } from '@marquee/contract';
import { LANGUAGES } from './languages.ts';

/**
 * The UI catalogs (docs/decisions/077): one JSON file per language and namespace
 * (`src/locales/<language>/<namespace>.json`). A language's layout namespaces come in one chunk; every
 * other namespace is its own chunk, loaded when a screen asks for it (`useTranslation(['player'])`
 * suspends until it is there; routes preload theirs beside their code). Only the active language
 * loads: every catalog is complete (the CI check), so there is no English fallback to download too.
 *
 * Keys read `namespace.key.path` (`t('player.controls.play')`): the namespace separator is the key
 * separator, and i18next takes the first segment as the namespace when it names one.
 */
const modules = new Map<string, ReturnType<(typeof languages)[string]>>();

function load(language: string, namespace: string): Promise<Record<string, unknown>> {
  const loader = languages[language];
  if (!loader) return Promise.reject(new Error(`no catalog for ${language}`));
  let module = modules.get(language);
  if (!module) {
    module = loader();
    modules.set(language, module);
    // A chunk that failed (offline) is asked for again next time.
    module.catch(() => modules.delete(language));
  }
  return module.then((m) => {
    const bundled = m.bundled[namespace];
    if (bundled) return bundled;
    const lazy = m.lazy[namespace];
    if (!lazy) throw new Error(`no catalog ${language}/${namespace}`);
    return lazy().then((c) => c.default);
  });
}

/** Every namespace (the English catalog's files). */
export const NAMESPACES = namespaces as Namespace[];

/** Languages written right to left; `<html dir>` follows the active language. */
const RTL = new Set(['ar', 'he', 'fa', 'ur']);

export const isRtl = (language: string) => RTL.has(language.split('-')[0] ?? language);

function followDocument(language: string) {
  document.documentElement.lang = language;
  document.documentElement.dir = isRtl(language) ? 'rtl' : 'ltr';
}

/**
 * Every value put into a text (a title, a name, a time, a count) is a bidi isolate in right-to-left
 * languages (U+2068 … U+2069), so "Fight Club!" or "1:05:00" inside an Arabic sentence keeps its own
 * order and does not drag the sentence's punctuation around. The catalogs use no `{{value, format}}`
 * formats, so this is the whole formatter.
 */
const bidiIsolation: FormatterModule = {
  type: 'formatter',
  init: () => undefined,
  add: () => undefined,
  addCached: () => undefined,
  // Objects (returnObjects, nesting) pass through as they are.
  format: (value: unknown, _format?: string, language?: string) =>
    (language && isRtl(language) && (typeof value === 'string' || typeof value === 'number')
      ? `\u2068${value}\u2069`
      : value) as string,
};

/**
 * Starts i18next in `language` with the layout's namespaces and `extra` ones (the opened page's),
 * loaded in parallel; resolves when they are there, so the first render is in the viewer's language.
 */
export async function initI18n(language = 'en', extra: readonly Namespace[] = []): Promise<i18n> {
  const instance = i18next.createInstance();
  current = instance;
  await instance
    .use(resourcesToBackend(load))
    .use(initReactI18next)
    .use(bidiIsolation)
    .init({
      lng: language,
      supportedLngs: [...LANGUAGES],
      fallbackLng: false,
      load: 'currentOnly',
      ns: [...LAYOUT_NAMESPACES, ...extra],
      defaultNS: 'global',
      nsSeparator: '.',
      keySeparator: '.',
      interpolation: { escapeValue: false, alwaysFormat: true },
      returnObjects: false,
    });
  followDocument(instance.language);
  instance.on('languageChanged', followDocument);
  return instance;
}

/**
 * Switches the UI language without a reload: the namespaces already in use load in the new language
 * first, then everything re-renders at once (no screen of keys in between).
 */
export async function changeLanguage(instance: i18n, language: string): Promise<void> {
  // Every namespace asked for so far is in `options.ns`; loadLanguages fetches them all in `language`.
  await instance.loadLanguages(language);
  await instance.changeLanguage(language);
}

let current: i18n | undefined;

/**
 * The language metadata (titles, overviews, genre names) is asked for in: the UI's. Query keys carry it,
 * so switching languages refetches (and keeps each language's answers apart in the cache).
 */
export const contentLanguage = (): UiLanguage =>
  (LANGUAGES as readonly string[]).includes(current?.language ?? '')
    ? (current?.language as UiLanguage)
    : 'en';

/**
 * Loads the namespaces a page is about to need, beside its code (a page's `useTranslation` would
 * otherwise ask for them only once its code has run: a round trip later). Never rejects: a catalog that
 * failed to load is asked for again by the page.
 */
export function preloadNamespaces(namespaces: readonly Namespace[]): Promise<void> {
  return current ? current.loadNamespaces([...namespaces]).catch(() => undefined) : Promise.resolve();
}
