import type { MediaType } from '../../lib/media-keys.ts';
import type { PlayEntry } from './history-rules.ts';

/*
 * How the watch history is shown (decision 095): by day, and per title. Apart from history-rules.ts, so
 * the pages that show it carry this, not the app's first view.
 */

/** The plays of a title, newest first (a show's: every episode's). */
export function playsOf(history: Record<string, PlayEntry>, type: MediaType, tmdbId: string): PlayEntry[] {
  return Object.values(history)
    .filter((p) => p.type === type && p.tmdbId === tmdbId)
    .sort((a, b) => b.watchedAt - a.watchedAt);
}

/** The plays of one day (this device's time zone), newest first. */
export interface HistoryDay {
  /** The day's first millisecond. */
  start: number;
  /** Days before today: 0 today, 1 yesterday… */
  relative: number;
  plays: PlayEntry[];
}

const startOfDay = (ms: number) => {
  const d = new Date(ms);
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();
};

/** Plays grouped by the day they were watched, newest day and play first. */
export function historyByDay(plays: readonly PlayEntry[], now: number): HistoryDay[] {
  const today = startOfDay(now);
  const days = new Map<number, PlayEntry[]>();
  for (const play of [...plays].sort((a, b) => b.watchedAt - a.watchedAt)) {
    const start = startOfDay(play.watchedAt);
    const day = days.get(start);
    if (day) day.push(play);
    else days.set(start, [play]);
  }
  return [...days].map(([start, dayPlays]) => ({
    start,
    // Calendar days, so a change to or from summer time does not make a day of 23 or 25 hours count wrong.
    relative: Math.round((today - start) / 86_400_000),
    plays: dayPlays,
  }));
}
