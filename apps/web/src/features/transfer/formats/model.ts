/*
 * The one shape every import format is read into (decision 096). Parsers never talk to the API and never
 * translate: problems are codes, the import page turns them into words and asks the viewer.
 */

/** What a record says: a dated (or undated) play, a place on a list, a rating, or p-stream's library. */
export type ImportKind =
  'play' | 'watchlist' | 'rating' | 'list-item' | 'bookmark' | 'progress' | 'favorite-episode';

export type ImportFormat = 'pstream' | 'letterboxd' | 'imdb' | 'netflix' | 'trakt';

/** The title as the source names it; the import page matches it to TMDB (ids first, then title + year). */
export interface ImportTitleRef {
  tmdbId?: string;
  imdbId?: string;
  traktId?: string;
  title: string;
  year?: number;
  /** Absent when the source cannot tell (Netflix's "Title: Subtitle", a Letterboxd-style list). */
  type?: 'movie' | 'show';
  /** p-stream's poster URL, kept so its backup round-trips. */
  poster?: string;
}

/**
 * An episode of `title` (the show). Sources know different parts of it: Trakt and p-stream give numbers
 * and ids, Netflix a season and the episode's name only, a p-stream favourite only the episode's TMDB id.
 */
export interface ImportEpisodeRef {
  season?: number;
  number?: number;
  title?: string;
  tmdbId?: string;
  seasonTmdbId?: string;
}

export interface ImportRecord {
  kind: ImportKind;
  /** For an episode: the show. */
  title: ImportTitleRef;
  episode?: ImportEpisodeRef;
  /** ISO 8601 in UTC. A source that gives a day only: that day at 12:00 UTC (decision 096). */
  watchedAt?: string;
  /** 0–10: Letterboxd's stars ×2, IMDb's and Trakt's as given. */
  rating?: number;
  /** A list's name ('watchlist' for watchlists) and the item's place on it. */
  listName?: string;
  position?: number;
  rewatch?: boolean;
  /** Seconds. p-stream progress and plays. */
  progress?: { watched: number; duration: number; updatedAt?: string };
  /** p-stream: whether the play reached the end. */
  completed?: boolean;
  /** p-stream bookmark groups. */
  groups?: string[];
  /** Netflix profile name: the import page lets the viewer pick one. */
  profile?: string;
  /** When the source says this record was made (a bookmark's change, a rating, an addition to a list). */
  updatedAt?: string;
  /** A code when the row is ambiguous (`date_order`): imported only if the viewer agrees. */
  unsure?: string;
  /** Where it came from: the file (its path inside a zip) and the 1-based row (CSV header = row 1). */
  source: { file: string; row: number };
}

export interface SkippedRow {
  file: string;
  row: number;
  code: string;
}

export interface ImportResult {
  format: ImportFormat;
  records: ImportRecord[];
  skipped: SkippedRow[];
  /** p-stream settings, named as our settings endpoint names them (`applicationTheme`, …). */
  settings?: Record<string, unknown>;
  /** p-stream's order of bookmark groups. */
  groupOrder?: string[];
}

/** How to read dates such as 03/04/24 when the file itself does not tell (Netflix). */
export interface ParseOptions {
  dateOrder?: 'dmy' | 'mdy';
}

export type RefusalCode =
  | 'too_large'
  | 'unknown_format'
  | 'missing_columns'
  | 'not_text'
  | 'formula_in_cell'
  | 'too_many_rows'
  | 'bad_json'
  | 'bad_csv'
  | 'bad_zip';

export interface RefusalDetails {
  file?: string;
  row?: number;
  column?: string;
  /** missing_columns: the columns the file lacks. */
  columns?: string[];
  /** unknown_format: the files that were looked at. */
  files?: string[];
}

/** The whole file is refused: nothing of it is imported. */
export class ImportRefused extends Error {
  readonly code: RefusalCode;
  readonly file?: string;
  readonly row?: number;
  readonly column?: string;
  readonly columns?: string[];
  readonly files?: string[];

  constructor(code: RefusalCode, details: RefusalDetails = {}) {
    super(`import refused: ${code}${details.file ? ` (${details.file})` : ''}`);
    this.name = 'ImportRefused';
    this.code = code;
    Object.assign(this, details);
  }
}

const MB = 1024 * 1024;

/** Limits, checked before or while reading; a file past one is refused whole. */
export const IMPORT_LIMITS = {
  /** The file as chosen. */
  inputBytes: 100 * MB,
  /** All entries of a zip, inflated. */
  zipTotalBytes: 200 * MB,
  /** One entry of a zip, inflated. */
  zipEntryBytes: 100 * MB,
  zipEntries: 2_000,
  /** Inflated : compressed, looked at once an entry passes `zipRatioFromBytes`. */
  zipRatio: 100,
  zipRatioFromBytes: 1 * MB,
  records: 200_000,
} as const;
