import { libraryKey } from '../../../stores/library/library-rules.ts';
import { useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import {
  useAccountStore,
  useLibraryStore,
  usePlayerPrefsStore,
  usePreferencesStore,
} from '../../../stores/index.ts';
import { resumePosition } from '../core/autoplay.ts';
import { playerStore, type PlayerStore } from '../core/player-store.ts';
import { parseTimestamp } from '../../../lib/timestamp.ts';
import type { PlayerMeta } from '../core/types.ts';
import type { runSession, SessionProblem } from '../scrape/session.ts';
import { usePlayerDeps } from './player-deps.tsx';

/** Navigation state of "Next episode" and "Replay": the next title starts from its beginning. */
export interface PlayerNavState {
  fromStart?: boolean;
}

/**
 * Where a source starts: `?t=`, else "from the start" after Next episode/Replay or the title page's Start
 * over (`startOver`), else saved progress.
 */
export function useStartPosition(meta: PlayerMeta, startOver = false): () => number {
  const location = useLocation();
  const query = useRef(new URLSearchParams(location.search).get('t'));
  const fromStart = useRef(startOver || (location.state as PlayerNavState | null)?.fromStart === true);
  return () => {
    const queryTime = parseTimestamp(query.current);
    if (fromStart.current && queryTime === null) return 0;
    const entry = useLibraryStore.getState().progress[libraryKey(meta.type, meta.tmdbId)];
    const saved =
      meta.type === 'movie'
        ? (entry?.progress ?? null)
        : meta.episode
          ? (entry?.episodes[meta.episode.id]?.progress ?? null)
          : null;
    return resumePosition({ queryTime, saved });
  };
}

export interface PlaySessionOptions {
  /** Play as soon as the source is found (a deep link; see `startsOnOpen`). */
  startOnOpen: boolean;
  /** From the beginning, whatever was saved (the title page's Start over). */
  fromStart?: boolean;
  /** The session runner (else the player deps'). */
  run?: typeof runSession;
  store?: PlayerStore;
}

/**
 * The play session of a title: before the first render the store gets the viewer's last volume and
 * whether to play at once (the display reads both when it attaches); then the metadata and scraping
 * steps run, and a new title (or a retry) starts them over. Returns the problem to show, if any.
 */
export function usePlaySession(
  meta: PlayerMeta,
  { startOnOpen, fromStart = false, run: given, store = playerStore }: PlaySessionOptions,
) {
  const deps = usePlayerDeps();
  const run = given ?? deps.runSession;
  const [problem, setProblem] = useState<SessionProblem | null>(null);
  const [attempt, setAttempt] = useState(0);
  const startAt = useStartPosition(meta, fromStart);
  const startAtRef = useRef(startAt);
  useEffect(() => {
    startAtRef.current = startAt;
  });

  useState(() => {
    const volume = usePlayerPrefsStore.getState().volume;
    store.getState().updatePlayback({ volume: volume > 0 ? volume : 1, muted: volume === 0 });
    store.getState().setPlayRequested(startOnOpen);
    return null;
  });

  useEffect(() => {
    const controller = new AbortController();
    const state = store.getState();
    state.reset();
    state.setMeta(meta);
    setProblem(null);
    const prefs = usePreferencesStore.getState();
    void run(
      store,
      meta,
      {
        proxyList: useAccountStore.getState().proxyUrls,
        sourceOrder: prefs.enableSourceOrder ? prefs.sourceOrder : [],
        captcha: runtimeConfig().captcha.provider,
        startAt: () => startAtRef.current(),
      },
      controller.signal,
    ).then((p) => {
      if (!controller.signal.aborted) setProblem(p);
    });
    return () => controller.abort();
  }, [meta, attempt, run, store]);

  return { problem, retry: () => setAttempt((n) => n + 1) };
}

/** A new source while subtitles are on: the last language comes back. */
export function useCaptionsFollowSource(select?: () => Promise<void>, store: PlayerStore = playerStore) {
  const autoSelect = usePlayerDeps().autoSelectCaption;
  const selectRef = useRef(select ?? autoSelect);
  useEffect(() => {
    selectRef.current = select ?? autoSelect;
  });
  useEffect(
    () =>
      store.subscribe((s, prev) => {
        if (s.sourceVersion !== prev.sourceVersion && s.source) void selectRef.current();
      }),
    [store],
  );
}
