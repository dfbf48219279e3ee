import type { MediaSummary } from '@marquee/contract';
import type { ImportOp } from '../../../stores/library/bulk-merge.ts';
import { ratingImportOp } from '../../../stores/library/ratings-ops.ts';
import { cleanNames } from '../../../stores/library/list-ops.ts';
import { toMediaType, type MediaType } from '../../../lib/media-keys.ts';
import type { ImportEpisodeRef, ImportRecord, ImportResult, ImportTitleRef } from '../formats/index.ts';

/*
 * From the records of the files read to the changes an import makes (issue 27, decision 098): which
 * titles to match, and — once matched and reviewed — the library's changes. Pure: the page runs it.
 */

/** A title to match, as the match endpoint takes it (`key`: the same for every mention of one title). */
export interface TitleQuery {
  key: string;
  title: string;
  year?: number;
  type?: 'movie' | 'tv';
  tmdbId?: string;
  imdbId?: string;
  episodes: EpisodeQuery[];
}

export interface EpisodeQuery {
  season?: number;
  number?: number;
  title?: string;
  tmdbId?: string;
}

export interface EpisodeMatch {
  seasonId: string;
  seasonNumber: number;
  seasonTitle: string;
  id: string;
  number: number;
  title: string;
}

export type MatchStatus = 'matched' | 'unsure' | 'unmatched' | 'failed';

/** What matching found for one title; `episodes` in the order of its query's. */
export interface TitleMatch {
  status: MatchStatus;
  match: MediaSummary | null;
  candidates: MediaSummary[];
  episodes: (EpisodeMatch | null)[];
}

/** What the viewer decided on the review step. */
export interface ImportChoices {
  /** An unsure title's pick (a candidate's `type:id`), or null: not imported. Absent: the best guess. */
  picks: ReadonlyMap<string, string | null>;
  /** Netflix: the profile whose viewing is imported (absent: every profile's). */
  profile?: string | undefined;
  /** A rated title not otherwise watched in the file counts as watched on the day it was rated. */
  ratingsAsPlays: boolean;
  /** Titles on the file's own lists (a backup's bookmark groups) go on named lists of the same names. */
  namedLists: boolean;
  /** A lone list the file does not name (Letterboxd): films watched, or films to watch. */
  listKind: 'watched' | 'watchlist';
}

export const defaultChoices = (): ImportChoices => ({
  picks: new Map(),
  ratingsAsPlays: true,
  namedLists: true,
  listKind: 'watched',
});

/** Why a record is not imported, as the review step counts them. */
export type LeftOutReason =
  'unmatched' | 'declined' | 'episode_not_found' | 'rating' | 'list' | 'no_date' | 'other_profile';

export interface ImportPlan {
  ops: ImportOp[];
  /** The changes by kind; `lists`: the named lists the ops name (new to the library or not). */
  counts: { plays: number; myList: number; progress: number; lists: number; ratings: number };
  leftOut: Partial<Record<LeftOutReason, number>>;
}

/** The records of every file read, in file order. */
export const allRecords = (results: readonly ImportResult[]) => results.flatMap((r) => r.records);

/** The name the readers give a watchlist (decision 096): My List itself, not a named list. */
const WATCHLIST = 'watchlist';

/**
 * The named lists a record puts its title on, cleaned as the server takes names (a name that cleans to
 * nothing: none — the title still goes to My List). A watchlist is My List: none.
 */
export function listsOf(record: ImportRecord): string[] {
  if (record.kind === 'list-item')
    return record.listName && record.listName !== WATCHLIST ? cleanNames([record.listName]) : [];
  return record.kind === 'bookmark' ? cleanNames(record.groups ?? []) : [];
}

/** A backup's own order of its lists (p-stream's group order), the files' in turn. */
export const backupOrder = (results: readonly ImportResult[]) => results.flatMap((r) => r.groupOrder ?? []);

/** The named lists the files hold, in their order: a backup's own order first, then as the records name them. */
export function fileLists(results: readonly ImportResult[]): string[] {
  const names = new Set(cleanNames(backupOrder(results)));
  for (const result of results) for (const r of result.records) for (const n of listsOf(r)) names.add(n);
  return [...names];
}

