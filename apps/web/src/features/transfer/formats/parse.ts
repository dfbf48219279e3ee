import { checkCsv, readCsv, type CsvTable, type Recognised } from './csv-read.ts';
import { parseImdb, recogniseImdb, type ImdbKind } from './imdb.ts';
import {
  letterboxdZipOrder,
  parseLetterboxd,
  recogniseLetterboxd,
  type LetterboxdKind,
} from './letterboxd.ts';
import {
  IMPORT_LIMITS,
  ImportRefused,
  type ImportFormat,
  type ImportResult,
  type ParseOptions,
} from './model.ts';
import { parseNetflix, recogniseNetflix, type NetflixKind } from './netflix.ts';
import { parsePStream, recognisePStream } from './pstream.ts';
import { RecordSink } from './records.ts';
import { decodeText } from './text.ts';
import { parseTrakt, recogniseTrakt, type TraktFile } from './trakt.ts';
import { isZip, unzipSafely } from './zip.ts';

export interface ImportFile {
  name: string;
  bytes: Uint8Array;
}

type Found =
  | { format: 'pstream'; name: string; json: Record<string, unknown> }
  | { format: 'trakt'; file: TraktFile }
  | { format: 'letterboxd'; table: CsvTable; kind: LetterboxdKind; headerRow: number }
  | { format: 'imdb'; table: CsvTable; kind: ImdbKind }
  | { format: 'netflix'; table: CsvTable; kind: NetflixKind };

/** Inside a zip only CSV and JSON files are read, and never Trakt's account files (they hold an email address). */
function isReadable(name: string): boolean {
  return /\.(csv|json)$/i.test(name) && !/(^|\/)user-[^/]*\.json$/i.test(name);
}

function classifyJson(name: string, text: string): Found | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ImportRefused('bad_json', { file: name });
  }
  if (recognisePStream(json)) return { format: 'pstream', name, json: json as Record<string, unknown> };
  const kind = recogniseTrakt(json);
  if (kind && kind !== 'empty') return { format: 'trakt', file: { name, kind, items: json as unknown[] } };
  return null;
}

function found<K, F>(
  table: CsvTable,
  result: Recognised<K>,
  make: (kind: K, headerRow: number) => F,
): F | null {
  if (!result) return null;
  if ('missing' in result)
    throw new ImportRefused('missing_columns', { file: table.file, columns: result.missing });
  return make(result.kind, result.headerRow);
}

function classifyCsv(name: string, text: string): Found | null {
  const table = readCsv(text, name);
  return (
    found(table, recogniseLetterboxd(table), (kind, headerRow) => ({
      format: 'letterboxd' as const,
      table,
      kind,
      headerRow,
    })) ??
    found(table, recogniseImdb(table), (kind) => ({ format: 'imdb' as const, table, kind })) ??
    found(table, recogniseNetflix(table), (kind) => ({ format: 'netflix' as const, table, kind }))
  );
}

/** What the file is, from its content (JSON or CSV, then its keys or header). */
function classify(entry: ImportFile): Found | null {
  const text = decodeText(entry.bytes, entry.name);
  const start = text.trimStart()[0];
  return start === '{' || start === '[' ? classifyJson(entry.name, text) : classifyCsv(entry.name, text);
}

function readFound(
  format: ImportFormat,
  all: Found[],
  zipped: boolean,
  sink: RecordSink,
  options: ParseOptions,
) {
  const of = <F extends ImportFormat>(f: F) =>
    all.filter((x): x is Extract<Found, { format: F }> => x.format === f);
  switch (format) {
    case 'pstream': {
      const [first] = of('pstream');
      return parsePStream(first!.json, first!.name, sink);
    }
    case 'trakt':
      parseTrakt(
        of('trakt').map((f) => f.file),
        sink,
      );
      return {};
    case 'letterboxd': {
      const files = of('letterboxd')
        .map((f) => ({ ...f, order: zipped ? letterboxdZipOrder(f.table.file, f.kind) : 0 }))
        .filter((f): f is typeof f & { order: number } => f.order !== null)
        .sort((a, b) => a.order - b.order);
      files.forEach((f) => checkCsv(f.table, f.headerRow));
      parseLetterboxd(files, sink);
      return {};
    }
    case 'imdb':
      for (const f of of('imdb')) {
        checkCsv(f.table);
        parseImdb(f.table, f.kind, sink);
      }
      return {};
    case 'netflix':
      for (const f of of('netflix')) {
        checkCsv(f.table);
        parseNetflix(f.table, f.kind, sink, options);
      }
      return {};
  }
}

function fileOf(f: Found): string {
  return f.format === 'pstream' ? f.name : f.format === 'trakt' ? f.file.name : f.table.file;
}

/**
 * Reads an export (one file, or a zip of them) into records, or refuses it whole with `ImportRefused`.
 * The format is told by the content; a zip's first recognised file decides it, files of another format
 * in it are skipped (`other_format`).
 */
export async function parse(file: ImportFile, options: ParseOptions = {}): Promise<ImportResult> {
  if (file.bytes.length > IMPORT_LIMITS.inputBytes) throw new ImportRefused('too_large', { file: file.name });
  const zipped = isZip(file.bytes);
  const entries = zipped ? unzipSafely(file.bytes, file.name, isReadable) : [file];
  const all = entries.map(classify).filter((f): f is Found => f !== null);
  const format = all[0]?.format;
  if (!format) {
    const files = entries.length ? entries.map((e) => e.name) : [file.name];
    throw new ImportRefused('unknown_format', { file: file.name, files });
  }
  const sink = new RecordSink();
  for (const other of all.filter((f) => f.format !== format)) sink.skip(fileOf(other), 0, 'other_format');
  const extras = readFound(format, all, zipped, sink, options);
  return { format, records: sink.records, skipped: sink.skipped, ...extras };
}

/** `parse` for a File the viewer picked: its size is checked before a byte of it is read. */
export async function parseFile(
  file: Blob & { name: string },
  options: ParseOptions = {},
): Promise<ImportResult> {
  if (file.size > IMPORT_LIMITS.inputBytes) throw new ImportRefused('too_large', { file: file.name });
  return parse({ name: file.name, bytes: new Uint8Array(await file.arrayBuffer()) }, options);
}
