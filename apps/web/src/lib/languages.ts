import { startLanguage as startLanguageOf, UI_LANGUAGES } from '@marquee/contract/values';
import { displayNames } from './intl.ts';

/** The 40 UI languages (the contract's list), each with a complete catalog in src/locales. */
export const LANGUAGES = UI_LANGUAGES;

const displayName = (code: string, inLanguage: string) => {
  try {
    return displayNames([inLanguage], { type: 'language' }).of(code) ?? code;
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

/** The listed language a tag means ("fr-CA" → fr, "pt" → pt-BR, "zh-Hans-CN" → zh), or null (the contract's rule, shared with the server). */
export { listedLanguage } from '@marquee/contract/values';

/** The language to start in: the chosen one, else the first of the browser's we list, else English. */
export function startLanguage(
  chosen: string | null,
  browser: readonly string[] = typeof navigator !== 'undefined' ? navigator.languages : [],
): string {
  return startLanguageOf(chosen, browser);
}

/** The ISO 639 code an audio track of a language carries ("pt-BR" → "pt", "zh" → "zh"). */
export const audioLanguageOf = (language: string): string => language.split('-')[0]!.toLowerCase();

/** What the scrape query and the synced settings accept as an audio language (ISO 639-1 or -2). */
export const isAudioLanguage = (code: unknown): code is string =>
  typeof code === 'string' && /^[a-z]{2,3}$/.test(code);

/** The audio languages the settings offer: those of the UI languages, each once. */
export const AUDIO_LANGUAGES: readonly string[] = [...new Set(LANGUAGES.map(audioLanguageOf))];
