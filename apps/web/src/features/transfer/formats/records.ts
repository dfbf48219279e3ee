import {
  IMPORT_LIMITS,
  ImportRefused,
  type ImportRecord,
  type ImportTitleRef,
  type SkippedRow,
} from './model.ts';

/** Collects a file's records and skipped rows; past `IMPORT_LIMITS.records` the file is refused. */
export class RecordSink {
  readonly records: ImportRecord[] = [];
  readonly skipped: SkippedRow[] = [];

  add(record: ImportRecord): void {
    if (this.records.length >= IMPORT_LIMITS.records) {
      throw new ImportRefused('too_many_rows', { file: record.source.file });
    }
    this.records.push(record);
  }

  skip(file: string, row: number, code: string): void {
    this.skipped.push({ file, row, code });
  }
}

/** A year cell: four digits, else absent. */
export function parseYear(text: string | number | null | undefined): number | undefined {
  const n = typeof text === 'number' ? text : Number(String(text ?? '').trim());
  return Number.isInteger(n) && n >= 1800 && n <= 9999 ? n : undefined;
}

/** An IMDb id (`tt` and digits), found in the cell or in a URL; else absent. */
export function imdbIdIn(text: string | null | undefined): string | undefined {
  return /\b(tt\d{5,})\b/.exec(text ?? '')?.[1];
}

/** A TMDB or Trakt id as a string: digits only. */
export function numericId(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,12}$/.test(value.trim())) return value.trim();
  return undefined;
}

/** A key that is the same for two mentions of one title in one file (for same-day repeats). */
export function titleKey(title: ImportTitleRef): string {
  return title.tmdbId ?? title.imdbId ?? title.traktId ?? `${title.title.toLowerCase()}|${title.year ?? ''}`;
}

/** A record with its undefined fields dropped. */
export function record(fields: ImportRecord): ImportRecord {
  return compact(fields);
}

/** Drops the keys whose value is undefined, so records compare and serialise cleanly. */
export function compact<T extends object>(value: T): T {
  for (const key of Object.keys(value) as (keyof T)[]) {
    if (value[key] === undefined) delete value[key];
  }
  return value;
}
