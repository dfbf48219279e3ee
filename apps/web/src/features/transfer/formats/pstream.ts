import { mediaTypeOf } from '@marquee/contract/values';
import type { ImportEpisodeRef, ImportRecord, ImportTitleRef } from './model.ts';
import { RecordSink, compact, parseYear } from './records.ts';

/*
 * p-stream's (and movie-web's) account backup, as its migration page downloads it
 * (src/pages/migration/MigrationDownload.tsx): its local stores, keyed by TMDB id —
 *   bookmarks:    { [tmdbId]: { title, year?, poster?, type, updatedAt (ms), group?, favoriteEpisodes? } }
 *   progress:     { [tmdbId]: { title, year?, poster?, type, updatedAt, progress?, seasons: { [id]: { id,
 *                   number, title } }, episodes: { [id]: { id, number, title, seasonId, updatedAt, progress } } } }
 *   watchHistory: { [tmdbId or `${tmdbId}-${episodeId}`]: { title, year?, poster?, type, progress,
 *                   watchedAt (ms), completed, episodeId?, seasonId?, seasonNumber?, episodeNumber? } }
 *   groupOrder: string[], settings: {…preferences, defaultSubtitleLanguage}, theme, language, account,
 *   exportDate.
 * The same sections as arrays of the family's API list items ({ tmdbId, meta, … }) are read too, and so is
 * `marquee` (ours): the entries p-stream's keyed shape cannot hold (earlier plays of a title, …).
 */

type Json = Record<string, unknown>;

const SECTIONS = ['bookmarks', 'progress', 'watchHistory', 'groupOrder'] as const;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function recognisePStream(json: unknown): boolean {
  return isObject(json) && SECTIONS.some((key) => key in json);
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const count = (v: unknown): number | undefined => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : undefined;
};

/** ms since 1970 (p-stream's stores) or ISO (the API's lists) → ISO. */
function instant(v: unknown): string | undefined {
  const ms = typeof v === 'number' ? v : typeof v === 'string' ? Date.parse(v) : NaN;
  return Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;
}

/** The entries of a section in either shape: `[key, item]` of the keyed store, `[item.tmdbId, item]` of a list. */
function entriesOf(section: unknown): [string, Json][] {
  if (Array.isArray(section)) {
    return section.filter(isObject).map((item) => [String(item.tmdbId ?? ''), item]);
  }
  return isObject(section)
    ? Object.entries(section).flatMap(([key, item]) =>
        isObject(item) ? [[key, item] as [string, Json]] : [],
      )
    : [];
}

/** The title of an item: its own fields (p-stream's stores) or its `meta` (the API's lists). */
function titleOf(tmdbId: string, item: Json, hasEpisode: boolean): ImportTitleRef | null {
  const meta = isObject(item.meta) ? item.meta : item;
  const title = typeof meta.title === 'string' ? meta.title : '';
  if (!/^[A-Za-z0-9._-]{1,64}$/.test(tmdbId)) return null;
  return compact({
    tmdbId,
    title,
    year: parseYear(typeof meta.year === 'number' ? meta.year : undefined),
    type: mediaTypeOf(typeof meta.type === 'string' ? meta.type : '', hasEpisode),
    poster: text(meta.poster),
  });
}

const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : [];

interface Reader {
  sink: RecordSink;
  file: string;
  row: number;
}

function add(reader: Reader, record: Omit<ImportRecord, 'source'> | null, row: number): void {
  if (record) reader.sink.add(compact({ ...record, source: { file: reader.file, row } }));
  else reader.sink.skip(reader.file, row, 'bad_item');
}

function readBookmarks(section: unknown, reader: Reader): void {
  for (const [tmdbId, item] of entriesOf(section)) {
    const row = ++reader.row;
    const title = titleOf(tmdbId, item, false);
    if (!title) {
      add(reader, null, row);
      continue;
    }
    add(
      reader,
      {
        kind: 'bookmark',
        title,
        groups: strings(item.group),
        updatedAt: instant(item.updatedAt),
      },
      row,
    );
    for (const episodeId of strings(item.favoriteEpisodes)) {
      add(reader, { kind: 'favorite-episode', title, episode: { tmdbId: episodeId } }, row);
    }
  }
}

function progressOf(item: Json): { watched: number; duration: number } | null {
  const watched = count(item.watched);
  const duration = count(item.duration);
  return watched === undefined || duration === undefined ? null : { watched, duration };
}

/** One API list row: a movie's progress, or one episode's. */
function readProgressRow(tmdbId: string, item: Json, reader: Reader, row: number): void {
  const season = isObject(item.season) ? item.season : {};
  const ep = isObject(item.episode) ? item.episode : {};
  const episode = episodeOf(season.id, season.number, ep.id, ep.number);
  const title = titleOf(tmdbId, item, !!episode);
  const progress = progressOf(item);
  if (!title || !progress) return add(reader, null, row);
  const updatedAt = instant(item.updatedAt);
  add(reader, { kind: 'progress', title, episode, progress: compact({ ...progress, updatedAt }) }, row);
}

