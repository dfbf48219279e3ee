import { type SeasonRef } from './library-rules.ts';
import { libraryKey, type LibraryMeta, type ProgressEntry } from './library-rules.ts';
import { type MediaType } from '../../lib/media-keys.ts';
import { clock } from '../../lib/clock.ts';
import { create, createStore, type StateCreator } from 'zustand';
import type { VersionedSpec } from '../persisted.ts';
import { usePreferencesStore } from '../preferences-store.ts';
import { convertLegacyLibrary, readLegacyLibrary, type LegacyLibrary } from './legacy.ts';
import type { PlayEntry, PlayRemoval } from './history-rules.ts';
import { playOp, playPassedOp, playRemovalOp, type PlayInput } from './history-ops.ts';
import { ratingWrite, type RatingEntry } from './ratings-rules.ts';
import {
  bookmarkListsOp,
  deleteListOps,
  favoriteEpisodeOp,
  groupOrderOp,
  renameListOps,
} from './list-ops.ts';
import {
  applyOp,
  coalesce,
  latestTimeFor,
  mergeRemovals,
  mergeServerState,
  newOpId,
  noRemovals,
  opsOfProfile,
  REMOVALS_KEPT_MS,
  type EpisodeRef,
  type LibraryData,
  type OutboxOp,
  type OutboxOpInput,
  type Removals,
  type SyncedSettings,
} from './outbox.ts';

/** A library this device keeps for a household profile that is not the active one (decision 042). */
export interface StashedLibrary extends LibraryData {
  /**
   * The profile's own preferences (autoplay, caption style, the watched threshold, the "stop watching"
   * marks, the player's details of decision 112): restored when it becomes active again. Stashed before
   * one of the later ones was a setting: without it (the default, then).
   */
  prefs?: {
    enableAutoplay: boolean;
    subtitleStyling: NonNullable<SyncedSettings['subtitleStyling']>;
    watchedThreshold?: number;
    continueHidden?: Record<string, number>;
    enablePauseOverlay?: boolean;
    stillWatching?: { episodes: number; minutes: number };
    playerShortcuts?: Record<string, string[]>;
    hideSpoilers?: boolean;
    hideWatchedInDiscover?: boolean;
  };
}

export interface LibraryStoreData extends LibraryData {
  /** The active library's watch history: play key → play (decision 095). */
  history: Record<string, PlayEntry>;
  /** The active library's ratings: library key → rating (docs/decisions/103-ratings.md). */
  ratings: Record<string, RatingEntry>;
  /** The active library's removals (a stashed library keeps its own). */
  removals: Removals;
  /** The active library's order of named lists (p-stream's group order, decision 097). */
  groupOrder: string[];
  /** Changes not yet acknowledged by the server, oldest first, of every profile. Kept only while signed in. */
  outbox: OutboxOp[];
  /** Whose library `bookmarks` and `progress` are: a household profile id, or '' for the account's own. */
  profile: string;
  /** The other profiles' libraries kept on this device, so switching back is instant and offline-proof. */
  stash: Record<string, StashedLibrary>;
}

export interface ProgressUpdate {
  meta: LibraryMeta;
  watched: number;
  duration: number;
  /** Shows: the season and episode watched. */
  season?: SeasonRef;
  episode?: EpisodeRef;
}

