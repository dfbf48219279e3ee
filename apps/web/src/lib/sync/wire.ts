import { PROFILE_HEADER, mediaTypeOf } from '@marquee/contract/values';
import type {
  Bookmark,
  historyEndpoints,
  ProgressListItem,
  Rating,
  ratingsEndpoints,
  syncEndpoints,
  WatchHistoryItem,
} from '@marquee/contract';
import { libraryKey, type EpisodeProgress, type ProgressEntry } from '../../stores/library/library-rules.ts';
import { type MediaType } from '../media-keys.ts';
import type { ApiInput } from '../api/index.ts';
import type { LibraryData, OutboxOp, TitleMeta } from '../../stores/library/outbox.ts';
import { playKey, type PlayEntry } from '../../stores/library/history-rules.ts';
import { validRating, type RatingEntry } from '../../stores/library/ratings-rules.ts';

/** Conversions between the library's local shapes and the sync API's wire shapes (the app family's sync API). */

/** The sync endpoints an outbox op is delivered by. */
export type WriteEndpoint =
  'addBookmark' | 'deleteBookmark' | 'putProgress' | 'deleteProgress' | 'putSettings' | 'putGroupOrder';
/** The watch-history endpoints an outbox op is delivered by. */
export type HistoryWriteEndpoint = 'putWatchHistory' | 'importWatchHistory' | 'deleteWatchHistory';
/** The ratings endpoints an outbox op is delivered by (decision 103). */
export type RatingsWriteEndpoint = 'putRating' | 'deleteRating';

/** X-Profile-Id when the op belongs to a household profile's library. */
type ProfileHeaders = { headers?: Record<string, string> };
/** One call of a sync, history or ratings endpoint (named as in the contract), its input typed by the contract. */
export type WireRequest =
  | {
      [K in WriteEndpoint]: { endpoint: K } & ApiInput<(typeof syncEndpoints)[K]> & ProfileHeaders;
    }[WriteEndpoint]
  | {
      [K in HistoryWriteEndpoint]: { endpoint: K } & ApiInput<(typeof historyEndpoints)[K]> & ProfileHeaders;
    }[HistoryWriteEndpoint]
  | {
      [K in RatingsWriteEndpoint]: { endpoint: K } & ApiInput<(typeof ratingsEndpoints)[K]> & ProfileHeaders;
    }[RatingsWriteEndpoint];

/** The header that selects a household profile's library on the sync routes ('' = the account's own: none). */
export const profileHeaders = (profile: string | undefined): Record<string, string> | undefined =>
  profile ? { [PROFILE_HEADER]: profile } : undefined;

const iso = (ms: number) => new Date(ms).toISOString();
const wireMeta = (type: MediaType, meta: TitleMeta) => ({
  title: meta.title,
  year: meta.year,
  ...(meta.poster ? { poster: meta.poster } : {}),
  type,
});

/** A rating as `PUT …/ratings/:tmdbId` and `…/ratings/import` take it (decision 103). */
const wireRating = (type: MediaType, meta: TitleMeta, rating: number, ratedAt: number, at: number) => ({
  type,
  meta: wireMeta(type, meta),
  rating,
  ratedAt: iso(ratedAt),
  updatedAt: iso(at),
});

/** A bookmark's named lists and favourite episodes in wire names, each only when known (left out: kept). */
const wireLists = (b: { groups?: string[]; favoriteEpisodes?: string[] }) => ({
  ...(b.groups ? { group: b.groups } : {}),
  ...(b.favoriteEpisodes ? { favoriteEpisodes: b.favoriteEpisodes } : {}),
});

/** The request that delivers one outbox op. Every one carries its change time, so sending twice is harmless. */
export function requestFor(op: OutboxOp, uid: string): WireRequest {
  const request = requestBodyFor(op, uid);
  const headers = profileHeaders(op.profile);
  return headers ? { ...request, headers } : request;
}

