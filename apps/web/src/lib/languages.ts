/**
 * The 40 UI languages. English is the only complete catalog: the others fall back to English text
 * until translated, but switch the layout direction (ar, fa, he are right to left) and date formats.
 */
export const LANGUAGES = [
  'en',
  'ar',
  'bg',
  'bn',
  'ca',
  'cs',
  'da',
  'de',
  'el',
  'es',
  'et',
  'fa',
  'fi',
  'fr',
  'gl',
  'he',
  'hi',
  'hu',
  'id',
  'it',
  'ja',
  'ko',
  'lt',
  'nb',
  'nl',
  'pl',
  'pt-BR',
  'pt-PT',
  'ro',
  'ru',
  'sk',
  'sl',
  'sr',
  'sv',
  'ta',
  'th',
  'tr',
  'uk',
  'vi',
  'zh',
] as const;

const displayName = (code: string, inLanguage: string) => {
  try {
    return new Intl.DisplayNames([inLanguage], { type: 'language' }).of(code) ?? code;
  } catch {
    return code;
  }
};

/** A language's name in itself ("Deutsch") and in the given UI language ("German"). */
export function languageNames(code: string, uiLanguage = 'en'): { native: string; local: string } {
  const native = displayName(code, code);
  return {
    native: native.charAt(0).toLocaleUpperCase(code) + native.slice(1),
    local: displayName(code, uiLanguage),
  };
}

/** The language to start in: the chosen one, else the browser's if we list it, else English. */
export function startLanguage(
  chosen: string | null,
  browser: readonly string[] = typeof navigator !== 'undefined' ? navigator.languages : [],
): string {
  if (chosen) return chosen;
  for (const tag of browser) {
    const exact = LANGUAGES.find((l) => l.toLowerCase() === tag.toLowerCase());
    if (exact) return exact;
    const base = LANGUAGES.find((l) => l === tag.split('-')[0]);
    if (base) return base;
  }
  return 'en';
}
