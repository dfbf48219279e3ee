import { useEffect, useMemo, useState } from 'react';
import { useQueries, type UseQueryResult } from '@tanstack/react-query';
import { create } from 'zustand';
import type { MediaDetails } from '@marquee/contract';
import { mediaQueries } from '../../lib/api/queries/media.ts';
import { clock } from '../../lib/clock.ts';
import { toTmdbType } from '../../lib/media-keys.ts';
import { useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import {
  airDayStart,
  libraryKey,
  stoppedShows,
  withoutStop,
  withStop,
  type BookmarkEntry,
  type ContinueHidden,
  type LastAired,
  type LibraryMeta,
  type ProgressEntry,
} from '../../stores/library/library-rules.ts';

/*
 * "Stop watching" a show in Continue Watching (docs/decisions/102-stop-watching.md): a synced mark per
 * show, undone from a note under the row's heading, lifted when a new episode airs (the show's details,
 * asked for only for stopped shows, after the row is on screen).
 */

/** The stop that can still be undone. */
export interface StopNote {
  key: string;
  title: string;
  /** The mark it made. */
  at: number;
  /** The mark it replaced, if any. */
  previous: number | undefined;
}

export const useStopNote = create<{ note: StopNote | null }>(() => ({ note: null }));

/**
 * The marks changed as `changeSyncedSettings` changes a setting (decision 100): in the preferences store at
 * once and recorded in the outbox, without loading the sync code into the first view.
 */
function changeMarks(next: ContinueHidden): void {
  usePreferencesStore.getState().setPreferences({ continueHidden: next });
  useLibraryStore.getState().queueSettings({ continueHidden: next });
}

/** Stops watching a show: off Continue Watching, its progress and watched marks kept; undoable. */
export function stopWatching(meta: Pick<LibraryMeta, 'type' | 'tmdbId' | 'title'>): void {
  const key = libraryKey(meta.type, meta.tmdbId);
  const hidden = usePreferencesStore.getState().continueHidden;
  const at = clock.now().getTime();
  changeMarks(withStop(hidden, key, at));
  useStopNote.setState({ note: { key, title: meta.title, at, previous: hidden[key] } });
}

/** Undoes the stop the note tells of (unless a later stop of the show replaced it) and closes the note. */
export function undoStop(note: StopNote): void {
  const hidden = usePreferencesStore.getState().continueHidden;
  const next = withoutStop(hidden, note.key, note.at, note.previous);
  if (next !== hidden) changeMarks(next);
  useStopNote.setState({ note: null });
}

export const dismissStopNote = () => useStopNote.setState({ note: null });

/** The most stopped shows whose air dates are asked for on one visit (the most recently watched first). */
export const AIR_CHECKS_MAX = 20;
/** How long after the row is on screen they are asked for: out of the first view's way. */
export const AIR_CHECK_DELAY_MS = 1500;
/** A show's details are asked for again after this long (a new episode is news of a day, not a minute). */
const AIR_STALE_MS = 6 * 60 * 60_000;

/** Becomes true a while after the first render (never during it). */
function useLater(delayMs: number): boolean {
  const [later, setLater] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLater(true), delayMs);
    return () => clearTimeout(timer);
  }, [delayMs]);
  return later;
}

const airDaysOf = (results: UseQueryResult<number | null>[]) => results.map((r) => r.data ?? null);

/**
 * When the stopped shows last had an episode air (by library key): what the app's cache of title details
 * holds at once, and, `AIR_CHECK_DELAY_MS` after the row rendered, the details of up to `AIR_CHECKS_MAX`
 * of them asked for (the same queries as the title page, so each answers both).
 */
export function useLastAired(
  progress: Record<string, ProgressEntry>,
  bookmarks: Record<string, BookmarkEntry>,
  hidden: ContinueHidden,
): LastAired {
  const later = useLater(AIR_CHECK_DELAY_MS);
  const shows = useMemo(
    () => stoppedShows(progress, bookmarks, hidden).slice(0, AIR_CHECKS_MAX),
    [progress, bookmarks, hidden],
  );
  const days = useQueries({
    queries: shows.map((show) => ({
      ...mediaQueries.details(toTmdbType(show.type), show.tmdbId),
      select: (details: MediaDetails) => airDayStart(details.lastEpisode?.airDate),
      enabled: later,
      staleTime: AIR_STALE_MS,
    })),
    combine: airDaysOf,
  });
  // `days` stays the same array until an answer changes (a stable `combine`).
  return useMemo(() => {
    const aired: LastAired = {};
    shows.forEach((show, i) => {
      const day = days[i];
      if (typeof day === 'number') aired[libraryKey(show.type, show.tmdbId)] = day;
    });
    return aired;
  }, [shows, days]);
}