/** The profiles a Netflix file names (more than one: the viewer picks). */
export function profilesOf(records: readonly ImportRecord[]): string[] {
  return [...new Set(records.flatMap((r) => (r.profile ? [r.profile] : [])))];
}

const fold = (text: string) => text.normalize('NFKC').trim().toLowerCase();

/** The same key for every mention of one title across the files. */
export function titleKeyOf(title: ImportTitleRef): string {
  if (title.tmdbId && title.type) return `${title.type}:${title.tmdbId}`;
  if (title.imdbId) return `imdb:${title.imdbId}`;
  return `title:${fold(title.title)}|${title.year ?? ''}|${title.type ?? ''}`;
}

const episodeKeyOf = (e: EpisodeQuery) =>
  `${e.season ?? ''}|${e.number ?? ''}|${fold(e.title ?? '')}|${e.tmdbId ?? ''}`;

/** Whether the source already names the exact TMDB episode (a p-stream backup): nothing to look up. */
const knownEpisode = (e: ImportEpisodeRef | undefined) =>
  !e ||
  (e.tmdbId !== undefined &&
    e.seasonTmdbId !== undefined &&
    e.season !== undefined &&
    e.number !== undefined);

/**
 * The titles to match, one per title the records name, each with the episodes asked about. Titles a
 * source names by TMDB id and type with every episode's ids (p-stream) need no look-up: `known`.
 */
export function titleQueries(records: readonly ImportRecord[]): {
  queries: TitleQuery[];
  known: Set<string>;
} {
  const byKey = new Map<string, TitleQuery & { episodeKeys: Set<string>; allKnown: boolean }>();
  for (const r of records) {
    const key = titleKeyOf(r.title);
    // A favourite episode is kept by its id: nothing to look up.
    const asked = r.kind === 'favorite-episode' ? undefined : r.episode;
    let q = byKey.get(key);
    if (!q) {
      q = {
        ...queryOf(key, r.title),
        episodes: [],
        episodeKeys: new Set(),
        allKnown: Boolean(r.title.tmdbId && r.title.type),
      };
      byKey.set(key, q);
    }
    q.allKnown &&= knownEpisode(asked);
    const episode = asked && episodeQueryOf(asked);
    if (episode && !q.episodeKeys.has(episodeKeyOf(episode))) {
      q.episodeKeys.add(episodeKeyOf(episode));
      q.episodes.push(episode);
    }
  }
  const queries: TitleQuery[] = [];
  const known = new Set<string>();
  for (const { episodeKeys: _keys, allKnown, ...q } of byKey.values()) {
    if (allKnown) known.add(q.key);
    else queries.push(q);
  }
  return { queries, known };
}

/*
 * What the match endpoint accepts (its contract): a value a file holds outside it is left out rather
 * than have the whole batch refused.
 */
const within = (n: number | undefined, min: number, max: number) =>
  n !== undefined && Number.isInteger(n) && n >= min && n <= max ? n : undefined;
const digits = (id: string | undefined) => (id && /^\d{1,10}$/.test(id) ? id : undefined);
const text = (value: string | undefined) => value?.trim().slice(0, 300) || undefined;

function queryOf(key: string, t: ImportTitleRef): Omit<TitleQuery, 'episodes'> {
  const year = within(t.year, 1870, 2100);
  const tmdbId = digits(t.tmdbId);
  const imdbId = t.imdbId && /^tt\d{1,10}$/.test(t.imdbId) ? t.imdbId : undefined;
  return {
    key,
    title: text(t.title) ?? imdbId ?? tmdbId ?? '?',
    ...(year !== undefined ? { year } : {}),
    ...(t.type ? { type: t.type === 'movie' ? ('movie' as const) : ('tv' as const) } : {}),
    ...(tmdbId ? { tmdbId } : {}),
    ...(imdbId ? { imdbId } : {}),
  };
}

