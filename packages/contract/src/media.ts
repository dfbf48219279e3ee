// Pure rules, no schema library: the web app's first view imports these (decision 003).

/** TMDB's two media kinds, as they appear in URLs and media keys. */
export type TmdbType = 'movie' | 'tv';

/**
 * Letters that Unicode decomposition leaves whole but that readers spell in plain Latin letters
 * ("Æon Flux" → "aeon flux", "Straße" → "strasse"); without this they would simply vanish.
 */
const PLAIN_LATIN: Readonly<Record<string, string>> = {
  æ: 'ae',
  ø: 'o',
  œ: 'oe',
  ß: 'ss',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
  ħ: 'h',
  ŧ: 't',
};

const PLAIN_LATIN_LETTERS = new RegExp(`[${Object.keys(PLAIN_LATIN).join('')}]`, 'g');

/** Lower-cases, removes accents and spells the letters above in plain Latin. */
export function foldLetters(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(PLAIN_LATIN_LETTERS, (c) => PLAIN_LATIN[c] ?? c);
}

/** Year from a TMDB `YYYY-MM-DD` date, or null when the date is empty or malformed. */
export function yearOf(date: string | null | undefined): number | null {
  if (!date) return null;
  const year = Number.parseInt(date.slice(0, 4), 10);
  return Number.isFinite(year) && year > 1800 ? year : null;
}
