import {
  type Bookmark,
  type BookmarkRemoval,
  type ProgressListItem,
  type ProgressRemoval,
  type Rating,
  type RatingRemoval,
  type WatchHistoryItem,
  type WatchHistoryRemoval,
} from '@marquee/contract';
import type { EpisodeProgress, ProgressEntry } from '../../stores/library/library-rules.ts';
import { applyOp, type LibraryData } from '../../stores/library/outbox.ts';
import { api, ApiError, type RawAnswer } from '../api/index.ts';
import { appStorage, STORAGE_PREFIX } from '../storage.ts';
import { libraryFromServer, playFromServer, ratingFromServer } from './wire.ts';

/*
 * Reading the account's library (decision 072): page by page, and after the first complete read only
 * what changed since (removals included), with If-None-Match so an unchanged library costs a 304.
 * A server without pages (the older family) answers the whole list to the same request.
 */

export type LibraryKind = 'bookmarks' | 'progress' | 'history' | 'ratings';

/** Rows per page asked for (the server's limit is 2,000). */
export const LIBRARY_PAGE_ROWS = 1000;
/** Everything is read again after this long, whatever the device holds (a safety net). */
export const FULL_READ_EVERY_MS = 7 * 24 * 60 * 60_000;
const MAX_PAGES = 1000;

/** What this device keeps of its last complete read of one library kind. */
export interface ReadMark {
  /** The library's change number then: the next read asks for what changed after it. */
  version: string;
  /** The ETag of that answer (sent as If-None-Match to this instance). */
  etag: string | null;
  /** When everything was last read (epoch ms). */
  fullAt: number;
}

interface Rows {
  bookmarks: { item: Bookmark; removal: BookmarkRemoval };
  progress: { item: ProgressListItem; removal: ProgressRemoval };
  history: { item: WatchHistoryItem; removal: WatchHistoryRemoval };
  ratings: { item: Rating; removal: RatingRemoval };
}
export interface ReadPage<K extends LibraryKind> {
  items: Rows[K]['item'][];
  removed: Rows[K]['removal'][];
}

/** The answer of one read: nothing changed, or pages to apply (`full`: they are the whole library). */
export type LibraryRead<K extends LibraryKind> =
  { kind: 'unchanged' } | { kind: 'pages'; full: boolean; pages: ReadPage<K>[]; mark: ReadMark | null };

export interface ReadTransport {
  /** The account server ('' = this instance). */
  baseUrl: string;
  token: string | null;
  /** X-Profile-Id for a household profile's library. */
  headers?: Record<string, string> | undefined;
  now: () => number;
}

/** One page, or the whole list (the older family), as the sync endpoints answer. */
type Answer =
  | Awaited<ReturnType<typeof api.sync.bookmarks>>
  | Awaited<ReturnType<typeof api.sync.progress>>
  | Awaited<ReturnType<typeof api.history.watchHistory>>
  | Awaited<ReturnType<typeof api.ratings.ratings>>;
type Page = Extract<Answer, { items: unknown }>;
const isPage = (answer: Answer): answer is Page => !Array.isArray(answer) && 'items' in answer;

/** A conditional read (ETag/304): the raw mode of the client, so a 304 and the ETag come back. */
async function get(
  t: ReadTransport,
  kind: LibraryKind,
  uid: string,
  query: { limit: number; updatedSince?: string; cursor?: string },
  extra: Record<string, string> = {},
): Promise<RawAnswer<Answer>> {
  const input = {
    params: { uid },
    query,
    baseUrl: t.baseUrl,
    token: t.token,
    headers: { ...t.headers, ...extra },
  };
  if (kind === 'history') return api.history.watchHistory.raw(input);
  if (kind === 'ratings') return api.ratings.ratings.raw(input);
  return kind === 'bookmarks' ? api.sync.bookmarks.raw(input) : api.sync.progress.raw(input);
}

/**
 * Reads one kind of the library: everything (no mark), or what changed since the mark. Only this
 * instance gets If-None-Match (another origin's server would have to allow the header).
 */