function episodeQueryOf(e: ImportEpisodeRef): EpisodeQuery {
  const season = within(e.season, 0, 999);
  const number = within(e.number, 0, 100_000);
  const title = text(e.title);
  const tmdbId = digits(e.tmdbId);
  return {
    ...(season !== undefined ? { season } : {}),
    ...(number !== undefined ? { number } : {}),
    ...(title ? { title } : {}),
    ...(tmdbId ? { tmdbId } : {}),
  };
}

/** A title the source names completely (p-stream): its own words are the match. */
export function knownMatch(record: ImportRecord): MediaSummary {
  const t = record.title;
  return {
    id: t.tmdbId!,
    type: t.type === 'show' ? 'tv' : 'movie',
    title: t.title,
    year: t.year ?? null,
    releaseDate: null,
    poster: t.poster ?? null,
  };
}

interface Resolved {
  summary: MediaSummary;
  type: MediaType;
  episode?: EpisodeMatch | null;
}

/** The imported title (and episode) a record is about, or why it is left out. */
function resolve(
  record: ImportRecord,
  matches: ReadonlyMap<string, TitleMatch>,
  episodeIndex: ReadonlyMap<string, ReadonlyMap<string, number>>,
  choices: ImportChoices,
  known: ReadonlySet<string>,
): Resolved | LeftOutReason {
  const key = titleKeyOf(record.title);
  const found = matches.get(key);
  let summary: MediaSummary | null;
  if (!found) summary = known.has(key) ? knownMatch(record) : null;
  else if (found.status === 'unsure') {
    const pick = choices.picks.get(key);
    if (pick === null) return 'declined';
    summary = pick
      ? (found.candidates.find((c) => `${c.type}:${c.id}` === pick) ?? found.match)
      : found.match;
  } else summary = found.status === 'matched' ? found.match : null;
  if (!summary) return 'unmatched';
  const type = toMediaType(summary.type);
  if (!record.episode) return { summary, type };
  if (type !== 'show') return 'episode_not_found';
  if (!found) return { summary, type, episode: episodeFromSource(record.episode) };
  const wanted = episodeKeyOf(episodeQueryOf(record.episode));
  const index = episodeIndex.get(key)?.get(wanted) ?? -1;
  // A pick other than the matched title has no looked-up episodes.
  const sameTitle = found.match?.id === summary.id && found.match.type === summary.type;
  const episode = sameTitle && index >= 0 ? found.episodes[index] : null;
  return episode ? { summary, type, episode } : 'episode_not_found';
}

function episodeFromSource(e: ImportEpisodeRef): EpisodeMatch {
  return {
    seasonId: e.seasonTmdbId!,
    seasonNumber: e.season!,
    seasonTitle: '',
    id: e.tmdbId!,
    number: e.number!,
    title: e.title ?? '',
  };
}

const instant = (iso: string | undefined) => (iso ? Date.parse(iso) : NaN);

/** What the plan needs beyond the records: the library held, and what a backup says of its lists. */
export interface PlanContext {
  /** Whether the library already holds a play of this movie or episode (a rating then adds none). */
  watchedBefore?: (type: MediaType, tmdbId: string, episodeId?: string) => boolean;
  /** A backup's own order of its lists (`backupOrder`): first in the lists' order, even an empty one. */
  groupOrder?: readonly string[];
  /** Now (epoch ms): when an undated rating was given. */
  now?: number;
}

