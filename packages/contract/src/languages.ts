/**
 * The 40 UI languages (decision 077), English first. The web app's catalogs exist for exactly these (its
 * completeness check), and metadata answers are asked for in one of them (`?language=`).
 */
export const UI_LANGUAGES = [
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

export type UiLanguage = (typeof UI_LANGUAGES)[number];

/** The UI language a language tag stands for ("fr-CA" → fr, "pt" → pt-BR, "no" → nb), or null. */
export function listedLanguage(tag: string): UiLanguage | null {
  const lower = tag.toLowerCase();
  const exact = UI_LANGUAGES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const base = lower.split('-')[0];
  if (base === 'no' || base === 'nn') return 'nb';
  return UI_LANGUAGES.find((l) => l.split('-')[0] === base) ?? null;
}

/** The language to start in: the chosen one, else the first of the browser's we list, else English. */
export function startLanguage(chosen: string | null, browser: readonly string[]): UiLanguage {
  for (const tag of chosen ? [chosen, ...browser] : browser) {
    const listed = listedLanguage(tag);
    if (listed) return listed;
  }
  return 'en';
}

/**
 * The viewer's country, for a title's content rating and where to watch it: the region of the browser's
 * first language that names one ("fr-CA" → CA), else the likely region of its first language ("ja" → JP),
 * else the US (TMDB's default).
 */
export function viewerRegion(languages: readonly string[]): string {
  for (const tag of languages) {
    try {
      const region = new Intl.Locale(tag).region;
      if (region && /^[A-Z]{2}$/.test(region)) return region;
    } catch {
      // Not a language tag: skip it.
    }
  }
  for (const tag of languages) {
    try {
      const region = new Intl.Locale(new Intl.Locale(tag).language).maximize().region;
      if (region && /^[A-Z]{2}$/.test(region)) return region;
    } catch {
      // Not a language tag: skip it.
    }
  }
  return 'US';
}

/** An Accept-Language header's tags, most wanted first (what `navigator.languages` holds in the browser). */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0 && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(t.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .slice(0, 20)
    .map((t) => t.tag);
}
