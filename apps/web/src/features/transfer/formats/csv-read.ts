import Papa from 'papaparse';
import { IMPORT_LIMITS, ImportRefused } from './model.ts';

/** A CSV file as rows of cells; `rows[0]` is its first line (the header, or Letterboxd's list banner). */
export interface CsvTable {
  file: string;
  rows: string[][];
  /** Papaparse's first quoting error (an unbalanced quote): refused once the file is used. */
  quoteErrorRow?: number;
}

/** What a format's recogniser says of a table: its kind and header row, the columns it lacks, or not it. */
export type Recognised<K> = { kind: K; headerRow: number } | { missing: string[] } | null;

/** Leading lines that are not data (Letterboxd's list banner and its list's own header and row). */
const HEADER_ROWS_ALLOWANCE = 10;

/** The separator of the first line that has one: comma, else semicolon or tab (Excel in some locales). */
function guessDelimiter(text: string): string {
  const end = text.indexOf('\n');
  const firstLine = end < 0 ? text : text.slice(0, end);
  const counts = [',', ';', '\t'].map((d) => [d, firstLine.split(d).length - 1] as const);
  const [best] = counts.sort((a, b) => b[1] - a[1]);
  return best && best[1] > 0 ? best[0] : ',';
}

/** Rows of the text, bounded: a file of more rows than may be imported is refused before it is all split. */
export function readCsv(text: string, file: string): CsvTable {
  const result = Papa.parse<string[]>(text, {
    delimiter: guessDelimiter(text),
    preview: IMPORT_LIMITS.records + HEADER_ROWS_ALLOWANCE + 1,
    skipEmptyLines: false,
  });
  if (result.data.length > IMPORT_LIMITS.records + HEADER_ROWS_ALLOWANCE) {
    throw new ImportRefused('too_many_rows', { file });
  }
  const quoteError = result.errors.find((e) => e.type === 'Quotes');
  return {
    file,
    rows: result.data,
    ...(quoteError ? { quoteErrorRow: (quoteError.row ?? 0) + 1 } : {}),
  };
}

/**
 * A cell a spreadsheet would run (formula injection, DDE, HYPERLINK): `=…`, or `+`, `-`, `@` with a
 * call, a sheet reference or a pipe in it. "+1", "-ism" and "@home" are titles, not formulas.
 */
export function isFormula(cell: string): boolean {
  const text = cell.replace(/^[\s]+/, '');
  const first = text[0];
  if (first === '=') return true;
  if (first === '+' || first === '-' || first === '@') return /[(!|]/.test(text);
  return false;
}

/**
 * Called on the files an import reads: an unbalanced quote is `bad_csv`, a formula anywhere is
 * `formula_in_cell` with its row (1-based, the header is row 1) and column (its header's name).
 */
export function checkCsv(table: CsvTable, headerRow = 0): void {
  if (table.quoteErrorRow !== undefined) {
    throw new ImportRefused('bad_csv', { file: table.file, row: table.quoteErrorRow });
  }
  const header = table.rows[headerRow] ?? [];
  table.rows.forEach((row, r) => {
    const c = row.findIndex(isFormula);
    if (c >= 0) {
      const column = header[c]?.trim() || String(c + 1);
      throw new ImportRefused('formula_in_cell', { file: table.file, row: r + 1, column });
    }
  });
}

/** A header name as matched: trimmed, lower case, runs of spaces as one. */
export function columnKey(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');
}

/** The columns of a header, found by name in any order. */
export class Columns {
  private readonly index = new Map<string, number>();

  constructor(header: readonly string[]) {
    header.forEach((name, i) => {
      const key = columnKey(name);
      if (key && !this.index.has(key)) this.index.set(key, i);
    });
  }

  has(name: string): boolean {
    return this.index.has(columnKey(name));
  }

  missing(names: readonly string[]): string[] {
    return names.filter((name) => !this.has(name));
  }

  /** The row's cell in that column, trimmed; '' when the column or the cell is absent. */
  get(row: readonly string[], name: string): string {
    const i = this.index.get(columnKey(name));
    return i === undefined ? '' : (row[i] ?? '').trim();
  }
}

/** A blank line (Papaparse gives `['']`). */
export function isBlankRow(row: readonly string[]): boolean {
  return row.every((cell) => cell.trim() === '');
}

/** Our own exports prefix `'` to a cell that starts like a formula (OWASP); reading them back drops it. */
export function unescapeCell(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
