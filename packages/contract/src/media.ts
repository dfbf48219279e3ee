// Pure rules, no schema library: the web app's first view imports these.

/** TMDB's two media kinds, as they appear in URLs and media keys. */
export type TmdbType = 'movie' | 'tv';

/** Our library's media kinds (bookmarks, progress). */
export type MediaType = 'movie' | 'show';

export const toMediaType = (t: TmdbType): MediaType => (t === 'movie' ? 'movie' : 'show');
export const toTmdbType = (t: MediaType): TmdbType => (t === 'movie' ? 'movie' : 'tv');

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

/** Lower-case, accent-free, dash-separated slug ("Spider-Man: No Way Home" → "spider-man-no-way-home"). */
export function slugify(title: string): string {
  return foldLetters(title)
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

export interface MediaKeyParts {
  type: TmdbType;
  id: string;
}

/** `tmdb-{movie|tv}-{id}-{slug}`; the slug is decoration and ignored when decoding. */
export function encodeMediaKey(type: TmdbType, id: string | number, title?: string): string {
  const slug = title ? slugify(title) : '';
  return slug ? `tmdb-${type}-${id}-${slug}` : `tmdb-${type}-${id}`;
}

const mediaKeyPattern = /^tmdb-(movie|tv)-(\d{1,10})(?:-.*)?$/;

/** Returns the type and id of a current-form media key, or null when the key is not one. */
export function decodeMediaKey(key: string): MediaKeyParts | null {
  const match = mediaKeyPattern.exec(key);
  if (!match) return null;
  return { type: match[1] as TmdbType, id: match[2] as string };
}

export type LegacyMediaKey =
  { kind: 'tmdb-show'; id: string } | { kind: 'justwatch'; jwType: string; id: string };

/**
 * Old keys still found in bookmarks and shared links: `tmdb-show-{id}…` (renamed to `tv`) and
 * `JW-{type}-{id}` (JustWatch ids, which need a lookup to become TMDB ids).
 */
export function parseLegacyMediaKey(key: string): LegacyMediaKey | null {
  const show = /^tmdb-show-(\d{1,10})(?:-.*)?$/.exec(key);
  if (show) return { kind: 'tmdb-show', id: show[1] as string };
  const jw = /^JW-?([a-z]*)-(\d{1,12})(?:-.*)?$/i.exec(key);
  if (jw) return { kind: 'justwatch', jwType: (jw[1] ?? '').toLowerCase(), id: jw[2] as string };
  return null;
}

/** Path of the media page for a key, with optional TMDB season and episode ids. */
export function mediaPath(key: string, seasonId?: string | number, episodeId?: string | number): string {
  let path = `/media/${encodeURIComponent(key)}`;
  if (seasonId !== undefined) path += `/${seasonId}`;
  if (episodeId !== undefined) path += `/${episodeId}`;
  return path;
}

/**
 * A title is released when its release date is today or earlier; without a date, when its year is
 * not after the current year. Unknown both ways counts as released (nothing to hold it back).
 */
export function isReleased(item: { releaseDate?: string | null; year?: number | null }, now: Date): boolean {
  if (item.releaseDate) {
    const date = new Date(`${item.releaseDate}T00:00:00Z`);
    if (!Number.isNaN(date.getTime())) return date.getTime() <= now.getTime();
  }
  if (item.year) return item.year <= now.getUTCFullYear();
  return true;
}

/** Year from a TMDB `YYYY-MM-DD` date, or null when the date is empty or malformed. */
export function yearOf(date: string | null | undefined): number | null {
  if (!date) return null;
  const year = Number.parseInt(date.slice(0, 4), 10);
  return Number.isFinite(year) && year > 1800 ? year : null;
}