export async function readLibrary<K extends LibraryKind>(
  kind: K,
  uid: string,
  mark: ReadMark | null,
  t: ReadTransport,
): Promise<LibraryRead<K>> {
  const first = await get(
    t,
    kind,
    uid,
    { limit: LIBRARY_PAGE_ROWS, ...(mark ? { updatedSince: mark.version } : {}) },
    mark?.etag && t.baseUrl === '' ? { 'if-none-match': mark.etag } : {},
  );
  if (first.notModified) return { kind: 'unchanged' };
  // A server of the older family: the whole list, and nothing to resume from.
  if (Array.isArray(first.data))
    return {
      kind: 'pages',
      full: true,
      pages: [{ items: first.data as Rows[K]['item'][], removed: [] }],
      mark: null,
    };
  // p-stream's list of ratings (`{userId, ratings}`: no titles, no times, decision 103) cannot stand in
  // for this device's: what it holds stays, as with a server that keeps none.
  if (!isPage(first.data)) return { kind: 'unchanged' };
  let body: Page = first.data;
  let headers = first.headers;
  let full = mark === null;
  let pages: ReadPage<K>[] = [];
  for (let n = 0; ; n++) {
    if (body.reset) {
      full = true;
      pages = [];
    }
    pages.push({ items: body.items, removed: body.removed } as ReadPage<K>);
    if (!body.next) break;
    if (n >= MAX_PAGES) throw new ApiError(0, 'unknown', 'The library has too many pages');
    const next = await get(t, kind, uid, { limit: LIBRARY_PAGE_ROWS, cursor: body.next });
    // A 304 answers only If-None-Match, which later pages do not send.
    if (next.notModified || !isPage(next.data)) throw new ApiError(next.status, 'unknown', 'Not a page');
    body = next.data;
    headers = next.headers;
  }
  return {
    kind: 'pages',
    full,
    pages,
    mark: {
      version: body.version,
      etag: headers.get('etag'),
      fullAt: full ? t.now() : (mark?.fullAt ?? t.now()),
    },
  };
}

const time = (text: string) => {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
};

/** The server's row replaces what the device holds for its movie or episode. */
function putProgressRow(data: LibraryData, row: ProgressListItem): LibraryData {
  const incoming = libraryFromServer([], [row]).progress;
  const [key, fresh] = Object.entries(incoming)[0] ?? [];
  if (!key || !fresh) return data;
  const held = data.progress[key];
  if (!held) return { ...data, progress: { ...data.progress, [key]: fresh } };
  const entry: ProgressEntry = { ...held, title: fresh.title, year: fresh.year, poster: fresh.poster };
  if (fresh.type === 'movie') {
    entry.progress = fresh.progress;
    entry.updatedAt = fresh.updatedAt;
  } else {
    const episode = Object.values(fresh.episodes)[0]!;
    const heldEpisode = held.episodes[episode.id];
    const season = fresh.seasons[episode.seasonId]!;
    const heldSeason = held.seasons[episode.seasonId];
    entry.episodes = {
      ...held.episodes,
      [episode.id]: { ...episode, title: heldEpisode?.title ?? episode.title },
    };
    entry.seasons = { ...held.seasons, [season.id]: { ...season, title: heldSeason?.title ?? season.title } };
    entry.updatedAt = Math.max(0, ...Object.values(entry.episodes).map((e: EpisodeProgress) => e.updatedAt));
  }
  return { ...data, progress: { ...data.progress, [key]: entry } };
}

/** Removals of plays (each remembered, as the server does), then each play as the server holds it. */
function applyHistoryPage(data: LibraryData, page: ReadPage<'history'>): LibraryData {
  let out = data;
  for (const r of page.removed)
    out = applyOp(out, {
      kind: 'history-remove',
      type: r.type,
      tmdbId: r.tmdbId,
      ...(r.seasonId ? { seasonId: r.seasonId } : {}),
      ...(r.episodeId ? { episodeId: r.episodeId } : {}),
      watchedAt: time(r.watchedAt),
      at: time(r.removedAt),
    });
  if (page.items.length === 0) return out;
  const history = { ...out.history };
  const removals = out.removals ? { ...out.removals, history: { ...out.removals.history } } : undefined;
  for (const item of page.items) {
    const { key, play } = playFromServer(item);
    history[key] = play;
    if (removals?.history) delete removals.history[key];
  }
  return { ...out, history, ...(removals ? { removals } : {}) };
}