interface LibraryActions {
  toggleBookmark(meta: LibraryMeta): void;
  addBookmark(meta: LibraryMeta): void;
  removeBookmark(type: MediaType, tmdbId: string): void;
  /** The title's bookmark on exactly these named lists (bookmarked if it was not: a title on a list is on My List). */
  setBookmarkLists(meta: LibraryMeta, groups: string[]): void;
  /** Adds or removes one of a show's favourite episodes (bookmarking the show if it was not). */
  toggleFavoriteEpisode(meta: LibraryMeta, episodeId: string): void;
  /** The viewer's order of named lists (the whole order). */
  setGroupOrder(order: string[]): void;
  /** Renames a list on every bookmark holding it and in the order. */
  renameList(from: string, to: string): void;
  /** Takes a list off every bookmark holding it and out of the order (the titles stay on My List). */
  deleteList(name: string): void;
  /**
   * From the player: progress of a movie or an episode. `hold` (saves while playing): the write to the
   * account waits up to PROGRESS_HOLD_MS, newer positions replacing it meanwhile; without it, it goes now
   * (pause, seek, another episode, leaving).
   */
  saveProgress(update: ProgressUpdate, options?: { hold?: boolean }): void;
  /** Pending progress held back while playing is sent now (pause, seek, leaving). */
  sendHeldNow(): void;
  /** Removes progress of a whole title, a season or an episode. */
  removeProgress(type: MediaType, tmdbId: string, target?: { seasonId?: string; episodeId?: string }): void;
  /** "Remove from Continue Watching": forgets the title's progress, on every device. */
  removeFromContinueWatching(type: MediaType, tmdbId: string): void;
  /** Records a play by hand ("I watched this on…"), or one of a file imported (kept at its own time). */
  recordPlay(play: PlayInput, options?: { imported?: boolean }): void;
  /** Removes plays: of a title, a season, an episode, or one play (`watchedAt`). */
  removePlays(removal: PlayRemoval): void;
  /**
   * Rates a movie or show 1–10 now (decision 103; stars in halves are twice their value), rated at
   * `ratedAt` (default now); a value outside 1–10 changes nothing. A file's ratings come through the
   * bulk merge (`ratingImportOp`).
   */
  rate(meta: LibraryMeta, rating: number, options?: { ratedAt?: number }): void;
  /** Removes the title's rating, on every device. */
  unrate(type: MediaType, tmdbId: string): void;
  /** Records a change of synced settings (the settings themselves live in their own stores). */
  queueSettings(settings: SyncedSettings): void;
  /** The server acknowledged the op, or it can never succeed: it leaves the outbox. */
  removeOp(id: string): void;
  /**
   * Restore: the server's state with every pending change re-applied over it (ignored if `profile`'s
   * library is no longer the active one). Removals known here or read from the server are kept (those
   * older than the server keeps its own are forgotten).
   */
  mergeServer(server: LibraryData, profile?: string): void;
  /** Logout: forgets bookmarks, progress, plays, ratings and pending changes. */
  clear(): void;
}

export type LibraryState = LibraryStoreData & LibraryActions;

/** How long progress saved while playing may wait before it is sent (one write per 15 s of playing). */
export const PROGRESS_HOLD_MS = 15_000;

const initial = (): LibraryStoreData => ({
  bookmarks: {},
  progress: {},
  history: {},
  ratings: {},
  removals: noRemovals(),
  groupOrder: [],
  outbox: [],
  profile: '',
  stash: {},
});

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Whether changes are recorded for the server (signed in). Set by the account store's owner at start. */
let recording: () => boolean = () => false;
export function setOutboxRecording(isSignedIn: () => boolean): void {
  recording = isSignedIn;
}

/**
 * How the library's data is versioned and migrated (the older clients' data is version 0). It is kept in
 * IndexedDB, or in localStorage where IndexedDB is missing (library-persistence.ts, decision 080).
 */
export const librarySpec: VersionedSpec<LibraryStoreData> = {
  name: 'library',
  version: 1,
  initial,
  legacy: readLegacyLibrary,
  migrations: {
    1: (old: LegacyLibrary): LibraryStoreData => ({
      ...convertLegacyLibrary(old, clock.now().getTime()),
      history: {},
      ratings: {},
      removals: noRemovals(),
      groupOrder: [],
      outbox: [],
      profile: '',
      stash: {},
    }),
  },
  sanitize: (data: Record<string, unknown>, init) => ({
    bookmarks: isObj(data.bookmarks) ? (data.bookmarks as LibraryStoreData['bookmarks']) : init.bookmarks,
    progress: isObj(data.progress) ? (data.progress as LibraryStoreData['progress']) : init.progress,
    // Absent in what was saved before the watch history.
    history: isObj(data.history) ? (data.history as LibraryStoreData['history']) : init.history,
    // Absent in what was saved before ratings.
    ratings: isObj(data.ratings) ? (data.ratings as LibraryStoreData['ratings']) : init.ratings,
    removals:
      isObj(data.removals) && isObj(data.removals.bookmarks) && isObj(data.removals.progress)
        ? (data.removals as unknown as Removals)
        : init.removals,
    // Absent in what was saved before named lists.
    groupOrder: Array.isArray(data.groupOrder)
      ? data.groupOrder.filter((n): n is string => typeof n === 'string')
      : init.groupOrder,
    outbox: Array.isArray(data.outbox) ? (data.outbox as OutboxOp[]) : init.outbox,
    profile: typeof data.profile === 'string' ? data.profile : init.profile,
    stash: isObj(data.stash) ? (data.stash as LibraryStoreData['stash']) : init.stash,
  }),
};

