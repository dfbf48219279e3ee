import type {
  Bookmark,
  FAMILY_SECRET_SETTINGS,
  ProgressListItem,
  Rating,
  UserSettings,
  WatchHistoryItem,
} from '@marquee/contract';
import { mediaTypeOf } from '@marquee/contract/values';

/*
 * Our library as p-stream's account backup (its MigrationDownload page's file, read by its MigrationUpload
 * page and by our `parse`): the stores keyed by TMDB id, as p-stream's client converts the API's lists
 * (src/backend/accounts/user.ts). What that keyed shape cannot hold — earlier plays of a movie or an
 * episode, a movie and a show under one id, rows p-stream would change — goes, as the API's list items, to
 * `marquee` beside it: p-stream ignores the key, our parser reads it, so the file round-trips whole.
 */

export type PStreamBookmarkInput = Pick<
  Bookmark,
  'tmdbId' | 'meta' | 'group' | 'favoriteEpisodes' | 'updatedAt'
>;
export type PStreamProgressInput = Pick<
  ProgressListItem,
  'tmdbId' | 'season' | 'episode' | 'meta' | 'updatedAt'
> & {
  duration: string | number;
  watched: string | number;
};
export type PStreamHistoryInput = Pick<
  WatchHistoryItem,
  'tmdbId' | 'season' | 'episode' | 'meta' | 'duration' | 'watched' | 'watchedAt' | 'completed'
>;

/** Our ratings (decision 103): p-stream keeps none, so they go to `marquee.ratings`. */
export type PStreamRatingInput = Pick<Rating, 'tmdbId' | 'type' | 'meta' | 'rating' | 'ratedAt'>;

export interface PStreamBackupInput {
  bookmarks: readonly PStreamBookmarkInput[];
  progress: readonly PStreamProgressInput[];
  watchHistory: readonly PStreamHistoryInput[];
  ratings?: readonly PStreamRatingInput[];
  groupOrder: readonly string[];
  settings: Partial<UserSettings> | null;
}

export interface PStreamExportOptions {
  /** Third-party keys (Febbox, debrid, TIDB, Trakt) are left out unless the viewer asks for them. */
  includeSecrets?: boolean;
  now?: Date;
}

/** The contract's FAMILY_SECRET_SETTINGS (a type check keeps the two lists the same). */
const SECRET_SETTINGS = ['febboxKey', 'debridToken', 'tidbKey', 'traktKey'] as const;
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const secretsMatch: SameNames<(typeof SECRET_SETTINGS)[number], (typeof FAMILY_SECRET_SETTINGS)[number]> =
  true;
void secretsMatch;

type Meta = Bookmark['meta'];
interface LocalTitle {
  title: string;
  year?: number;
  poster?: string;
  type: 'movie' | 'show';
}

function localTitle(meta: Meta, hasEpisode: boolean): LocalTitle {
  return {
    title: meta.title,
    ...(meta.year !== null ? { year: meta.year } : {}),
    ...(meta.poster !== undefined ? { poster: meta.poster } : {}),
    type: mediaTypeOf(meta.type, hasEpisode),
  };
}

const sameMeta = (a: LocalTitle, b: LocalTitle) =>
  a.title === b.title && a.year === b.year && a.poster === b.poster && a.type === b.type;

function bookmarksOf(rows: readonly PStreamBookmarkInput[], extra: PStreamBookmarkInput[]) {
  const out: Record<string, unknown> = {};
  for (const row of rows) {
    if (row.tmdbId in out) {
      extra.push(row);
      continue;
    }
    out[row.tmdbId] = {
      ...localTitle(row.meta, false),
      updatedAt: Date.parse(row.updatedAt),
      ...(row.group.length ? { group: row.group } : {}),
      favoriteEpisodes: row.favoriteEpisodes,
    };
  }
  return out;
}

interface LocalProgress extends LocalTitle {
  updatedAt: number;
  progress?: { watched: number; duration: number };
  seasons: Record<string, { id: string; number: number; title: string }>;
  episodes: Record<string, unknown>;
}