/** Removals of ratings (remembered, as the server does), then each rating as the server holds it. */
function applyRatingsPage(data: LibraryData, page: ReadPage<'ratings'>): LibraryData {
  let out = data;
  for (const r of page.removed)
    out = applyOp(out, { kind: 'rating-remove', type: r.type, tmdbId: r.tmdbId, at: time(r.removedAt) });
  if (page.items.length === 0) return out;
  const ratings = { ...out.ratings };
  const removals = out.removals ? { ...out.removals, ratings: { ...out.removals.ratings } } : undefined;
  for (const item of page.items) {
    const { key, rating } = ratingFromServer(item);
    ratings[key] = rating;
    if (removals?.ratings) delete removals.ratings[key];
  }
  return { ...out, ratings, ...(removals ? { removals } : {}) };
}

/**
 * Applies a read to one kind of the library data: a full read replaces it, changes go over it. Page
 * by page, removals first (with the server's rule: only what was changed at or before them), then
 * each row in place of what is held for its key — the server's row is the truth for that key.
 */
export function applyLibraryRead<K extends LibraryKind>(
  data: LibraryData,
  kind: K,
  read: LibraryRead<K>,
): LibraryData {
  if (read.kind === 'unchanged') return data;
  let out: LibraryData = read.full ? { ...data, [kind]: {} } : data;
  for (const page of read.pages) {
    if (kind === 'history') {
      out = applyHistoryPage(out, page as ReadPage<'history'>);
    } else if (kind === 'ratings') {
      out = applyRatingsPage(out, page as ReadPage<'ratings'>);
    } else if (kind === 'bookmarks') {
      // Through the store's op, so the removal is remembered (a late, older add stays out) as the server does.
      for (const r of page.removed as BookmarkRemoval[])
        out = applyOp(out, {
          kind: 'bookmark-remove',
          type: r.type,
          tmdbId: r.tmdbId,
          at: time(r.removedAt),
        });
      out = {
        ...out,
        bookmarks: { ...out.bookmarks, ...libraryFromServer(page.items as Bookmark[], []).bookmarks },
      };
    } else {
      for (const r of page.removed as ProgressRemoval[]) {
        out = applyOp(out, {
          kind: 'progress-remove',
          type: r.type,
          tmdbId: r.tmdbId,
          ...(r.seasonId ? { seasonId: r.seasonId } : {}),
          ...(r.episodeId ? { episodeId: r.episodeId } : {}),
          at: time(r.removedAt),
        });
      }
      for (const row of page.items as ProgressListItem[]) out = putProgressRow(out, row);
    }
  }
  return out;
}

// ---- marks, kept per account server, session and household profile ----

const MARKS_KEY = `${STORAGE_PREFIX}library-reads`;

interface StoredMarks {
  server: string;
  session: string;
  marks: Record<string, Partial<Record<LibraryKind, ReadMark>>>;
}

function storedMarks(server: string, session: string): StoredMarks {
  try {
    const raw = JSON.parse(appStorage().getItem(MARKS_KEY) ?? 'null') as StoredMarks | null;
    // Another session (a new sign-in) or server: its library on this device started over.
    if (raw && raw.server === server && raw.session === session && typeof raw.marks === 'object') return raw;
  } catch {
    // unreadable: read everything again
  }
  return { server, session, marks: {} };
}

/**
 * The mark to read from, or null to read everything: none yet, the last full read too old, or this
 * kind of the device's library empty (it was cleared or reset since: changes alone would not fill it).
 */
export function usableMark(
  server: string,
  session: string,
  profile: string,
  kind: LibraryKind,
  local: LibraryData,
  now: number,
): ReadMark | null {
  const mark = storedMarks(server, session).marks[profile]?.[kind];
  if (!mark || typeof mark.version !== 'string' || now - mark.fullAt > FULL_READ_EVERY_MS) return null;
  return Object.keys(local[kind] ?? {}).length === 0 ? null : mark;
}

/** Remembers (or, with null, forgets) where the next read of a kind starts. Call after the library was saved. */
export function saveMark(
  server: string,
  session: string,
  profile: string,
  kind: LibraryKind,
  mark: ReadMark | null,
): void {
  const stored = storedMarks(server, session);
  const marks = { ...stored.marks[profile] };
  if (mark) marks[kind] = mark;
  else delete marks[kind];
  stored.marks[profile] = marks;
  try {
    appStorage().setItem(MARKS_KEY, JSON.stringify(stored));
  } catch {
    // Not kept: the next read reads everything.
  }
}

/** Logout: the next sign-in reads everything. */
export function forgetMarks(): void {
  appStorage().removeItem(MARKS_KEY);
}
