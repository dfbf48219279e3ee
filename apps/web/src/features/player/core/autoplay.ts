import { parseTimestamp } from '../../../lib/timestamp.ts';

/** Who may autoplay the next episode (decision 050): the extension, a custom proxy, or the default setup when the instance allows it. */
export interface AutoplayContext {
  /** The viewer's preference (on by default). */
  enableAutoplay: boolean;
  mediaType: 'movie' | 'show';
  /** The instance's `allowAutoplay`. */
  instanceAllows: boolean;
  extensionActive: boolean;
  hasCustomProxy: boolean;
}

export function canAutoplay(c: AutoplayContext): boolean {
  if (!c.enableAutoplay || c.mediaType !== 'show') return false;
  return c.instanceAllows || c.extensionActive || c.hasCustomProxy;
}

/** Autoplay starts once the position enters the last 1 % of the duration. */
export const AUTOPLAY_AT_FRACTION = 0.99;
export function isInAutoplayZone(time: number, duration: number): boolean {
  return duration > 0 && time >= duration * AUTOPLAY_AT_FRACTION;
}

/**
 * When the next-episode button shows: always in the last 30 s and once the end credits run (when the
 * file's credits are known, decision 111), from 93 % of the duration while the controls are shown;
 * never while nothing plays.
 */
export function nextEpisodeButtonVisible(o: {
  time: number;
  duration: number;
  controlsVisible: boolean;
  hasPlayed: boolean;
  creditsAt?: number | null;
}): 'always' | 'hover' | 'hidden' {
  if (!o.hasPlayed || o.duration <= 0) return 'hidden';
  if (o.duration - o.time <= 30) return 'always';
  if (o.creditsAt != null && o.time >= o.creditsAt) return 'always';
  if (o.time / o.duration >= 0.93 && o.controlsVisible) return 'hover';
  return 'hidden';
}

/** Where playback resumes: a valid `?t=` first, else saved progress that is not finished; 0 otherwise. */
export function resumePosition(o: {
  queryTime: number | null;
  saved: { watched: number; duration: number } | null;
}): number {
  if (o.queryTime !== null && o.queryTime >= 0) return o.queryTime;
  const saved = o.saved;
  if (!saved || saved.duration <= 0 || saved.watched <= 0) return 0;
  // Finished (credits or the last 2 %): start again from the beginning.
  if (saved.duration - saved.watched < 30 || saved.watched / saved.duration > 0.98) return 0;
  return saved.watched;
}

/**
 * Whether the player starts as soon as its source is found (docs/architecture.md): deep links to an episode
 * or with a valid `?t=` do; a title opened as such (`/media/{key}`, or a show sent on to its first
 * episode by that redirect) waits for Play, loading no media before it.
 */
export function startsOnOpen(o: {
  search: string;
  hasEpisodeInPath: boolean;
  redirectedFromTitle: boolean;
}): boolean {
  const query = new URLSearchParams(o.search);
  if (parseTimestamp(query.get('t')) !== null) return true;
  // A watch party's player follows its room at once (decision 110).
  if (query.has('party')) return true;
  return o.hasEpisodeInPath && !o.redirectedFromTitle;
}
