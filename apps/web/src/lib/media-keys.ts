// Media kinds, media keys and media paths of the web app; built on the contract's TMDB kinds and letter folding.
import { foldLetters } from '@marquee/contract/values';
import type { TmdbType } from '@marquee/contract';

/** Our library's media kinds (bookmarks, progress). */
export type MediaType = 'movie' | 'show';

export const toMediaType = (t: TmdbType): MediaType => (t === 'movie' ? 'movie' : 'show');
export const toTmdbType = (t: MediaType): TmdbType => (t === 'movie' ? 'movie' : 'tv');

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
