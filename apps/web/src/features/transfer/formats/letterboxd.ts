import { Columns, isBlankRow, unescapeCell, type CsvTable, type Recognised } from './csv-read.ts';
import { DayClock, dayToIso, parseIsoDay } from './dates.ts';
import type { ImportRecord, ImportTitleRef } from './model.ts';
import { RecordSink, compact, record, imdbIdIn, numericId, parseYear, titleKey } from './records.ts';

/*
 * Letterboxd: its export (a zip of diary.csv, watched.csv, ratings.csv, watchlist.csv, reviews.csv,
 * lists/*.csv …, or one of them alone) and its import format (Title, Year, tmdbID, WatchedDate, …), which
 * our own Letterboxd export writes. Letterboxd holds films only.
 */

export type LetterboxdKind = 'diary' | 'watched' | 'watchlist' | 'ratings' | 'reviews' | 'list' | 'import';

const LIST_BANNER = /^letterboxd list export/i;
const IMPORT_MARKERS = ['tmdbID', 'imdbID', 'LetterboxdURI', 'WatchedDate', 'Rating10'];

/** The row of a list file where its films' header is (after the banner, the list's header and row). */
function listItemsHeader(rows: readonly string[][]): number {
  return rows.findIndex((row, i) => i > 0 && new Columns(row).has('Position'));
}

/** What kind of Letterboxd file this is, from its header; the name only tells watched.csv from watchlist.csv. */
export function recogniseLetterboxd(table: CsvTable): Recognised<LetterboxdKind> {
  const first = table.rows[0] ?? [];
  if (LIST_BANNER.test(first[0]?.trim() ?? '')) {
    const headerRow = listItemsHeader(table.rows);
    if (headerRow < 0) return { missing: ['Position', 'Name'] };
    const missing = new Columns(table.rows[headerRow]!).missing(['Name']);
    return missing.length ? { missing } : { kind: 'list', headerRow };
  }
  const cols = new Columns(first);
  if (cols.has('Letterboxd URI')) {
    const missing = cols.missing(['Name']);
    if (missing.length) return { missing };
    if (cols.has('Review')) return { kind: 'reviews', headerRow: 0 };
    if (cols.has('Watched Date') || cols.has('Rewatch')) return { kind: 'diary', headerRow: 0 };
    if (cols.has('Rating')) return { kind: 'ratings', headerRow: 0 };
    const base = table.file.split('/').pop()!.toLowerCase();
    return { kind: base.includes('watchlist') ? 'watchlist' : 'watched', headerRow: 0 };
  }
  if (IMPORT_MARKERS.some((name) => cols.has(name))) {
    const named = cols.has('Title') || cols.has('tmdbID') || cols.has('imdbID');
    return named ? { kind: 'import', headerRow: 0 } : { missing: ['Title'] };
  }
  return null;
}

