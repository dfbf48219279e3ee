import { Columns, isBlankRow, unescapeCell, type CsvTable, type Recognised } from './csv-read.ts';
import { dayToIso, parseIsoDay } from './dates.ts';
import type { ImportRecord, ImportTitleRef } from './model.ts';
import { RecordSink, compact, record, imdbIdIn, parseYear } from './records.ts';

/*
 * IMDb's CSV exports: ratings (Const, Your Rating, Date Rated, Title, …, Title Type, …) and a list or the
 * watchlist (Position, Const, Created, Modified, Description, Title, …). Newer exports put the same
 * columns in another order (and add Your Rating / Date Rated to lists): columns are found by name.
 */

export type ImdbKind = 'ratings' | 'list';

const IMDB_MARKERS = ['Const', 'Title Type', 'IMDb Rating', 'Your Rating'];

export function recogniseImdb(table: CsvTable): Recognised<ImdbKind> {
  const cols = new Columns(table.rows[0] ?? []);
  const markers = IMDB_MARKERS.filter((name) => cols.has(name)).length;
  // One marker could be a coincidence (a "Const" column); two, or Const with a Title, is IMDb.
  if (markers < 2 && !(cols.has('Const') && cols.has('Title'))) return null;
  const missing = cols.missing(['Const', 'Title']);
  if (missing.length) return { missing };
  return { kind: cols.has('Position') || !cols.has('Your Rating') ? 'list' : 'ratings', headerRow: 0 };
}

/** IMDb's title types (either spelling: "TV Mini Series", older "tvMiniSeries"); episodes and games are not titles here. */
function typeOf(text: string): ImportTitleRef['type'] | 'skip' | undefined {
  const key = text.toLowerCase().replace(/[\s_-]/g, '');
  if (!key) return undefined;
  if (['movie', 'tvmovie', 'video', 'short', 'tvspecial', 'tvshort'].includes(key)) return 'movie';
  if (['tvseries', 'tvminiseries'].includes(key)) return 'show';
  return 'skip';
}

function dayIso(text: string): string | undefined {
  const day = parseIsoDay(text);
  return day ? dayToIso(day) : undefined;
}

function rowRecord(
  cols: Columns,
  row: string[],
  kind: ImdbKind,
  file: string,
  index: number,
): ImportRecord | string {
  const type = typeOf(cols.get(row, 'Title Type'));
  if (type === 'skip') return 'unsupported_type';
  const imdbId = imdbIdIn(cols.get(row, 'Const')) ?? imdbIdIn(cols.get(row, 'URL'));
  const title = unescapeCell(cols.get(row, 'Title'));
  if (!imdbId && !title) return 'no_title';
  const ref: ImportTitleRef = compact({ imdbId, title, year: parseYear(cols.get(row, 'Year')), type });
  const source = { file, row: index + 1 };
  if (kind === 'ratings') {
    const rating = Number(cols.get(row, 'Your Rating'));
    if (!cols.get(row, 'Your Rating') || !Number.isFinite(rating) || rating < 1 || rating > 10)
      return 'no_rating';
    return record({
      kind: 'rating',
      title: ref,
      rating,
      updatedAt: dayIso(cols.get(row, 'Date Rated')),
      source,
    });
  }
  const isWatchlist = /watchlist/i.test(file.split('/').pop()!);
  const position = Number(cols.get(row, 'Position'));
  return record({
    kind: isWatchlist ? 'watchlist' : 'list-item',
    title: ref,
    listName: isWatchlist
      ? 'watchlist'
      : file
          .split('/')
          .pop()!
          .replace(/\.csv$/i, ''),
    position: Number.isInteger(position) && position > 0 ? position : undefined,
    updatedAt: dayIso(cols.get(row, 'Created')),
    source,
  });
}

export function parseImdb(table: CsvTable, kind: ImdbKind, sink: RecordSink): void {
  const cols = new Columns(table.rows[0]!);
  for (let r = 1; r < table.rows.length; r++) {
    const row = table.rows[r]!;
    if (isBlankRow(row)) continue;
    const result = rowRecord(cols, row, kind, table.file, r);
    if (typeof result === 'string') sink.skip(table.file, r + 1, result);
    else sink.add(result);
  }
}