function requestBodyFor(op: OutboxOp, uid: string): WireRequest {
  switch (op.kind) {
    case 'bookmark-add':
      // `group` / `favoriteEpisodes` only when this device set them: left out, the server keeps the stored ones.
      return {
        endpoint: 'addBookmark',
        params: { uid, tmdbId: op.tmdbId },
        body: {
          tmdbId: op.tmdbId,
          meta: wireMeta(op.type, op.meta),
          ...wireLists(op),
          updatedAt: iso(op.at),
        },
      };
    case 'group-order':
      return { endpoint: 'putGroupOrder', params: { uid }, body: op.order };
    case 'bookmark-remove':
      return {
        endpoint: 'deleteBookmark',
        params: { uid, tmdbId: op.tmdbId },
        query: { type: op.type, updatedAt: iso(op.at) },
      };
    case 'progress-put':
      return {
        endpoint: 'putProgress',
        params: { uid, tmdbId: op.tmdbId },
        body: {
          tmdbId: op.tmdbId,
          meta: wireMeta(op.type, op.meta),
          watched: Math.round(op.watched),
          duration: Math.round(op.duration),
          ...(op.season && op.episode
            ? {
                seasonId: op.season.id,
                episodeId: op.episode.id,
                seasonNumber: op.season.number,
                episodeNumber: op.episode.number,
              }
            : {}),
          updatedAt: iso(op.at),
        },
      };
    case 'progress-remove':
      return {
        endpoint: 'deleteProgress',
        params: { uid, tmdbId: op.tmdbId },
        body: {
          type: op.type,
          ...(op.seasonId ? { seasonId: op.seasonId } : {}),
          ...(op.episodeId ? { episodeId: op.episodeId } : {}),
          updatedAt: iso(op.at),
        },
      };
    case 'history-add': {
      const play = {
        tmdbId: op.tmdbId,
        meta: wireMeta(op.type, op.meta),
        watched: op.watched,
        duration: op.duration,
        watchedAt: iso(op.watchedAt),
        completed: op.completed,
        ...(op.type === 'show' && op.season && op.episode
          ? {
              seasonId: op.season.id,
              episodeId: op.episode.id,
              seasonNumber: op.season.number,
              episodeNumber: op.episode.number,
            }
          : {}),
        updatedAt: iso(op.at),
      };
      // An import keeps its own time (never folded into a play held): the import route.
      return op.imported
        ? { endpoint: 'importWatchHistory', params: { uid }, body: [play] }
        : { endpoint: 'putWatchHistory', params: { uid, tmdbId: op.tmdbId }, body: play };
    }
    case 'history-remove':
      return {
        endpoint: 'deleteWatchHistory',
        params: { uid, tmdbId: op.tmdbId },
        body: {
          type: op.type,
          ...(op.seasonId ? { seasonId: op.seasonId } : {}),
          ...(op.episodeId ? { episodeId: op.episodeId } : {}),
          ...(op.watchedAt !== undefined ? { watchedAt: iso(op.watchedAt) } : {}),
          updatedAt: iso(op.at),
        },
      };
    case 'rating-put':
      return {
        endpoint: 'putRating',
        params: { uid, tmdbId: op.tmdbId },
        body: wireRating(op.type, op.meta, op.rating, op.ratedAt, op.at),
      };
    case 'rating-remove':
      // `type`: only this kind's rating (a movie and a show may share a TMDB number).
      return {
        endpoint: 'deleteRating',
        params: { uid, tmdbId: op.tmdbId },
        body: { type: op.type, updatedAt: iso(op.at) },
      };
    case 'settings': {
      const styling = op.settings.subtitleStyling;
      // The synced caption size is 1–200 % (decision 050); this device may keep a larger one (up to 10×).
      const settings = styling
        ? { ...op.settings, subtitleStyling: { ...styling, size: Math.min(2, Math.max(0.01, styling.size)) } }
        : op.settings;
      return {
        endpoint: 'putSettings',
        params: { uid },
        body: { ...settings, updatedAt: iso(op.at) },
      };
    }
  }
}

const time = (text: string) => {
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : 0;
};
const yearOf = (y: unknown) => (typeof y === 'number' && Number.isFinite(y) ? y : null);

/** The server's lists as local library data (progress rows grouped per title; a show's time is its latest episode's). */
export function libraryFromServer(bookmarks: Bookmark[], progress: ProgressListItem[]): LibraryData {
  const data: LibraryData = { bookmarks: {}, progress: {} };
  for (const b of bookmarks) {
    const type = mediaTypeOf(b.meta.type);
    data.bookmarks[libraryKey(type, b.tmdbId)] = {
      tmdbId: b.tmdbId,
      type,
      title: b.meta.title,
      year: yearOf(b.meta.year),
      poster: b.meta.poster ?? null,
      updatedAt: time(b.updatedAt),
      // A server of the older family sends neither: none known.
      ...(Array.isArray(b.group) ? { groups: b.group } : {}),
      ...(Array.isArray(b.favoriteEpisodes) ? { favoriteEpisodes: b.favoriteEpisodes } : {}),
    };
  }
  for (const row of progress) {
    const type = mediaTypeOf(row.meta.type, Boolean(row.episode.id));
    const key = libraryKey(type, row.tmdbId);
    const at = time(row.updatedAt);
    const entry: ProgressEntry = data.progress[key] ?? {
      tmdbId: row.tmdbId,
      type,
      title: row.meta.title,
      year: yearOf(row.meta.year),
      poster: row.meta.poster ?? null,
      updatedAt: 0,
      seasons: {},
      episodes: {},
    };
    const value = { watched: Number(row.watched) || 0, duration: Number(row.duration) || 0 };
    if (type === 'show' && row.episode.id && row.season.id) {
      entry.seasons[row.season.id] ??= { id: row.season.id, number: row.season.number ?? 0, title: '' };
      const episode: EpisodeProgress = {
        id: row.episode.id,
        number: row.episode.number ?? 0,
        title: '',
        seasonId: row.season.id,
        updatedAt: at,
        progress: value,
      };
      entry.episodes[row.episode.id] = episode;
    } else if (type === 'movie') {
      entry.progress = value;
    } else {
      continue;
    }
    entry.updatedAt = Math.max(entry.updatedAt, at);
    data.progress[key] = entry;
  }
  return data;
}

