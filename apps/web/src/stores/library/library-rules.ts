/**
 * The web app's library rules: Continue Watching (and its "stop watching" marks, decision 102), bookmark
 * order, resume points (decision 030).
 * Pure: no schemas.
 */
import { CONTINUE_HIDDEN_KEY_MAX, GROUP_NAME_MAX, GROUP_NAME_PATTERN } from '@marquee/contract/values';
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

/** The card a title would have in Continue Watching: its progress worth resuming, else null. */
function continueItem(entry: ProgressEntry): ContinueItem | null {
  if (entry.type === 'movie')
    return entry.progress && isWorthResuming(entry.progress)
      ? { entry, episode: null, progress: entry.progress }
      : null;
  const episode = resumeEpisode(entry);
  return episode && isWorthResuming(episode.progress) ? { entry, episode, progress: episode.progress } : null;
}

/**
 * "Stop watching" marks (decision 102): library key → when the viewer stopped watching (epoch ms),
 * synced as `continueHidden`.
 */
export type ContinueHidden = Record<string, number>;
/** Shows' latest aired episode, by library key: the start (UTC) of its air day (epoch ms). */
export type LastAired = Record<string, number>;

/** The newest marks the web keeps (the server takes up to `CONTINUE_HIDDEN_MAX`). */
export const CONTINUE_HIDDEN_KEPT = 200;

/**
 * Stopped: marked at or after the title's last progress (watching it again brings it back), and no
 * episode has aired since the mark (an episode that airs on the day it was stopped does not count).
 */
export function isStopped(
  key: string,
  entry: ProgressEntry,
  hidden: ContinueHidden,
  aired: LastAired,
): boolean {
  const at = hidden[key];
  if (at === undefined || at < entry.updatedAt) return false;
  const airedAt = aired[key];
  return airedAt === undefined || airedAt <= at;
}

/**
 * Continue Watching: titles with progress worth resuming (the same thresholds for a show's resume
 * episode as for a movie), bookmarked ones excluded (they show under Bookmarks), titles the viewer
 * stopped watching excluded (`isStopped`), most recent first.
 */
export function continueWatching(
  progress: Record<string, ProgressEntry>,
  bookmarks: Record<string, BookmarkEntry>,
  hidden: ContinueHidden = {},
  aired: LastAired = {},
): ContinueItem[] {
  const items: ContinueItem[] = [];
  for (const [key, entry] of Object.entries(progress)) {
    if (bookmarks[key] || isStopped(key, entry, hidden, aired)) continue;
    const item = continueItem(entry);
    if (item) items.push(item);
  }
  // By the title's last update, whichever episode it resumes at.
  return items.sort((a, b) => b.entry.updatedAt - a.entry.updatedAt);
}

/**
 * The shows whose air dates decide whether they come back (decision 102): stopped, not bookmarked, and
 * with an episode worth resuming (else they would not be in the row anyway); most recent first.
 */
export function stoppedShows(
  progress: Record<string, ProgressEntry>,
  bookmarks: Record<string, BookmarkEntry>,
  hidden: ContinueHidden,
): ProgressEntry[] {
  return Object.entries(progress)
    .filter(
      ([key, entry]) =>
        entry.type === 'show' &&
        !bookmarks[key] &&
        isStopped(key, entry, hidden, {}) &&
        continueItem(entry) !== null,
    )
    .map(([, entry]) => entry)
    .sort((a, b) => b.updatedAt - a.updatedAt);
}

/** An air date (`2024-05-01`) as the start of its day (UTC, epoch ms), else null. */
export function airDayStart(airDate: string | null | undefined): number | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(airDate ?? '');
  if (!match) return null;
  const at = Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]));
  return Number.isFinite(at) ? at : null;
}

/** The newest `CONTINUE_HIDDEN_KEPT` marks (a newer mark is kept over an older one). */
function newestMarks(marks: [string, number][]): ContinueHidden {
  marks.sort((a, b) => b[1] - a[1]);
  return Object.fromEntries(marks.slice(0, CONTINUE_HIDDEN_KEPT));
}

/** Marks as a setting may hold them (keys of 1–40 characters, times integers ≥ 0), the newest kept; else null. */
export function validContinueHidden(value: unknown): ContinueHidden | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const marks = Object.entries(value as Record<string, unknown>).filter(
    (mark): mark is [string, number] =>
      mark[0].length > 0 &&
      mark[0].length <= CONTINUE_HIDDEN_KEY_MAX &&
      Number.isSafeInteger(mark[1]) &&
      (mark[1] as number) >= 0,
  );
  return newestMarks(marks);
}

/** The marks with `key` stopped at `at` (the newest kept). */
export const withStop = (hidden: ContinueHidden, key: string, at: number): ContinueHidden =>
  newestMarks([...Object.entries(hidden).filter(([k]) => k !== key), [key, at]]);

/**
 * Undoing the stop made at `at`: the mark before it back (`previous`), or none; a mark made since
 * (another stop, another device's) is left as it is.
 */
export function withoutStop(
  hidden: ContinueHidden,
  key: string,
  at: number,
  previous: number | undefined,
): ContinueHidden {
  if (hidden[key] !== at) return hidden;
  const { [key]: _undone, ...rest } = hidden;
  return previous === undefined ? rest : { ...rest, [key]: previous };
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
