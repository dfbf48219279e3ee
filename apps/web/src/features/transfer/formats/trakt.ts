import { parseInstant } from './dates.ts';
import type { ImportEpisodeRef, ImportRecord, ImportTitleRef } from './model.ts';
import { RecordSink, compact, record, imdbIdIn, numericId, parseYear } from './records.ts';

/*
 * Trakt's data export: a zip of JSON files, each a verbatim API answer — watched-history.json (or
 * watched-history-1.json, -2.json …: one entry per play), watched-movies.json / watched-shows.json
 * (totals), ratings-{movies,shows,seasons,episodes}.json, lists-watchlist.json, lists-favorites.json,
 * lists-lists.json and lists-list-<id>-<slug>.json. One of them alone is read the same way.
 */

export type TraktKind = 'history' | 'watched' | 'ratings' | 'list' | 'lists';

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What an array of Trakt items is, from its first item; `empty` for `[]` (most of an export's files). */
export function recogniseTrakt(json: unknown): TraktKind | 'empty' | null {
  if (!Array.isArray(json)) return null;
  const item = json.find(isObject);
  if (!item) return json.length === 0 ? 'empty' : null;
  if ('watched_at' in item && ('movie' in item || 'episode' in item)) return 'history';
  if ('rated_at' in item && 'rating' in item) return 'ratings';
  if (('listed_at' in item || 'rank' in item) && 'type' in item) return 'list';
  if ('last_watched_at' in item && 'plays' in item) return 'watched';
  if ('item_count' in item && isObject(item.ids) && 'name' in item) return 'lists';
  return null;
}

export interface TraktFile {
  name: string;
  kind: TraktKind;
  items: unknown[];
}

function titleRef(value: unknown, type: 'movie' | 'show'): ImportTitleRef | null {
  if (!isObject(value)) return null;
  const ids = isObject(value.ids) ? value.ids : {};
  const title = typeof value.title === 'string' ? value.title : '';
  const ref = compact({
    tmdbId: numericId(ids.tmdb),
    imdbId: typeof ids.imdb === 'string' ? imdbIdIn(ids.imdb) : undefined,
    traktId: numericId(ids.trakt),
    title,
    year: parseYear(typeof value.year === 'number' ? value.year : undefined),
    type,
  });
  return title || ref.tmdbId || ref.imdbId || ref.traktId ? ref : null;
}

function episodeRef(value: unknown): ImportEpisodeRef | null {
  if (!isObject(value)) return null;
  const ids = isObject(value.ids) ? value.ids : {};
  const int = (n: unknown) => (typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined);
  const episode = compact({
    season: int(value.season),
    number: int(value.number),
    title: typeof value.title === 'string' && value.title ? value.title : undefined,
    tmdbId: numericId(ids.tmdb),
  });
  return episode.season !== undefined || episode.tmdbId ? episode : null;
}

/** The title (and episode) an item names, by its `type`; seasons are not titles here. */
function subjectOf(item: Json): { title: ImportTitleRef; episode?: ImportEpisodeRef } | string {
  const type =
    item.type ?? ('movie' in item ? 'movie' : 'episode' in item ? 'episode' : 'show' in item ? 'show' : '');
  if (type === 'movie' || type === 'show') {
    const title = titleRef(item[type], type);
    return title ? { title } : 'no_title';
  }
  if (type === 'episode') {
    const title = titleRef(item.show, 'show');
    const episode = episodeRef(item.episode);
    return title && episode ? { title, episode } : 'no_title';
  }
  return 'unsupported_type';
}

function listNameOf(file: string, names: ReadonlyMap<string, string>): string {
  const base = file
    .split('/')
    .pop()!
    .replace(/\.json$/i, '');
  if (/watchlist/i.test(base)) return 'watchlist';
  const id = /^lists-list-(\d+)/.exec(base)?.[1];
  if (id && names.has(id)) return names.get(id)!;
  return base.replace(/^lists-list-\d+-/, '').replace(/^lists-/, '');
}

interface Reader {
  sink: RecordSink;
  file: string;
  listNames: ReadonlyMap<string, string>;
  seenPlays: Set<string>;
}

function itemRecord(
  item: unknown,
  kind: TraktKind,
  row: number,
  reader: Reader,
): ImportRecord | string | null {
  if (!isObject(item)) return 'bad_item';
  const subject = subjectOf(item);
  if (typeof subject === 'string') return subject;
  const source = { file: reader.file, row };
  if (kind === 'history') {
    const watchedAt = typeof item.watched_at === 'string' ? parseInstant(item.watched_at) : null;
    if (!watchedAt) return 'bad_date';
    // The paged files of a big history may repeat an entry at their seams: one play is one id.
    const id = numericId(item.id);
    if (id && reader.seenPlays.has(id)) return null;
    if (id) reader.seenPlays.add(id);
    return { kind: 'play', ...subject, watchedAt, source };
  }
  if (kind === 'ratings') {
    const rating = item.rating;
    if (typeof rating !== 'number' || rating < 1 || rating > 10) return 'no_rating';
    const updatedAt = typeof item.rated_at === 'string' ? parseInstant(item.rated_at) : null;
    return record({ kind: 'rating', ...subject, rating, updatedAt: updatedAt ?? undefined, source });
  }
  const listName = listNameOf(reader.file, reader.listNames);
  const rank = item.rank;
  const updatedAt = typeof item.listed_at === 'string' ? parseInstant(item.listed_at) : null;
  return record({
    kind: listName === 'watchlist' ? 'watchlist' : 'list-item',
    ...subject,
    listName,
    position: typeof rank === 'number' && Number.isInteger(rank) && rank > 0 ? rank : undefined,
    updatedAt: updatedAt ?? undefined,
    source,
  });
}

/** watched-movies.json / watched-shows.json: the last play of each movie or episode (read without a history). */
function readTotals(items: unknown[], reader: Reader): void {
  items.forEach((item, i) => {
    const row = i + 1;
    if (!isObject(item)) return reader.sink.skip(reader.file, row, 'bad_item');
    const source = { file: reader.file, row };
    const movie = titleRef(item.movie, 'movie');
    const watchedAt = typeof item.last_watched_at === 'string' ? parseInstant(item.last_watched_at) : null;
    if (movie) {
      if (watchedAt) reader.sink.add({ kind: 'play', title: movie, watchedAt, source });
      else reader.sink.skip(reader.file, row, 'bad_date');
      return;
    }
    const show = titleRef(item.show, 'show');
    if (!show || !Array.isArray(item.seasons)) return reader.sink.skip(reader.file, row, 'no_title');
    for (const season of item.seasons.filter(isObject)) {
      for (const ep of Array.isArray(season.episodes) ? season.episodes.filter(isObject) : []) {
        const at = typeof ep.last_watched_at === 'string' ? parseInstant(ep.last_watched_at) : null;
        const episode = episodeRef({ season: season.number, number: ep.number });
        if (at && episode) reader.sink.add({ kind: 'play', title: show, episode, watchedAt: at, source });
      }
    }
  });
}

export function parseTrakt(files: readonly TraktFile[], sink: RecordSink): void {
  const listNames = new Map<string, string>();
  for (const file of files.filter((f) => f.kind === 'lists')) {
    for (const list of file.items.filter(isObject)) {
      const id = isObject(list.ids) ? numericId(list.ids.trakt) : undefined;
      if (id && typeof list.name === 'string') listNames.set(id, list.name);
    }
  }
  const hasHistory = files.some((f) => f.kind === 'history');
  const seenPlays = new Set<string>();
  for (const { name, kind, items } of files) {
    const reader: Reader = { sink, file: name, listNames, seenPlays };
    if (kind === 'lists') continue;
    // The totals repeat the history's last plays: read only when there is no history.
    if (kind === 'watched') {
      if (!hasHistory) readTotals(items, reader);
      continue;
    }
    items.forEach((item, i) => {
      const result = itemRecord(item, kind, i + 1, reader);
      if (typeof result === 'string') sink.skip(name, i + 1, result);
      else if (result) sink.add(result);
    });
  }
}
