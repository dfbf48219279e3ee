import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { PROFILE_HEADER } from '@marquee/contract/values';
import { api } from '../../../lib/api/index.ts';
import { traktQueries } from '../../../lib/api/queries/trakt.ts';
import { useAccountStore, useLibraryStore } from '../../../stores/index.ts';
import { playerStore, type PlayerState } from '../core/player-store.ts';
import type { PlayerMeta } from '../core/types.ts';

/*
 * Scrobbling to Trakt (docs/decisions/101-trakt-sync.md): while a signed-in viewer whose library is linked
 * plays a TMDB title, the server is told `start` when playback starts or resumes, `pause` when it pauses,
 * `stop` when it ends or the viewer leaves. The server answers at once and forwards in the background:
 * nothing here waits for it, and a failure is dropped (the next state change says where playback is).
 */

export type ScrobbleAction = 'start' | 'pause' | 'stop';
/** What the player is doing, as far as Trakt cares: `idle` while nothing plays yet (loading, a source switch, an error). */
export type ScrobblePhase = 'playing' | 'paused' | 'ended' | 'idle';

/** What a scrobble names: a movie, or an episode by its season and episode numbers. */
export interface ScrobbleTarget {
  tmdbId: string;
  type: 'movie' | 'show';
  seasonNumber?: number;
  episodeNumber?: number;
}

/** Paused this close to the end (seconds) is the end: the element pauses itself when it ends. */
const END_SLACK_S = 1;

/** The phase of the player's state. */
export function scrobblePhase(state: Pick<PlayerState, 'status' | 'playback'>): ScrobblePhase {
  const { status, playback } = state;
  if (status !== 'playing' || !playback.hasPlayedOnce || !(playback.duration > 0)) return 'idle';
  if (!playback.isPaused) return 'playing';
  return playback.time >= playback.duration - END_SLACK_S ? 'ended' : 'paused';
}

/**
 * The scrobble a new phase calls for, given the last one sent (null: none yet): one per change, none for
 * what Trakt already knows (a seek or a buffering stall changes no phase).
 */
export function nextScrobble(sent: ScrobbleAction | null, phase: ScrobblePhase): ScrobbleAction | null {
  if (phase === 'playing') return sent === 'start' ? null : 'start';
  if (phase === 'paused') return sent === 'start' ? 'pause' : null;
  if (phase === 'ended') return sent === 'start' || sent === 'pause' ? 'stop' : null;
  return null;
}

/** Leaving (another title, the page, the player): `stop` when Trakt was told something else last. */
export const leaveScrobble = (sent: ScrobbleAction | null): ScrobbleAction | null =>
  sent === 'start' || sent === 'pause' ? 'stop' : null;

/** Progress in percent, two decimals, 0–100 (0 while the duration is unknown). */
export function scrobbleProgress(time: number, duration: number): number {
  if (!(duration > 0) || !Number.isFinite(time)) return 0;
  const percent = Math.round((time / duration) * 10_000) / 100;
  return Math.min(100, Math.max(0, percent));
}

/** What to scrobble for `meta`: null unless its id is TMDB's (numeric) and an episode names its numbers. */
export function scrobbleTarget(
  meta: Pick<PlayerMeta, 'tmdbId' | 'type' | 'season' | 'episode'>,
): ScrobbleTarget | null {
  if (!/^\d{1,12}$/.test(meta.tmdbId)) return null;
  if (meta.type === 'movie') return { tmdbId: meta.tmdbId, type: 'movie' };
  if (!meta.season || !meta.episode) return null;
  return {
    tmdbId: meta.tmdbId,
    type: 'show',
    seasonNumber: meta.season.number,
    episodeNumber: meta.episode.number,
  };
}

/**
 * The scrobbles of one title while it is open: `observe` each player state, `leave` when it closes. Sends
 * nothing unless the library is `linked` and there is a `target`; at most one scrobble per phase change.
 */
export function createScrobbler(o: {
  linked: boolean;
  target: ScrobbleTarget | null;
  send(action: ScrobbleAction, body: ScrobbleTarget & { progress: number }): void;
}) {
  let sent: ScrobbleAction | null = null;
  let progress = 0;
  const emit = (action: ScrobbleAction | null) => {
    if (!action || !o.linked || !o.target) return;
    sent = action;
    o.send(action, { ...o.target, progress });
  };
  return {
    observe(state: Pick<PlayerState, 'status' | 'playback'>) {
      const phase = scrobblePhase(state);
      // Kept from the last state that knew it: a reset for the next title clears the playback first.
      if (phase !== 'idle') progress = scrobbleProgress(state.playback.time, state.playback.duration);
      emit(nextScrobble(sent, phase));
    },
    leave() {
      emit(leaveScrobble(sent));
    },
  };
}

/** The library the scrobbles are for: the signed-in account and its active household profile. */
interface Library {
  uid: string;
  profile: string;
}

const profileHeader = (profile: string) => (profile ? { [PROFILE_HEADER]: profile } : undefined);

/** Whether this library is linked to Trakt: read once per library and kept (settings updates the same query). */
function useTraktLinked(library: Library | null, enabled: boolean): boolean {
  const status = useQuery({
    ...traktQueries.status(library?.uid ?? '', library?.profile ?? ''),
    enabled: enabled && library !== null,
    staleTime: 30 * 60_000,
    retry: false,
    refetchOnWindowFocus: false,
  });
  return status.data?.state === 'linked';
}

/** Tells the server; never waits for it, and a failure is dropped. A stop may go out as the page goes away. */
function sendScrobble(library: Library, action: ScrobbleAction, body: ScrobbleTarget & { progress: number }) {
  api.trakt
    .scrobble({
      params: { uid: library.uid },
      body: { action, ...body },
      headers: profileHeader(library.profile),
      keepalive: action === 'stop',
    })
    .catch(() => undefined);
}

/** Scrobbles what plays to Trakt when the library is linked (see the top of this file). */
export function useTraktScrobble(meta: PlayerMeta) {
  const uid = useAccountStore((s) => s.account?.userId ?? null);
  const profile = useLibraryStore((s) => s.profile);
  const target = scrobbleTarget(meta);
  const linked = useTraktLinked(uid ? { uid, profile } : null, target !== null);
  // The target as a value: the effect restarts for another title or episode, not for a new meta object.
  const targetKey = target ? JSON.stringify(target) : null;

  useEffect(() => {
    if (!linked || !uid || !targetKey) return;
    const library = { uid, profile };
    const scrobbler = createScrobbler({
      linked,
      target: JSON.parse(targetKey) as ScrobbleTarget,
      send: (action, body) => sendScrobble(library, action, body),
    });
    const leave = () => scrobbler.leave();
    scrobbler.observe(playerStore.getState());
    const unsubscribe = playerStore.subscribe((state) => scrobbler.observe(state));
    window.addEventListener('pagehide', leave);
    return () => {
      unsubscribe();
      window.removeEventListener('pagehide', leave);
      leave();
    };
  }, [linked, uid, profile, targetKey]);
}