/** In a zip: the files read, and in which order (the diary first, so watched.csv adds only the rest). */
export function letterboxdZipOrder(path: string, kind: LetterboxdKind): number | null {
  const lower = path.toLowerCase();
  // Likes, deleted and orphaned entries are not the viewer's library; reviews repeat diary entries.
  if (/(^|\/)(likes|deleted|orphaned)\//.test(lower) || kind === 'reviews') return null;
  return ['diary', 'import', 'ratings', 'watched', 'watchlist', 'list'].indexOf(kind);
}

interface Context {
  sink: RecordSink;
  clock: DayClock;
  /** Films the diary has a dated play of: watched.csv's undated mark adds nothing for them. */
  diaryFilms: Set<string>;
  /** A lone file of Date, Name, Year, Letterboxd URI whose name does not say which list it is. */
  unsureKind?: string;
}

/** Letterboxd's half stars (0.5–5) as 0–10. */
function stars(text: string): number | undefined {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n > 0 && n <= 5 ? n * 2 : undefined;
}

function rating10(text: string): number | undefined {
  const n = Number(text);
  return text !== '' && Number.isFinite(n) && n >= 0 && n <= 10 ? n : undefined;
}

function filmOf(name: string, year: string, ids: Partial<ImportTitleRef> = {}): ImportTitleRef | null {
  const title = unescapeCell(name);
  if (!title && !ids.tmdbId && !ids.imdbId) return null;
  return compact({ ...ids, title, year: parseYear(year), type: 'movie' as const });
}

function filmKey(title: ImportTitleRef): string {
  return `${title.title.toLowerCase()}|${title.year ?? ''}`;
}

function rowRecord(
  cols: Columns,
  row: string[],
  kind: LetterboxdKind,
  source: ImportRecord['source'],
  ctx: Context,
): ImportRecord | string {
  const film = filmOf(cols.get(row, 'Name'), cols.get(row, 'Year'));
  if (!film) return 'no_title';
  const logged = parseIsoDay(cols.get(row, 'Date'));
  const updatedAt = logged ? dayToIso(logged) : undefined;
  switch (kind) {
    case 'diary':
    case 'reviews': {
      const day = parseIsoDay(cols.get(row, 'Watched Date')) ?? logged;
      if (!day) return 'bad_date';
      ctx.diaryFilms.add(filmKey(film));
      const rewatch = /^(yes|true)$/i.test(cols.get(row, 'Rewatch'));
      const rating = stars(cols.get(row, 'Rating'));
      return record({
        kind: 'play',
        title: film,
        watchedAt: ctx.clock.at(day, titleKey(film)),
        rating,
        rewatch,
        source,
      });
    }
    case 'watched':
      if (ctx.diaryFilms.has(filmKey(film))) return 'in_diary';
      return record({ kind: 'play', title: film, updatedAt, unsure: ctx.unsureKind, source });
    case 'ratings': {
      const rating = stars(cols.get(row, 'Rating'));
      return rating === undefined
        ? 'no_rating'
        : record({ kind: 'rating', title: film, rating, updatedAt, source });
    }
    default:
      return record({ kind: 'watchlist', title: film, listName: 'watchlist', updatedAt, source });
  }
}

/** A row of Letterboxd's import format: a diary entry if dated, else a rating, else a watchlist or watched mark. */
function importRecord(
  cols: Columns,
  row: string[],
  source: ImportRecord['source'],
  ctx: Context,
  file: string,
) {
  const ids = compact({
    tmdbId: numericId(cols.get(row, 'tmdbID')),
    imdbId: imdbIdIn(cols.get(row, 'imdbID')),
  });
  const film = filmOf(cols.get(row, 'Title'), cols.get(row, 'Year'), ids);
  if (!film) return 'no_title';
  const rating = rating10(cols.get(row, 'Rating10')) ?? stars(cols.get(row, 'Rating'));
  const watched = cols.get(row, 'WatchedDate');
  if (watched) {
    const day = parseIsoDay(watched);
    if (!day) return 'bad_date';
    const rewatch = /^(yes|true)$/i.test(cols.get(row, 'Rewatch'));
    return record({
      kind: 'play' as const,
      title: film,
      watchedAt: ctx.clock.at(day, titleKey(film)),
      rating,
      rewatch,
      source,
    });
  }
  if (rating !== undefined) return record({ kind: 'rating' as const, title: film, rating, source });
  if (/watchlist/i.test(file))
    return { kind: 'watchlist' as const, title: film, listName: 'watchlist', source };
  return { kind: 'play' as const, title: film, source };
}

function readList(table: CsvTable, headerRow: number, ctx: Context): void {
  const meta = new Columns(table.rows[1] ?? []);
  const listName =
    meta.get(table.rows[2] ?? [], 'Name') ||
    table.file
      .split('/')
      .pop()!
      .replace(/\.csv$/i, '');
  const cols = new Columns(table.rows[headerRow]!);
  for (let r = headerRow + 1; r < table.rows.length; r++) {
    const row = table.rows[r]!;
    if (isBlankRow(row)) continue;
    const source = { file: table.file, row: r + 1 };
    const film = filmOf(cols.get(row, 'Name'), cols.get(row, 'Year'));
    if (!film) {
      ctx.sink.skip(table.file, r + 1, 'no_title');
      continue;
    }
    const position = Number(cols.get(row, 'Position'));
    ctx.sink.add(
      record({
        kind: 'list-item',
        title: film,
        listName,
        position: Number.isInteger(position) && position > 0 ? position : undefined,
        source,
      }),
    );
  }
}

export interface LetterboxdFile {
  table: CsvTable;
  kind: LetterboxdKind;
  headerRow: number;
}

/** Reads the files in the order given (see `letterboxdZipOrder`). */
export function parseLetterboxd(files: readonly LetterboxdFile[], sink: RecordSink): void {
  const ctx: Context = { sink, clock: new DayClock(), diaryFilms: new Set() };
  for (const { table, kind, headerRow } of files) {
    if (kind === 'list') {
      readList(table, headerRow, ctx);
      continue;
    }
    const base = table.file.split('/').pop()!.toLowerCase();
    ctx.unsureKind =
      kind === 'watched' && files.length === 1 && !base.includes('watched') ? 'list_kind' : undefined;
    const cols = new Columns(table.rows[headerRow]!);
    for (let r = headerRow + 1; r < table.rows.length; r++) {
      const row = table.rows[r]!;
      if (isBlankRow(row)) continue;
      const source = { file: table.file, row: r + 1 };
      const result =
        kind === 'import'
          ? importRecord(cols, row, source, ctx, base)
          : rowRecord(cols, row, kind, source, ctx);
      if (typeof result === 'string') sink.skip(table.file, r + 1, result);
      else sink.add(result);
    }
  }
}