/**
 * Local data for `PUT /users/:uid/bookmarks`, `…/progress/import`, `…/watch-history/import` and
 * `…/ratings/import`, with change times (so sending the same again changes nothing).
 */
export function importPayload(data: LibraryData) {
  const bookmarks = Object.values(data.bookmarks).map((b) => ({
    tmdbId: b.tmdbId,
    meta: wireMeta(b.type, b),
    ...wireLists(b),
    updatedAt: iso(b.updatedAt),
  }));
  const progress = Object.values(data.progress).flatMap((entry) => {
    const meta = wireMeta(entry.type, entry);
    if (entry.type === 'movie') {
      return entry.progress
        ? [{ tmdbId: entry.tmdbId, meta, ...entry.progress, updatedAt: iso(entry.updatedAt) }]
        : [];
    }
    return Object.values(entry.episodes).map((ep) => ({
      tmdbId: entry.tmdbId,
      meta,
      watched: Math.round(ep.progress.watched),
      duration: Math.round(ep.progress.duration),
      seasonId: ep.seasonId,
      episodeId: ep.id,
      seasonNumber: entry.seasons[ep.seasonId]?.number ?? null,
      episodeNumber: ep.number,
      updatedAt: iso(ep.updatedAt),
    }));
  });
  const history = Object.values(data.history ?? {}).map((play) => ({
    tmdbId: play.tmdbId,
    meta: wireMeta(play.type, play),
    watched: play.watched,
    duration: play.duration,
    watchedAt: iso(play.watchedAt),
    completed: play.completed,
    ...(play.type === 'show' && play.season && play.episode
      ? {
          seasonId: play.season.id,
          episodeId: play.episode.id,
          seasonNumber: play.season.number,
          episodeNumber: play.episode.number,
        }
      : {}),
    updatedAt: iso(play.updatedAt),
  }));
  // A rating saved unusable (checked, not trusted) would only be refused.
  const ratings = Object.values(data.ratings ?? {})
    .filter((r) => validRating(r.rating) === r.rating && Number.isFinite(r.ratedAt))
    .map((r) => ({
      tmdbId: r.tmdbId,
      ...wireRating(r.type, r, r.rating, r.ratedAt, r.updatedAt),
    }));
  return { bookmarks, progress, history, ratings };
}

/** A play as the server lists it, as local history (keyed by play). */
export function playFromServer(item: WatchHistoryItem): { key: string; play: PlayEntry } {
  const type = mediaTypeOf(item.meta.type, Boolean(item.episode.id));
  const isEpisode = type === 'show' && item.episode.id && item.season.id;
  const play: PlayEntry = {
    tmdbId: item.tmdbId,
    type,
    title: item.meta.title,
    year: yearOf(item.meta.year),
    poster: item.meta.poster ?? null,
    ...(isEpisode
      ? {
          season: { id: item.season.id!, number: item.season.number ?? 0, title: '' },
          episode: { id: item.episode.id!, number: item.episode.number ?? 0, title: '' },
        }
      : {}),
    watchedAt: time(item.watchedAt),
    watched: Number(item.watched) || 0,
    duration: Number(item.duration) || 0,
    completed: item.completed,
    updatedAt: time(item.updatedAt),
  };
  return { key: playKey({ ...play, episodeId: play.episode?.id }), play };
}

/** A rating as the server lists it, as the device keeps it (keyed by title, as bookmarks). */
export function ratingFromServer(item: Rating): { key: string; rating: RatingEntry } {
  const type = item.type;
  const rating: RatingEntry = {
    tmdbId: item.tmdbId,
    type,
    title: item.meta.title,
    year: yearOf(item.meta.year),
    poster: item.meta.poster ?? null,
    rating: item.rating,
    ratedAt: time(item.ratedAt),
    updatedAt: time(item.updatedAt),
  };
  return { key: libraryKey(type, item.tmdbId), rating };
}
