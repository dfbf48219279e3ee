import { changeWins } from '@marquee/contract/values';
import { type SeasonRef } from './library-rules.ts';
import {
  libraryKey,
  type BookmarkEntry,
  type EpisodeProgress,
  type LibraryMeta,
  type ProgressEntry,
} from './library-rules.ts';
import { type MediaType } from '../../lib/media-keys.ts';
import {
  addPlay,
  foldedWatchTime,
  playKey,
  removalCoversPlay,
  removePlays,
  type PlayEntry,
  type PlayEpisode,
} from './history-rules.ts';
import type { RatingEntry, RatingWrite } from './ratings-rules.ts';

/**
 * The outbox (docs/decisions/031): every change to the library or to synced settings is applied
 * locally at once and recorded here, with the time it was made, until the server acknowledges it.
 * Pure functions only; the store and the sync engine use them.
 */

export interface LibraryData {
  bookmarks: Record<string, BookmarkEntry>;
  progress: Record<string, ProgressEntry>;
  /** The watch history: play key → play (decision 095; absent: none yet). */
  history?: Record<string, PlayEntry>;
  /** The viewer's ratings: library key → rating (docs/decisions/103-ratings.md; absent: none yet). */
  ratings?: Record<string, RatingEntry>;
  /** The removals this device knows of (absent: none). */
  removals?: Removals;
  /** The viewer's order of named lists (p-stream's group order, decision 097; absent: none known). */
  groupOrder?: string[];
}

/** A progress removal: a title (both ids ''), a season (`episodeId` ''), an episode; when it was made. */
export interface ProgressRemovalMark {
  seasonId: string;
  episodeId: string;
  at: number;
}

/**
 * Removals are remembered, as the server remembers them (decision 011: tombstones), so a write that
 * arrives later but was made before a removal does not bring back what the user removed.
 */
export interface Removals {
  /** Bookmark key → when it was removed. */
  bookmarks: Record<string, number>;
  /** Progress key → its removals (the latest per title / season / episode). */
  progress: Record<string, ProgressRemovalMark[]>;
  /** Play key → when the play was removed (absent: none; data saved before the history). */
  history?: Record<string, number>;
  /** Rating key → when the rating was removed (absent: none; data saved before ratings). */
  ratings?: Record<string, number>;
}

export const noRemovals = (): Removals => ({ bookmarks: {}, progress: {}, history: {}, ratings: {} });

/** What a title is, as sent with bookmarks and progress. */
export type TitleMeta = Pick<LibraryMeta, 'title' | 'year' | 'poster'>;

/** The settings an account syncs (wire names). Absent = unchanged, null = cleared. */
export interface SyncedSettings {
  applicationLanguage?: string | null;
  applicationTheme?: string | null;
  defaultSubtitleLanguage?: string | null;
  proxyUrls?: string[] | null;
  /** Ours: the preferred audio language of library titles (ISO 639); null = the UI language's. */
  defaultAudioLanguage?: string | null;
  /** Ours (per-profile preferences, decision 040); servers of the older family ignore them. */
  enableAutoplay?: boolean | null;
  /** Ours, per profile: the share of its length past which a title counts as watched (0.5–1). */
  watchedThreshold?: number | null;
  /** Ours, per profile: the "stop watching" marks, library key → epoch ms (decision 102). */
  continueHidden?: Record<string, number> | null;
  /** p-stream's, per profile: the pause overlay (decision 112). */
  enablePauseOverlay?: boolean | null;
  /** Ours, per profile: when the player asks "Are you still watching?" (decision 112). */
  stillWatching?: { episodes: number; minutes: number } | null;
  /** Ours, per profile: the player's keys the viewer changed, action → keys (decision 112). */
  playerShortcuts?: Record<string, string[]> | null;
  /** Ours, per profile: unwatched episodes' stills and overviews hidden (decision 115). */
  hideSpoilers?: boolean | null;
  /** Ours, per profile: watched movies left out of Discover (decision 116). */
  hideWatchedInDiscover?: boolean | null;
  subtitleStyling?: {
    color: string;
    backgroundOpacity: number;
    backgroundBlur: number;
    size: number;
    bold: boolean;
  } | null;
}

export interface EpisodeRef {
  id: string;
  number: number;
  title: string;
}