/** The library's changes for the reviewed records, and what is left out and why. */
export function planImport(
  records: readonly ImportRecord[],
  matches: ReadonlyMap<string, TitleMatch>,
  queries: readonly TitleQuery[],
  choices: ImportChoices,
  known: ReadonlySet<string>,
  { watchedBefore = () => false, groupOrder = [], now = Date.now() }: PlanContext = {},
): ImportPlan {
  // Each title's episodes by key, to find a record's answer without a scan.
  const episodeIndex = new Map(
    queries.map((q) => [q.key, new Map(q.episodes.map((e, i) => [episodeKeyOf(e), i]))]),
  );
  const ops: ImportOp[] = [];
  const leftOut: ImportPlan['leftOut'] = {};
  const leave = (reason: LeftOutReason, n = 1) => (leftOut[reason] = (leftOut[reason] ?? 0) + n);
  const chosen = records.filter((r) => {
    if (choices.profile !== undefined && r.profile !== undefined && r.profile !== choices.profile) {
      leave('other_profile');
      return false;
    }
    return true;
  });
  const watchedTitles = new Set(
    chosen.filter((r) => r.kind === 'play').map((r) => titleKeyOf(r.title) + episodeKeyOf(r.episode ?? {})),
  );
  for (const record of chosen) {
    // A movie's or a show's rating is kept as a rating (decision 103), besides what else it makes.
    const ratedTitle =
      record.rating === undefined ? null : resolve(record, matches, episodeIndex, choices, known);
    const rated = ratedTitle === null ? null : titleRating(record, ratedTitle, now);
    if (rated) ops.push(rated);
    const kind = kindOf(record, choices, watchedTitles);
    if (typeof kind !== 'object') {
      // A rating not kept: why (its title not found, declined…), or that it is an episode's.
      if (!(rated && kind === 'rating'))
        leave(kind === 'rating' && typeof ratedTitle === 'string' ? ratedTitle : kind);
      continue;
    }
    // A favourite is kept by its episode's id: only the show is resolved.
    const about = kind.as === 'favorite' ? titleOnly(record) : record;
    const resolved = resolve(about, matches, episodeIndex, choices, known);
    if (typeof resolved === 'string') {
      leave(resolved);
      continue;
    }
    // Rated and already watched, or a show's own rating (a play is an episode's): no play.
    if (
      record.kind === 'rating' &&
      ((resolved.type === 'show' && !resolved.episode) ||
        watchedBefore(resolved.type, resolved.summary.id, resolved.episode?.id ?? undefined))
    ) {
      if (!rated) leave('rating');
      continue;
    }
    const op = opFor(kind.as, record, resolved, choices);
    if (typeof op === 'string') {
      leave(op);
      continue;
    }
    ops.push(op);
    // The viewer chose no named lists: a backup's bookmark is on My List, its places on lists left out.
    if (record.kind === 'bookmark' && !choices.namedLists && listsOf(record).length)
      leave('list', listsOf(record).length);
  }
  const order = choices.namedLists ? listOrder(ops, groupOrder) : [];
  if (order.length) ops.push({ kind: 'group-order', order, at: 0 });
  return { ops, counts: countsOf(ops, order.length), leftOut };
}

const titleOnly = ({ episode: _episode, ...record }: ImportRecord): ImportRecord => record;

/**
 * The rating a record gives a movie or a show (a rating, or a diary entry with one), dated when it was
 * rated; undated, it only fills a gap (its change time 0). Ratings of episodes and seasons: none.
 */
function titleRating(record: ImportRecord, r: Resolved | LeftOutReason, now: number): ImportOp | null {
  if (record.rating === undefined || typeof r === 'string' || record.episode || r.episode) return null;
  if (record.kind !== 'rating' && record.kind !== 'play') return null;
  const dated = instant(record.kind === 'rating' ? record.updatedAt : (record.watchedAt ?? record.updatedAt));
  return ratingImportOp(
    {
      type: r.type,
      tmdbId: r.summary.id,
      title: r.summary.title,
      year: r.summary.year,
      poster: r.summary.poster,
      rating: Math.round(record.rating),
      ratedAt: Number.isFinite(dated) ? dated : now,
      updatedAt: Number.isFinite(dated) ? dated : 0,
    },
    now,
  );
}

/** The named lists the planned bookmarks are on, in the files' order: a backup's own order first. */
function listOrder(ops: readonly ImportOp[], groupOrder: readonly string[]): string[] {
  const used = ops.flatMap((op) => (op.kind === 'bookmark-add' ? (op.groups ?? []) : []));
  return cleanNames([...groupOrder, ...used]);
}

function countsOf(ops: readonly ImportOp[], lists: number): ImportPlan['counts'] {
  const counts = { plays: 0, myList: 0, progress: 0, lists, ratings: 0 };
  for (const op of ops) {
    if (op.kind === 'history-add') counts.plays++;
    else if (op.kind === 'bookmark-add') counts.myList++;
    else if (op.kind === 'progress-put') counts.progress++;
    else if (op.kind === 'rating-put') counts.ratings++;
  }
  return counts;
}