/** p-stream's `progressResponsesToEntries`, with the rows it would alter set aside instead. */
function progressOf(rows: readonly PStreamProgressInput[], extra: PStreamProgressInput[]) {
  const out: Record<string, LocalProgress> = {};
  for (const row of rows) {
    const { season, episode } = row;
    const title = localTitle(row.meta, !!episode.id);
    const held = out[row.tmdbId];
    const updatedAt = Date.parse(row.updatedAt);
    const progress = { watched: Number(row.watched), duration: Number(row.duration) };
    if (title.type === 'movie') {
      if (held) extra.push(row);
      else out[row.tmdbId] = { ...title, updatedAt, progress, seasons: {}, episodes: {} };
      continue;
    }
    const fits =
      season.id &&
      episode.id &&
      season.number !== null &&
      episode.number !== null &&
      (!held || sameMeta(held, title));
    const seasonHeld = held && season.id ? held.seasons[season.id] : undefined;
    if (
      !fits ||
      (held && episode.id! in held.episodes) ||
      (seasonHeld && seasonHeld.number !== season.number)
    ) {
      extra.push(row);
      continue;
    }
    const item = held ?? (out[row.tmdbId] = { ...title, updatedAt, seasons: {}, episodes: {} });
    item.updatedAt = Math.max(item.updatedAt, updatedAt);
    item.seasons[season.id!] = { id: season.id!, number: season.number!, title: '' };
    item.episodes[episode.id!] = {
      id: episode.id,
      number: episode.number,
      title: '',
      progress,
      seasonId: season.id,
      updatedAt,
    };
  }
  return out;
}

/** One entry per movie or episode (its latest play), keyed as p-stream keys its store. */
function historyOf(rows: readonly PStreamHistoryInput[], extra: PStreamHistoryInput[]) {
  const out: Record<string, unknown> = {};
  const latestFirst = [...rows].sort((a, b) => Date.parse(b.watchedAt) - Date.parse(a.watchedAt));
  for (const row of latestFirst) {
    const key = row.episode.id ? `${row.tmdbId}-${row.episode.id}` : row.tmdbId;
    if (key in out || (row.episode.id && row.tmdbId.includes('-'))) {
      extra.push(row);
      continue;
    }
    out[key] = {
      ...localTitle(row.meta, !!row.episode.id),
      progress: { watched: Number(row.watched), duration: Number(row.duration) },
      watchedAt: Date.parse(row.watchedAt),
      completed: row.completed,
      episodeId: row.episode.id,
      seasonId: row.season.id,
      seasonNumber: row.season.number,
      episodeNumber: row.episode.number,
    };
  }
  return out;
}

/** Our settings as p-stream's backup holds them: preferences in `settings`, the theme and language beside. */
function settingsOf(settings: Partial<UserSettings> | null, includeSecrets: boolean) {
  const out: Record<string, unknown> = {};
  let theme: unknown = null;
  let language: unknown = null;
  for (const [key, value] of Object.entries(settings ?? {})) {
    if (value === null || value === undefined || key === 'id' || key === 'updatedAt') continue;
    if (!includeSecrets && (SECRET_SETTINGS as readonly string[]).includes(key)) continue;
    if (key === 'applicationTheme') theme = value;
    else if (key === 'applicationLanguage') language = value;
    else out[key] = value;
  }
  return { settings: out, theme, language };
}

/** The backup file's text (JSON, indented as p-stream writes it). */
export function exportPStreamBackup(data: PStreamBackupInput, options: PStreamExportOptions = {}): string {
  const extra = {
    bookmarks: [] as PStreamBookmarkInput[],
    progress: [] as PStreamProgressInput[],
    watchHistory: [] as PStreamHistoryInput[],
    ratings: [...(data.ratings ?? [])],
  };
  const backup = {
    bookmarks: bookmarksOf(data.bookmarks, extra.bookmarks),
    progress: progressOf(data.progress, extra.progress),
    watchHistory: historyOf(data.watchHistory, extra.watchHistory),
    groupOrder: [...data.groupOrder],
    ...settingsOf(data.settings, options.includeSecrets ?? false),
    exportDate: (options.now ?? new Date()).toISOString(),
  };
  const extraSections = Object.entries(extra).filter(([, rows]) => rows.length > 0);
  const marquee = extraSections.length
    ? { marquee: { version: 1, ...Object.fromEntries(extraSections) } }
    : {};
  return JSON.stringify({ ...backup, ...marquee }, null, 2);
}