interface OpBase {
  /** Unique; the sync engine removes an op by id once the server acknowledged it. */
  id: string;
  /** When the change was made (epoch ms): the server's last-writer-wins rule compares these. */
  at: number;
  /** The household profile whose library it changes (sent as X-Profile-Id); absent = the account's own. */
  profile?: string;
  /**
   * Not sent before this time (epoch ms): progress written while playing waits, so newer positions of
   * the same episode replace it in the outbox and one write a quarter-minute carries them. Absent: now.
   */
  sendAfter?: number;
}
interface TitleRef {
  type: MediaType;
  tmdbId: string;
}

export type OutboxOp = OpBase &
  (
    | ({
        kind: 'bookmark-add';
        meta: TitleMeta;
        /** The named lists, only when this device set them; absent: the server keeps what it has. */
        groups?: string[];
        /** The favourite episodes, only when this device set them; absent: kept, as `groups`. */
        favoriteEpisodes?: string[];
      } & TitleRef)
    | ({ kind: 'bookmark-remove' } & TitleRef)
    | ({
        kind: 'progress-put';
        meta: TitleMeta;
        watched: number;
        duration: number;
        season?: SeasonRef;
        episode?: EpisodeRef;
      } & TitleRef)
    | ({ kind: 'progress-remove'; seasonId?: string; episodeId?: string } & TitleRef)
    | ({
        kind: 'history-add';
        meta: TitleMeta;
        season?: SeasonRef;
        episode?: PlayEpisode;
        watchedAt: number;
        watched: number;
        duration: number;
        completed: boolean;
        /** From a file or another service: kept at its own time, never folded into a play held. */
        imported?: boolean;
      } & TitleRef)
    | ({
        kind: 'history-remove';
        seasonId?: string;
        episodeId?: string;
        /** One play; absent: every play the rest names. */
        watchedAt?: number;
      } & TitleRef)
    /** A rating of 1–10 given at `ratedAt` (decision 103). */
    | Omit<RatingWrite, 'at'>
    | ({ kind: 'rating-remove' } & TitleRef)
    | { kind: 'settings'; settings: SyncedSettings }
    /** The whole order of named lists; the server keeps the last one to arrive (no change time). */
    | { kind: 'group-order'; order: string[] }
  );

export type OutboxOpInput = OutboxOp extends infer O ? (O extends OutboxOp ? Omit<O, 'id'> : never) : never;