const libraryState: StateCreator<LibraryState> = (set, get) => {
  /**
   * One write for the change and its outbox entry. The change time is now, or just after what the
   * user saw if another device's clock ran ahead: the user's latest action must win.
   */
  const change = (make: (state: LibraryStoreData) => OutboxOpInput | null) =>
    set((state) => {
      const input = make(state);
      if (!input) return {};
      const at = Math.max(input.at, latestTimeFor(state, input) + 1);
      const op = {
        ...input,
        at,
        id: newOpId(),
        ...(state.profile ? { profile: state.profile } : {}),
      } as OutboxOp;
      const data = applyOp(state, op);
      return { ...data, outbox: recording() ? coalesce(state.outbox, op) : state.outbox };
    });
  const now = () => clock.now().getTime();
  const titleMeta = (m: LibraryMeta) => ({ title: m.title, year: m.year, poster: m.poster });
  const add = (meta: LibraryMeta): OutboxOpInput => ({
    kind: 'bookmark-add',
    type: meta.type,
    tmdbId: meta.tmdbId,
    meta: titleMeta(meta),
    at: now(),
  });
  const remove = (type: MediaType, tmdbId: string): OutboxOpInput => ({
    kind: 'bookmark-remove',
    type,
    tmdbId,
    at: now(),
  });

  return {
    ...initial(),
    toggleBookmark: (meta) =>
      change((state) =>
        state.bookmarks[libraryKey(meta.type, meta.tmdbId)] ? remove(meta.type, meta.tmdbId) : add(meta),
      ),
    addBookmark: (meta) => change(() => add(meta)),
    removeBookmark: (type, tmdbId) => change(() => remove(type, tmdbId)),
    setBookmarkLists: (meta, groups) => change(() => bookmarkListsOp(meta, groups, now())),
    toggleFavoriteEpisode: (meta, episodeId) =>
      change((state) => favoriteEpisodeOp(state, meta, episodeId, now())),
    setGroupOrder: (order) => change(() => groupOrderOp(order, now())),
    // One write per bookmark holding the list, then the order.
    renameList: (from, to) => renameListOps(get(), from, to, now()).forEach((op) => change(() => op)),
    deleteList: (name) => deleteListOps(get(), name, now()).forEach((op) => change(() => op)),
    saveProgress: (u, options = {}) => {
      // The viewer's threshold (a setting, per profile) decides when a play is recorded.
      const threshold = usePreferencesStore.getState().watchedThreshold;
      change((state) => playPassedOp(state, u, now(), threshold));
      change(() => ({
        // A send schedule on the real clock (a pinned test clock must not hold it for ever).
        ...(options.hold ? { sendAfter: Date.now() + PROGRESS_HOLD_MS } : {}),
        kind: 'progress-put',
        type: u.meta.type,
        tmdbId: u.meta.tmdbId,
        meta: titleMeta(u.meta),
        watched: Math.max(0, u.watched),
        duration: Math.max(0, u.duration),
        ...(u.season && u.episode ? { season: u.season, episode: u.episode } : {}),
        at: now(),
      }));
    },
    recordPlay: (play, options = {}) => change(() => playOp(play, Boolean(options.imported), now())),
    removePlays: (removal) => change(() => playRemovalOp(removal, now())),
    rate: (meta, rating, o = {}) => change(() => ratingWrite(meta, rating, o.ratedAt, now(), now())),
    unrate: (type, tmdbId) => change(() => ({ kind: 'rating-remove', type, tmdbId, at: now() })),
    sendHeldNow: () =>
      set((state) =>
        state.outbox.some((op) => op.sendAfter !== undefined)
          ? {
              outbox: state.outbox.map((op) => {
                if (op.sendAfter === undefined) return op;
                const { sendAfter: _held, ...due } = op;
                return due as OutboxOp;
              }),
            }
          : {},
      ),
    removeProgress: (type, tmdbId, target = {}) =>
      change(() => ({ kind: 'progress-remove', type, tmdbId, ...target, at: now() })),
    removeFromContinueWatching: (type, tmdbId) =>
      change(() => ({ kind: 'progress-remove', type, tmdbId, at: now() })),
    queueSettings: (settings) =>
      set((state) =>
        recording()
          ? {
              outbox: coalesce(state.outbox, {
                kind: 'settings',
                settings,
                id: newOpId(),
                at: now(),
                ...(state.profile ? { profile: state.profile } : {}),
              }),
            }
          : {},
      ),
    removeOp: (id) => set((state) => ({ outbox: state.outbox.filter((op) => op.id !== id) })),
    mergeServer: (server, profile) =>
      set((state) =>
        profile !== undefined && profile !== state.profile
          ? {}
          : {
              removals: noRemovals(),
              ...mergeServerState(
                {
                  ...server,
                  removals: mergeRemovals(state.removals, server.removals, now() - REMOVALS_KEPT_MS),
                },
                opsOfProfile(state.outbox, state.profile),
              ),
            },
      ),
    clear: () => set(initial()),
  };
};

export const useLibraryStore = create<LibraryState>()(libraryState);

/** Another instance of the library store (tests: a second tab). */
export const createLibraryStore = () => createStore<LibraryState>()(libraryState);

export type { ProgressEntry };