type Target = 'play' | 'bookmark' | 'progress' | 'favorite';

/** What a record becomes, by its kind and the viewer's choices. */
function kindOf(
  record: ImportRecord,
  choices: ImportChoices,
  watched: ReadonlySet<string>,
): { as: Target } | LeftOutReason {
  switch (record.kind) {
    case 'play':
      return record.unsure === 'list_kind' && choices.listKind === 'watchlist'
        ? { as: 'bookmark' }
        : { as: 'play' };
    case 'watchlist':
    case 'bookmark':
      return { as: 'bookmark' };
    case 'list-item':
      // A watchlist is My List, whatever the option about lists.
      return choices.namedLists || record.listName === WATCHLIST ? { as: 'bookmark' } : 'list';
    case 'rating':
      if (!choices.ratingsAsPlays) return 'rating';
      // Rated, and not watched in this file: watched on the day it was rated.
      return watched.has(titleKeyOf(record.title) + episodeKeyOf(record.episode ?? {}))
        ? 'rating'
        : { as: 'play' };
    case 'progress':
      return { as: 'progress' };
    case 'favorite-episode':
      return { as: 'favorite' };
  }
}

/**
 * A bookmark at the record's date, on its named lists when the viewer chose them; or a show's bookmark
 * holding a favourite episode. Undated (time 0): older than any change, so it never replaces what the
 * viewer did nor undoes a removal. The merge adds the lists and favourites to a bookmark held.
 */
function bookmarkOp(
  as: 'bookmark' | 'favorite',
  record: ImportRecord,
  r: Resolved,
  choices: ImportChoices,
): ImportOp | LeftOutReason {
  const base = {
    kind: 'bookmark-add' as const,
    type: r.type,
    tmdbId: r.summary.id,
    meta: { title: r.summary.title, year: r.summary.year, poster: r.summary.poster },
  };
  if (as === 'favorite') {
    const id = record.episode?.tmdbId;
    // The episode id is the source's show's: another title picked has other episodes.
    const sameShow = r.type === 'show' && (!record.title.tmdbId || record.title.tmdbId === r.summary.id);
    return id && sameShow ? { ...base, favoriteEpisodes: [id], at: 0 } : 'episode_not_found';
  }
  const at = instant(record.updatedAt ?? record.watchedAt);
  const groups = choices.namedLists ? listsOf(record) : [];
  return { ...base, ...(groups.length ? { groups } : {}), at: Number.isFinite(at) ? at : 0 };
}

function opFor(
  as: Target,
  record: ImportRecord,
  r: Resolved,
  choices: ImportChoices,
): ImportOp | LeftOutReason {
  if (as === 'bookmark' || as === 'favorite') return bookmarkOp(as, record, r, choices);
  const meta = { title: r.summary.title, year: r.summary.year, poster: r.summary.poster };
  const base = { type: r.type, tmdbId: r.summary.id, meta };
  const episode = r.episode
    ? {
        season: { id: r.episode.seasonId, number: r.episode.seasonNumber, title: r.episode.seasonTitle },
        episode: { id: r.episode.id, number: r.episode.number, title: r.episode.title },
      }
    : {};
  if (as === 'progress') {
    const at = instant(record.progress?.updatedAt ?? record.updatedAt);
    if (!record.progress || !Number.isFinite(at)) return 'no_date';
    return {
      kind: 'progress-put',
      ...base,
      ...episode,
      watched: record.progress.watched,
      duration: record.progress.duration,
      at,
    };
  }
  const watchedAt = instant(record.watchedAt ?? record.updatedAt);
  if (!Number.isFinite(watchedAt)) return 'no_date';
  if (r.type === 'show' && !r.episode) return 'episode_not_found';
  return {
    kind: 'history-add',
    ...base,
    ...episode,
    watchedAt,
    watched: record.progress?.watched ?? 0,
    duration: record.progress?.duration ?? 0,
    completed: record.completed ?? true,
    imported: true,
    // A play's change time is when it was watched: the same file again changes nothing.
    at: watchedAt,
  };
}
