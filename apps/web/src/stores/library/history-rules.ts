import {
  SAME_PLAY_WINDOW_MS,
  WATCHED_THRESHOLD_MAX,
  WATCHED_THRESHOLD_MIN,
  changeWins,
} from '@marquee/contract/values';
import { libraryKey, type LibraryMeta, type SeasonRef } from './library-rules.ts';
import type { MediaType } from '../../lib/media-keys.ts';

/*
 * The watch history on this device (decision 095): one entry per play of a movie or an episode, keyed
 * by the title, the episode and when it was watched, with the server's rules — last writer wins per
 * play, a removal remembered per play, a play reported while watching folded into one of the same
 * title held within SAME_PLAY_WINDOW_MS. Pure: the store and the sync use these.
 */

/**
 * Watched past this share of its length, a movie or an episode counts as watched (a play is recorded):
 * the default of the viewer's `watchedThreshold` setting.
 */
export const WATCHED_SHARE = 0.9;
/** The thresholds Settings offers (shares of the length); 1 is "only when finished". */
export const WATCHED_THRESHOLD_CHOICES = [0.7, 0.8, 0.9, 0.95, 1] as const;
/**
 * Within this many seconds of the end counts as the end, whatever the threshold: the player saves whole
 * seconds every few seconds, so the very last second may never be saved.
 */
export const END_SLACK_SECONDS = 2;

/** A threshold as the setting may hold it (0.5–1), else null. */
export const validWatchedThreshold = (value: unknown): number | null =>
  typeof value === 'number' && value >= WATCHED_THRESHOLD_MIN && value <= WATCHED_THRESHOLD_MAX
    ? value
    : null;

export interface PlayEpisode {
  id: string;
  number: number;
  title: string;
}

export interface PlayEntry extends Omit<LibraryMeta, 'tmdbId' | 'type'> {
  tmdbId: string;
  type: MediaType;
  /** Shows: the episode played and its season. */
  season?: SeasonRef;
  episode?: PlayEpisode;
  /** When it was watched (epoch ms). */
  watchedAt: number;
  watched: number;
  duration: number;
  completed: boolean;
  /** When the entry last changed (epoch ms): the conflict rule compares these. */
  updatedAt: number;
}

/** The movie or episode a play is of. */
export const playTitleKey = (p: Pick<PlayEntry, 'type' | 'tmdbId'> & { episodeId?: string | undefined }) =>
  `${libraryKey(p.type, p.tmdbId)}|${p.type === 'show' ? (p.episodeId ?? '') : ''}`;
/** One play. */
export const playKey = (
  p: Pick<PlayEntry, 'type' | 'tmdbId' | 'watchedAt'> & { episodeId?: string | undefined },
) => `${playTitleKey(p)}|${p.watchedAt}`;
const keyOfEntry = (p: PlayEntry) => playKey({ ...p, episodeId: p.episode?.id });

/** What a removal of plays names: a title, a season, an episode, or one play (`watchedAt`). */
export interface PlayRemoval {
  type: MediaType;
  tmdbId: string;
  seasonId?: string | undefined;
  episodeId?: string | undefined;
  watchedAt?: number | undefined;
}

export const removalCoversPlay = (r: PlayRemoval, p: PlayEntry) =>
  r.type === p.type &&
  r.tmdbId === p.tmdbId &&
  (!r.seasonId || p.season?.id === r.seasonId) &&
  (!r.episodeId || p.episode?.id === r.episodeId) &&
  (r.watchedAt === undefined || r.watchedAt === p.watchedAt);

export interface HistoryData {
  history: Record<string, PlayEntry>;
  /** Play key → when it was removed. */
  removed: Record<string, number>;
}

/**
 * The time a reported play takes: that of a play of the same movie or episode held within the window
 * (the closest), else its own. Imports keep their own times.
 */
export function foldedWatchTime(history: Record<string, PlayEntry>, play: PlayEntry): number {
  const title = playTitleKey({ ...play, episodeId: play.episode?.id });
  let best: number | null = null;
  for (const held of Object.values(history)) {
    if (playTitleKey({ ...held, episodeId: held.episode?.id }) !== title) continue;
    const distance = Math.abs(held.watchedAt - play.watchedAt);
    if (distance === 0) return play.watchedAt;
    if (distance <= SAME_PLAY_WINDOW_MS && (best === null || distance < Math.abs(best - play.watchedAt)))
      best = held.watchedAt;
  }
  return best ?? play.watchedAt;
}

/** Records a play unless what is held for it — the play or its removal — changed later. */
export function addPlay(data: HistoryData, play: PlayEntry, options: { fold: boolean }): HistoryData {
  const entry = options.fold ? { ...play, watchedAt: foldedWatchTime(data.history, play) } : play;
  const key = keyOfEntry(entry);
  const heldAt = Math.max(data.history[key]?.updatedAt ?? -Infinity, data.removed[key] ?? -Infinity);
  if (!changeWins(entry.updatedAt, Number.isFinite(heldAt) ? heldAt : null)) return data;
  const { [key]: _outdated, ...removed } = data.removed;
  return { history: { ...data.history, [key]: entry }, removed };
}

/**
 * Removes the plays a removal made at `at` names (not those changed after it), remembering each — only
 * those held: a removal turns the plays held then into tombstones, as the server does (decision 095;
 * the contract's conformance table runs both).
 */
export function removePlays(data: HistoryData, removal: PlayRemoval, at: number): HistoryData {
  const history = { ...data.history };
  const removed = { ...data.removed };
  for (const [key, play] of Object.entries(data.history)) {
    if (!removalCoversPlay(removal, play) || !changeWins(at, play.updatedAt)) continue;
    delete history[key];
    removed[key] = Math.max(at, removed[key] ?? at);
  }
  return { history, removed };
}

/** The seconds of `duration` past which it counts as watched at `threshold`. */
const watchedMark = (duration: number, threshold: number) =>
  Math.min(duration * threshold, duration - END_SLACK_SECONDS);

/**
 * Whether a save of `watched` seconds of `duration` passes the watched threshold (a share of the length,
 * the viewer's setting) that `before` had not.
 */
export function crossesWatched(
  before: { watched: number; duration: number } | undefined,
  watched: number,
  duration: number,
  threshold: number,
): boolean {
  if (!(duration > 0) || watched < watchedMark(duration, threshold)) return false;
  return !before || !(before.duration > 0) || before.watched < watchedMark(before.duration, threshold);
}

/** The episodes of show `showId` with at least one play: watched, by their marks' rule (decision 095). */
export function watchedEpisodeIds(history: Record<string, PlayEntry>, showId: string): Set<string> {
  const ids = new Set<string>();
  for (const play of Object.values(history))
    if (play.type === 'show' && play.tmdbId === showId && play.episode) ids.add(play.episode.id);
  return ids;
}