function readProgress(section: unknown, reader: Reader): void {
  for (const [tmdbId, item] of entriesOf(section)) {
    const row = ++reader.row;
    // An API list row names its title in `meta`; p-stream's store item is the title, its episodes inside.
    if (isObject(item.meta)) {
      readProgressRow(tmdbId, item, reader, row);
      continue;
    }
    const title = titleOf(tmdbId, item, false);
    if (!title) {
      add(reader, null, row);
      continue;
    }
    if (title.type === 'movie') {
      const progress = isObject(item.progress) ? progressOf(item.progress) : null;
      if (progress)
        add(
          reader,
          { kind: 'progress', title, progress: compact({ ...progress, updatedAt: instant(item.updatedAt) }) },
          row,
        );
      continue;
    }
    const seasons = isObject(item.seasons) ? item.seasons : {};
    for (const ep of Object.values(isObject(item.episodes) ? item.episodes : {}).filter(isObject)) {
      const seasonId = text(ep.seasonId);
      const season = seasonId && isObject(seasons[seasonId]) ? seasons[seasonId] : {};
      const progress = isObject(ep.progress) ? progressOf(ep.progress) : null;
      const episode = compact({
        ...episodeOf(seasonId, season.number, ep.id, ep.number),
        title: text(ep.title),
      });
      if (!progress) add(reader, null, row);
      else
        add(
          reader,
          {
            kind: 'progress',
            title,
            episode,
            progress: compact({ ...progress, updatedAt: instant(ep.updatedAt) }),
          },
          row,
        );
    }
  }
}

function episodeOf(
  seasonId: unknown,
  season: unknown,
  episodeId: unknown,
  number: unknown,
): ImportEpisodeRef | undefined {
  const int = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) ? n : undefined);
  const ref = compact({
    season: int(season),
    number: int(number),
    tmdbId: text(episodeId),
    seasonTmdbId: text(seasonId),
  });
  return Object.keys(ref).length ? ref : undefined;
}

function readHistory(section: unknown, reader: Reader): void {
  for (const [key, item] of entriesOf(section)) {
    const row = ++reader.row;
    // The API's list item: season/episode objects; p-stream's store: flat fields, keyed `${tmdbId}-${episodeId}`.
    const season = isObject(item.season) ? item.season : { id: item.seasonId, number: item.seasonNumber };
    const ep = isObject(item.episode) ? item.episode : { id: item.episodeId, number: item.episodeNumber };
    const episode = episodeOf(season.id, season.number, ep.id, ep.number);
    const tmdbId = Array.isArray(section) || !text(ep.id) ? key : key.split('-')[0]!;
    const title = titleOf(tmdbId, item, !!episode);
    const watchedAt = instant(item.watchedAt);
    const progress = progressOf(isObject(item.progress) ? item.progress : item);
    if (!title || !watchedAt) {
      add(reader, null, row);
      continue;
    }
    const completed = typeof item.completed === 'boolean' ? item.completed : undefined;
    add(reader, { kind: 'play', title, episode, watchedAt, progress: progress ?? undefined, completed }, row);
  }
}

/**
 * Our ratings (`marquee.ratings`, decision 103): `{tmdbId, type, meta, rating 1–10, ratedAt, updatedAt}`.
 * Known titles (TMDB id and kind), dated by when they were rated (a rating changed is rated anew), as
 * the other formats date theirs: a file read twice is no change.
 */
function readRatings(section: unknown, reader: Reader): void {
  for (const [tmdbId, item] of entriesOf(section)) {
    const row = ++reader.row;
    const meta = isObject(item.meta) ? item.meta : {};
    const title = titleOf(tmdbId, { meta: { ...meta, type: item.type ?? meta.type } }, false);
    const rating = item.rating;
    if (!title || typeof rating !== 'number' || !Number.isInteger(rating) || rating < 1 || rating > 10) {
      add(reader, null, row);
      continue;
    }
    add(reader, { kind: 'rating', title, rating, updatedAt: instant(item.ratedAt) }, row);
  }
}

/** p-stream's preferences under the names our settings endpoint takes (its theme and language included). */
function settingsOf(json: Json): Record<string, unknown> | undefined {
  const settings: Record<string, unknown> = isObject(json.settings) ? { ...json.settings } : {};
  if (typeof json.theme === 'string') settings.applicationTheme = json.theme;
  if (typeof json.language === 'string') settings.applicationLanguage = json.language;
  return Object.keys(settings).length ? settings : undefined;
}

export function parsePStream(
  json: Json,
  file: string,
  sink: RecordSink,
): { settings?: Record<string, unknown>; groupOrder?: string[] } {
  const reader: Reader = { sink, file, row: 0 };
  const extra = isObject(json.marquee) ? json.marquee : {};
  readBookmarks(json.bookmarks, reader);
  readBookmarks(extra.bookmarks, reader);
  readProgress(json.progress, reader);
  readProgress(extra.progress, reader);
  readHistory(json.watchHistory, reader);
  readHistory(extra.watchHistory, reader);
  readRatings(extra.ratings, reader);
  const groupOrder = Array.isArray(json.groupOrder) ? strings(json.groupOrder) : undefined;
  return compact({ settings: settingsOf(json), groupOrder });
}
