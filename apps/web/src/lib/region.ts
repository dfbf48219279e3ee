/**
 * The viewer's country, for a title's content rating and where to watch it: the region of the browser's
 * first language that names one ("fr-CA" → CA), else the likely region of its first language ("ja" → JP),
 * else the US (TMDB's default).
 */
export function viewerRegion(
  languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages,
): string {
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