export function newOpId(): string {
  const bytes = new Uint8Array(8);
  crypto.getRandomValues(bytes);
  return `${Date.now().toString(36)}-${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const keyOf = (op: TitleRef) => libraryKey(op.type, op.tmdbId);

/** Whether a pending progress write is made obsolete by a removal (same title, and same season/episode if named). */
function removalCovers(
  removal: Extract<OutboxOp, { kind: 'progress-remove' }>,
  put: Extract<OutboxOp, { kind: 'progress-put' }>,
): boolean {
  if (keyOf(removal) !== keyOf(put)) return false;
  if (removal.episodeId) return put.episode?.id === removal.episodeId;
  if (removal.seasonId) return put.season?.id === removal.seasonId;
  return true;
}

/** The play a history op records. */
export function playOf(op: Omit<Extract<OutboxOp, { kind: 'history-add' }>, 'id'>): PlayEntry {
  return {
    tmdbId: op.tmdbId,
    type: op.type,
    title: op.meta.title,
    year: op.meta.year,
    poster: op.meta.poster,
    ...(op.type === 'show' && op.season && op.episode ? { season: op.season, episode: op.episode } : {}),
    watchedAt: op.watchedAt,
    watched: op.watched,
    duration: op.duration,
    completed: op.completed,
    updatedAt: op.at,
  };
}
const playKeyOfOp = (op: Omit<Extract<OutboxOp, { kind: 'history-add' }>, 'id'>) =>
  playKey({ ...op, episodeId: op.type === 'show' ? op.episode?.id : undefined });

/**
 * The kinds kept one per title, a removal remembered per title: bookmarks, and ratings (decision 103:
 * synced like bookmarks). Their ops are named `bookmark-…` and `rating-…`.
 */
type Titled = 'bookmarks' | 'ratings';
const titledOf = (kind: string): Titled | null =>
  kind.startsWith('bookmark-') ? 'bookmarks' : kind.startsWith('rating-') ? 'ratings' : null;

/**
 * Appends `op`, first dropping pending ops it makes obsolete: a newer bookmark change (or rating change,
 * decision 103) for the same title, a newer progress write for the same movie/episode, a removal covering
 * pending writes, newer values of the same settings. The newest op goes last, so the order of what is
 * sent stays the order in which things happened.
 */
export function coalesce(outbox: readonly OutboxOp[], op: OutboxOp): OutboxOp[] {
  /** `op`, with the lists of a bookmark write it replaces. */
  let newest = op;
  let sendAfter = op.sendAfter;
  const kept: OutboxOp[] = [];
  for (const pending of outbox) {
    // Another profile's library: nothing to coalesce with.
    if ((pending.profile ?? '') !== (op.profile ?? '')) {
      kept.push(pending);
      continue;
    }
    switch (op.kind) {
      case 'bookmark-add':
      case 'bookmark-remove':
      case 'rating-put':
      case 'rating-remove':
        // The newer change of the title's bookmark (or rating) is all the server needs.
        if (titledOf(pending.kind) === titledOf(op.kind) && keyOf(pending as TitleRef) === keyOf(op)) {
          if (newest.kind === 'bookmark-add') newest = withListsOf(pending, newest);
          continue;
        }
        break;
      case 'progress-put':
        if (
          pending.kind === 'progress-put' &&
          keyOf(pending) === keyOf(op) &&
          (pending.episode?.id ?? '') === (op.episode?.id ?? '')
        ) {
          // The replacement is due when the write it replaces was (or sooner): holding never postpones.
          sendAfter = dueTime(pending, { sendAfter });
          continue;
        }
        break;
      case 'progress-remove':
        if (pending.kind === 'progress-put' && removalCovers(op, pending)) continue;
        if (
          pending.kind === 'progress-remove' &&
          keyOf(pending) === keyOf(op) &&
          (pending.seasonId ?? '') === (op.seasonId ?? '') &&
          (pending.episodeId ?? '') === (op.episodeId ?? '')
        )
          continue;
        break;
      case 'history-add':
        if (pending.kind === 'history-add' && playKeyOfOp(pending) === playKeyOfOp(op)) continue;
        break;
      case 'history-remove':
        if (pending.kind === 'history-add' && removalCoversPlay(op, playOf(pending))) continue;
        if (
          pending.kind === 'history-remove' &&
          keyOf(pending) === keyOf(op) &&
          (pending.seasonId ?? '') === (op.seasonId ?? '') &&
          (pending.episodeId ?? '') === (op.episodeId ?? '') &&
          pending.watchedAt === op.watchedAt
        )
          continue;
        break;
      case 'group-order':
        if (pending.kind === 'group-order') continue;
        break;
      case 'settings':
        if (pending.kind === 'settings') {
          const rest = Object.fromEntries(
            Object.entries(pending.settings).filter(([k]) => !(k in op.settings)),
          );
          if (Object.keys(rest).length === 0) continue;
          kept.push({ ...pending, settings: rest });
          continue;
        }
        break;
    }
    kept.push(pending);
  }
  if (sendAfter === newest.sendAfter) kept.push(newest);
  else {
    const { sendAfter: _held, ...rest } = newest;
    kept.push(sendAfter === undefined ? (rest as OutboxOp) : { ...newest, sendAfter });
  }
  return kept;
}

/**
 * A bookmark write replacing a pending change of the same title carries the lists that change would
 * have sent, so none is lost on the way: those of a pending write it leaves out, and `[]` after a pending
 * removal (the server clears a removed bookmark's lists; the removal itself is no longer sent).
 */
function withListsOf(
  pending: OutboxOp,
  op: Extract<OutboxOp, { kind: 'bookmark-add' }>,
): Extract<OutboxOp, { kind: 'bookmark-add' }> {
  const replaced =
    pending.kind === 'bookmark-add'
      ? pending
      : pending.kind === 'bookmark-remove'
        ? { groups: [], favoriteEpisodes: [] }
        : {};
  const groups = op.groups ?? replaced.groups;
  const favoriteEpisodes = op.favoriteEpisodes ?? replaced.favoriteEpisodes;
  return {
    ...op,
    ...(groups ? { groups } : {}),
    ...(favoriteEpisodes ? { favoriteEpisodes } : {}),
  };
}

/** The earlier of two ops' send times (undefined: now). */
function dueTime(a: Pick<OpBase, 'sendAfter'>, b: Pick<OpBase, 'sendAfter'>): number | undefined {
  if (a.sendAfter === undefined || b.sendAfter === undefined) return undefined;
  return Math.min(a.sendAfter, b.sendAfter);
}

/** Whether the sync engine may send the op now. */
export const isDue = (op: OutboxOp, now: number) => op.sendAfter === undefined || op.sendAfter <= now;

/** The later of two change times (undefined: nothing held). */
const later = (a: number | undefined, b: number | undefined) =>
  a === undefined ? b : b === undefined ? a : Math.max(a, b);

/** Whether a progress removal covers a row of the title ('' = any season / episode). */
const covers = (r: ProgressRemovalMark, seasonId: string, episodeId: string) =>
  (r.seasonId === '' || r.seasonId === seasonId) && (r.episodeId === '' || r.episodeId === episodeId);

/** The latest removal covering a progress row of the title, if any. */
function removedAt(removals: Removals, key: string, seasonId: string, episodeId: string): number | undefined {
  let at: number | undefined;
  for (const r of removals.progress[key] ?? []) if (covers(r, seasonId, episodeId)) at = later(at, r.at);
  return at;
}

/** Records a progress removal, keeping the latest per scope and dropping narrower ones it outdates. */
function withRemoval(
  marks: readonly ProgressRemovalMark[],
  mark: ProgressRemovalMark,
): ProgressRemovalMark[] {
  const same = marks.find((r) => r.seasonId === mark.seasonId && r.episodeId === mark.episodeId);
  if (same && same.at >= mark.at) return [...marks];
  return [...marks.filter((r) => !(covers(mark, r.seasonId, r.episodeId) && r.at <= mark.at)), mark];
}

/** The season and episode a progress write names ('' for a movie or a show without an episode). */
const rowIdsOf = (op: Extract<OutboxOpInput, { kind: 'progress-put' }>) =>
  op.type === 'show' && op.episode && op.season
    ? { seasonId: op.season.id, episodeId: op.episode.id }
    : { seasonId: '', episodeId: '' };

/** The latest change time the library holds for what `op` touches, removals included (to order a new change after it). */
export function latestTimeFor(data: LibraryData, op: OutboxOpInput): number {
  if (op.kind === 'settings' || op.kind === 'group-order') return 0;
  const key = keyOf(op);
  const removals = data.removals ?? noRemovals();
  const titled = titledOf(op.kind);
  if (titled) return later(data[titled]?.[key]?.updatedAt, removals[titled]?.[key]) ?? 0;
  if (op.kind === 'history-add') {
    const history = data.history ?? {};
    const play = playOf(op);
    const at = op.imported ? play.watchedAt : foldedWatchTime(history, play);
    const held = playKey({ ...play, watchedAt: at, episodeId: play.episode?.id });
    return later(history[held]?.updatedAt, removals.history?.[held]) ?? 0;
  }
  if (op.kind === 'history-remove')
    return Object.values(data.history ?? {})
      .filter((p) => removalCoversPlay(op, p))
      .reduce((max, p) => Math.max(max, p.updatedAt), 0);
  const entry = data.progress[key];
  if (op.kind === 'progress-put') {
    const { seasonId, episodeId } = rowIdsOf(op);
    const held = op.episode ? entry?.episodes[op.episode.id]?.updatedAt : entry?.updatedAt;
    return later(held, removedAt(removals, key, seasonId, episodeId)) ?? 0;
  }
  return entry?.updatedAt ?? 0;
}

const entryTime = (entry: ProgressEntry) =>
  Math.max(
    entry.type === 'movie' && entry.progress ? entry.updatedAt : 0,
    ...Object.values(entry.episodes).map((e) => e.updatedAt),
    0,
  );

/**
 * Applies one change with the server's rule (`changeWins`, decision 011), so re-applying pending ops
 * over the server's state gives what the server will hold once they arrive: a write applies unless
 * what is held for its key — a row or a removal covering it — was changed later; a removal removes only
 * what was changed at or before it, and is remembered. Equal times: the later arrival wins. The cases
 * it must agree on with the server: `@marquee/contract` `syncConformanceCases`.
 */
export function applyOp(data: LibraryData, op: OutboxOp | OutboxOpInput): LibraryData {
  if (op.kind === 'settings') return data;
  // Last to arrive wins on the server: a pending order is what it will hold.
  if (op.kind === 'group-order') return { ...data, groupOrder: op.order };
  if (op.kind === 'history-add' || op.kind === 'history-remove') return applyHistoryOp(data, op);
  const key = keyOf(op);
  const removals = data.removals ?? noRemovals();
  switch (op.kind) {
    case 'bookmark-add': {
      // Lists left out are kept, each on its own, as the server keeps them (decision 097).
      const held = data.bookmarks[key];
      const groups = op.groups ?? held?.groups;
      const favoriteEpisodes = op.favoriteEpisodes ?? held?.favoriteEpisodes;
      return putTitled(data, 'bookmarks', key, op.at, {
        tmdbId: op.tmdbId,
        type: op.type,
        ...op.meta,
        updatedAt: op.at,
        ...(groups ? { groups } : {}),
        ...(favoriteEpisodes ? { favoriteEpisodes } : {}),
      });
    }
    case 'rating-put':
      return putTitled(data, 'ratings', key, op.at, {
        tmdbId: op.tmdbId,
        type: op.type,
        ...op.meta,
        rating: op.rating,
        ratedAt: op.ratedAt,
        updatedAt: op.at,
      });
    case 'bookmark-remove':
    case 'rating-remove':
      return putTitled(data, titledOf(op.kind)!, key, op.at, null);
    case 'progress-put': {
      const held = data.progress[key];
      const { seasonId, episodeId } = rowIdsOf(op);
      const heldTime = episodeId
        ? held?.episodes[episodeId]?.updatedAt
        : held?.progress
          ? held.updatedAt
          : undefined;
      if (!changeWins(op.at, later(heldTime, removedAt(removals, key, seasonId, episodeId)))) return data;
      const base: ProgressEntry = held
        ? { ...held, title: op.meta.title, year: op.meta.year, poster: op.meta.poster }
        : { tmdbId: op.tmdbId, type: op.type, ...op.meta, updatedAt: 0, seasons: {}, episodes: {} };
      const value = { watched: op.watched, duration: op.duration };
      let entry: ProgressEntry;
      if (op.type === 'show' && op.episode && op.season) {
        const episode: EpisodeProgress = {
          ...op.episode,
          seasonId: op.season.id,
          updatedAt: op.at,
          progress: value,
        };
        entry = {
          ...base,
          seasons: { ...base.seasons, [op.season.id]: op.season },
          episodes: { ...base.episodes, [op.episode.id]: episode },
        };
      } else {
        entry = { ...base, progress: value, updatedAt: op.at };
      }
      entry.updatedAt = Math.max(entryTime(entry), entry.type === 'movie' ? entry.updatedAt : 0);
      return { ...data, progress: { ...data.progress, [key]: entry } };
    }
    case 'progress-remove': {
      // A movie is removed whole, whatever else the op names (as the server does).
      const seasonId = op.type === 'movie' ? '' : (op.seasonId ?? '');
      const episodeId = op.type === 'movie' ? '' : (op.episodeId ?? '');
      const marks = withRemoval(removals.progress[key] ?? [], { seasonId, episodeId, at: op.at });
      const out: LibraryData = {
        ...data,
        removals: { ...removals, progress: { ...removals.progress, [key]: marks } },
      };
      const held = data.progress[key];
      if (!held) return out;
      const covered = (ep: EpisodeProgress) =>
        changeWins(op.at, ep.updatedAt) && covers({ seasonId, episodeId, at: op.at }, ep.seasonId, ep.id);
      const episodes = Object.fromEntries(Object.entries(held.episodes).filter(([, ep]) => !covered(ep)));
      const keepsMovie =
        held.type === 'movie' && !seasonId && !episodeId
          ? !changeWins(op.at, held.updatedAt)
          : Boolean(held.progress);
      const { [key]: _gone, ...rest } = data.progress;
      if (Object.keys(episodes).length === 0 && !(held.type === 'movie' && keepsMovie))
        return { ...out, progress: rest };
      const usedSeasons = new Set(Object.values(episodes).map((e) => e.seasonId));
      const seasons = Object.fromEntries(Object.entries(held.seasons).filter(([id]) => usedSeasons.has(id)));
      const entry: ProgressEntry = { ...held, episodes, seasons };
      if (held.type === 'show') entry.updatedAt = entryTime(entry);
      return { ...out, progress: { ...data.progress, [key]: entry } };
    }
  }
}

/** A watch-history op, with the rules of history-rules.ts. */
function applyHistoryOp(
  data: LibraryData,
  op: Extract<OutboxOp | OutboxOpInput, { kind: 'history-add' | 'history-remove' }>,
): LibraryData {
  const removals = data.removals ?? noRemovals();
  const held = { history: data.history ?? {}, removed: removals.history ?? {} };
  const next =
    op.kind === 'history-add'
      ? addPlay(held, playOf(op), { fold: !op.imported })
      : removePlays(held, op, op.at);
  if (next === held) return data;
  return { ...data, history: next.history, removals: { ...removals, history: next.removed } };
}

/**
 * A bookmark or a rating written (`entry`) or removed (null) at `at`, unless what is held for the title —
 * the entry or its removal — changed later. A removal is remembered; an entry newer than its removal
 * leaves the removal nothing to decide, so it goes.
 */
function putTitled(
  data: LibraryData,
  titled: Titled,
  key: string,
  at: number,
  entry: BookmarkEntry | RatingEntry | null,
): LibraryData {
  const removals = data.removals ?? noRemovals();
  const { [key]: held, ...others } = data[titled] ?? {};
  const { [key]: removed, ...tombstones } = removals[titled] ?? {};
  if (!changeWins(at, later(held?.updatedAt, removed))) return data;
  return {
    ...data,
    [titled]: entry ? { ...data[titled], [key]: entry } : others,
    removals: { ...removals, [titled]: entry ? tombstones : { ...tombstones, [key]: at } },
  };
}

/** How long removals are remembered (the server purges its tombstones after as long). */
export const REMOVALS_KEPT_MS = 180 * 24 * 60 * 60_000;

/** The removals of both, the latest per key and scope, without those made before `since`. */
export function mergeRemovals(a: Removals | undefined, b: Removals | undefined, since: number): Removals {
  const out = noRemovals();
  for (const source of [a, b]) {
    if (!source) continue;
    for (const kind of ['bookmarks', 'history', 'ratings'] as const)
      for (const [key, at] of Object.entries(source[kind] ?? {}))
        if (at >= since) out[kind]![key] = Math.max(at, out[kind]![key] ?? at);
    for (const [key, marks] of Object.entries(source.progress))
      for (const mark of marks)
        if (mark.at >= since) out.progress[key] = withRemoval(out.progress[key] ?? [], mark);
  }
  return out;
}

/** Restore's merge: local := the server's state, then every pending change that is not older than what the server holds. */
export function mergeServerState(server: LibraryData, outbox: readonly OutboxOp[]): LibraryData {
  return outbox.reduce(applyOp, server);
}

/** The pending ops of one profile's library ('' = the account's own). */
export const opsOfProfile = (outbox: readonly OutboxOp[], profile: string) =>
  outbox.filter((op) => (op.profile ?? '') === profile);

/**
 * A change the server refused for good (a 4xx other than 401/403/408/429, or one that cannot even be
 * sent): it left the outbox so the changes behind it go on, and is kept here so the user can see and
 * export it. `seen` once the user dismissed the notice about it.
 */
export interface RejectedOp {
  op: OutboxOp;
  /** HTTP status (0: the change could not be sent at all). */
  status: number;
  /** The server's error code (`validation_failed`, `payload_too_large`, …). */
  code: string;
  message: string;
  /** When it was refused (epoch ms). */
  at: number;
  seen: boolean;
}

/** How many refused changes are kept (the oldest go first). */
export const MAX_REJECTED = 50;

/** Adds a refused change (once per op id), keeping the newest MAX_REJECTED. */
export function withRejected(list: readonly RejectedOp[], entry: RejectedOp): RejectedOp[] {
  return [...list.filter((r) => r.op.id !== entry.op.id), entry].slice(-MAX_REJECTED);
}

/** What a change was about, for the list the user sees: its kind and the title's name when it has one. */
export function describeOp(op: OutboxOp): { kind: OutboxOp['kind']; title: string | null } {
  // Writes carry the title's meta (bookmarks, progress, plays, ratings); removals and settings do not.
  return { kind: op.kind, title: ('meta' in op && op.meta?.title) || null };
}
