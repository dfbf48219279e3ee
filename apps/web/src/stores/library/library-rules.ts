/**
 * The web app's library rules: Continue Watching, bookmark order, resume points (decision 030).
 * Pure: no schemas.
 */
import { GROUP_NAME_MAX, GROUP_NAME_PATTERN } from '@marquee/contract/values';
import type { MediaType } from '../../lib/media-keys.ts';

export const MIN_WATCHED_SECONDS = 20;
export const MIN_REMAINING_SECONDS = 120;

export interface Progress {
  watched: number;
  duration: number;
}

export interface LibraryMeta {
  tmdbId: string;
  type: MediaType;
  title: string;
  year: number | null;
  poster: string | null;
}

export interface BookmarkEntry extends LibraryMeta {
  /** When the user bookmarked it (epoch ms). */
  updatedAt: number;
  /** The named lists it is on (p-stream's bookmark groups, decision 097); absent = none known. */
  groups?: string[];
  /** A show's favourite episodes (episode ids); absent = none known. */
  favoriteEpisodes?: string[];
}

export interface EpisodeProgress {
  id: string;
  number: number;
  title: string;
  seasonId: string;
  updatedAt: number;
  progress: Progress;
}

export interface SeasonRef {
  id: string;
  number: number;
  title: string;
}

export interface ProgressEntry extends LibraryMeta {
  updatedAt: number;
  /** Movies only. */
  progress?: Progress;
  /** Shows only. */
  seasons: Record<string, SeasonRef>;
  episodes: Record<string, EpisodeProgress>;
}

/** Library key: a movie and a show with the same TMDB number are different titles. */
export const libraryKey = (type: MediaType, tmdbId: string) => `${type}:${tmdbId}`;

/** Shown in Continue Watching: at least 20 s watched and more than 120 s left. */
export function isWorthResuming(p: Progress): boolean {
  return p.watched >= MIN_WATCHED_SECONDS && p.duration - p.watched > MIN_REMAINING_SECONDS;
}

/**
 * The episode Continue Watching points at: the most recently updated one, ignoring season 1 episode 1
 * when it has under 20 s watched (a show opened by accident).
 */
export function resumeEpisode(entry: ProgressEntry): EpisodeProgress | null {
  const candidates = Object.values(entry.episodes).filter((ep) => {
    const season = entry.seasons[ep.seasonId];
    const isFirst = ep.number === 1 && season?.number === 1;
    return !(isFirst && ep.progress.watched < MIN_WATCHED_SECONDS);
  });
  candidates.sort((a, b) => b.updatedAt - a.updatedAt);
  return candidates[0] ?? null;
}

export interface ContinueItem {
  entry: ProgressEntry;
  episode: EpisodeProgress | null;
  progress: Progress;
}

/**
 * Continue Watching: titles with progress worth resuming (the same thresholds for a show's resume
 * episode as for a movie), bookmarked ones excluded (they show under Bookmarks),
 * titles the user removed from the row excluded until they are watched again, most recent first.
 */
export function continueWatching(
  progress: Record<string, ProgressEntry>,
  bookmarks: Record<string, BookmarkEntry>,
  hidden: Record<string, number> = {},
): ContinueItem[] {
  const items: ContinueItem[] = [];
  for (const [key, entry] of Object.entries(progress)) {
    if (bookmarks[key]) continue;
    if ((hidden[key] ?? -1) >= entry.updatedAt) continue;
    if (entry.type === 'movie') {
      if (entry.progress && isWorthResuming(entry.progress))
        items.push({ entry, episode: null, progress: entry.progress });
    } else {
      const episode = resumeEpisode(entry);
      if (episode && isWorthResuming(episode.progress))
        items.push({ entry, episode, progress: episode.progress });
    }
  }
  // By the title's last update, whichever episode it resumes at.
  return items.sort((a, b) => b.entry.updatedAt - a.entry.updatedAt);
}

/** Bookmarks, most recent first by the later of the bookmark time and the title's progress time. */
export function sortBookmarks(
  bookmarks: Record<string, BookmarkEntry>,
  progress: Record<string, ProgressEntry>,
): BookmarkEntry[] {
  const activity = (b: BookmarkEntry) =>
    Math.max(b.updatedAt, progress[libraryKey(b.type, b.tmdbId)]?.updatedAt ?? 0);
  return Object.values(bookmarks).sort((a, b) => activity(b) - activity(a));
}

/** Share of a title watched, 0…1. */
export const progressRatio = (p: Progress) =>
  p.duration > 0 ? Math.min(1, Math.max(0, p.watched / p.duration)) : 0;

/** The longest name of a list (the contract's limit for a bookmark group's name). */
export const MAX_LIST_NAME = GROUP_NAME_MAX;

/** A list's name as the server takes it (trimmed, 1–100 characters, no control characters), or null. */
export function cleanListName(name: string): string | null {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_LIST_NAME) return null;
  return GROUP_NAME_PATTERN.test(trimmed) ? trimmed : null;
}

/**
 * The named lists in the viewer's order: `groupOrder` first (a name no bookmark uses is kept: a list
 * the viewer made and left empty), then names bookmarks use that the order misses, first seen first.
 */
export function listNames(bookmarks: Record<string, BookmarkEntry>, groupOrder: readonly string[]): string[] {
  const names = new Set(groupOrder);
  for (const bookmark of Object.values(bookmarks)) for (const name of bookmark.groups ?? []) names.add(name);
  return [...names];
}
