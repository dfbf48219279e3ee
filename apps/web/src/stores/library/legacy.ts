import { type SeasonRef } from './library-rules.ts';
import { libraryKey, type BookmarkEntry, type EpisodeProgress, type ProgressEntry } from './library-rules.ts';
import { type MediaType } from '../../lib/media-keys.ts';
import type { KeyValueStorage } from '../../lib/storage.ts';
import type { LibraryData } from './outbox.ts';

/**
 * Data of the older clients of this app family (the app family's client behaviour): zustand stores persisted
 * as `{state, version: 0}` under `__MW::bookmarks` and `__MW::progress`, keyed by the bare TMDB id
 * with the kind inside. We read them, never change or remove them.
 */
export const LEGACY_KEYS = {
  bookmarks: '__MW::bookmarks',
  progress: '__MW::progress',
  auth: '__MW::auth',
  subtitles: '__MW::subtitles',
  theme: '__MW::theme',
  preferences: '__MW::preferences',
  volume: '__MW::volume',
  locale: '__MW::locale',
  quality: '__MW::quality',
  onboarding: '__MW::onboarding',
} as const;

/** The `state` of one of the older clients' stores, or null when absent or unreadable. */
export function readLegacyState(storage: KeyValueStorage, key: string): Record<string, unknown> | null {
  const raw = storage.getItem(key);
  if (raw === null) return null;
  try {
    const parsed = JSON.parse(raw) as { state?: unknown };
    return typeof parsed?.state === 'object' && parsed.state !== null
      ? (parsed.state as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const isObj = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null =>
  typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null;
const num = (v: unknown): number | null => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
};
const kind = (v: unknown): MediaType | null =>
  v === 'movie' ? 'movie' : v === 'show' || v === 'tv' || v === 'series' ? 'show' : null;

/** Library version 0 = what the older clients stored. */
export interface LegacyLibrary {
  bookmarks?: unknown;
  progress?: unknown;
}

export function readLegacyLibrary(storage: KeyValueStorage): LegacyLibrary | null {
  const bookmarks = readLegacyState(storage, LEGACY_KEYS.bookmarks);
  const progress = readLegacyState(storage, LEGACY_KEYS.progress);
  if (!bookmarks && !progress) return null;
  return { bookmarks: bookmarks?.bookmarks ?? {}, progress: progress?.items ?? {} };
}

/**
 * Version 0 → 1: the older clients' bookmarks and progress in our shapes, keyed by kind and id so a
 * movie and a show with one TMDB number no longer collide. Entries we cannot understand are dropped
 * one by one (anime entries included, as the older clients did); the rest is kept.
 */
export function convertLegacyLibrary(old: LegacyLibrary, now: number): LibraryData {
  const data: LibraryData = { bookmarks: {}, progress: {} };
  for (const [id, value] of Object.entries(isObj(old.bookmarks) ? old.bookmarks : {})) {
    const type = kind(value?.type);
    const title = str(value?.title);
    if (!isObj(value) || !type || !title || !str(id)) continue;
    const entry: BookmarkEntry = {
      tmdbId: id,
      type,
      title,
      year: num(value.year),
      poster: str(value.poster),
      updatedAt: num(value.updatedAt) ?? now,
    };
    data.bookmarks[libraryKey(type, id)] = entry;
  }
  for (const [id, value] of Object.entries(isObj(old.progress) ? old.progress : {})) {
    const type = kind(value?.type);
    const title = str(value?.title);
    if (!isObj(value) || !type || !title) continue;
    const seasons: Record<string, SeasonRef> = {};
    for (const [sid, s] of Object.entries(isObj(value.seasons) ? value.seasons : {})) {
      if (!isObj(s)) continue;
      seasons[sid] = { id: str(s.id) ?? sid, number: num(s.number) ?? 0, title: str(s.title) ?? '' };
    }
    const episodes: Record<string, EpisodeProgress> = {};
    for (const [eid, e] of Object.entries(isObj(value.episodes) ? value.episodes : {})) {
      if (!isObj(e) || !isObj(e.progress)) continue;
      const seasonId = str(e.seasonId);
      if (!seasonId) continue;
      episodes[eid] = {
        id: str(e.id) ?? eid,
        number: num(e.number) ?? 0,
        title: str(e.title) ?? '',
        seasonId,
        updatedAt: num(e.updatedAt) ?? now,
        progress: { watched: num(e.progress.watched) ?? 0, duration: num(e.progress.duration) ?? 0 },
      };
    }
    const entry: ProgressEntry = {
      tmdbId: id,
      type,
      title,
      year: num(value.year),
      poster: str(value.poster),
      updatedAt: num(value.updatedAt) ?? now,
      seasons,
      episodes,
    };
    if (type === 'movie' && isObj(value.progress))
      entry.progress = {
        watched: num(value.progress.watched) ?? 0,
        duration: num(value.progress.duration) ?? 0,
      };
    if (type === 'movie' && !entry.progress) continue;
    if (type === 'show' && Object.keys(episodes).length === 0) continue;
    data.progress[libraryKey(type, id)] = entry;
  }
  return data;
}
