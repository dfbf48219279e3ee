import Papa from 'papaparse';

/**
 * A cell a spreadsheet would run gets a `'` in front (OWASP's CSV injection advice): `=`, `+`, `-`, `@`,
 * tab, carriage return. Papaparse's own default misses a formula that spans lines, hence this pattern.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvCell = string | number | undefined;

/** RFC 4180 CSV (quoted where needed, `"` doubled), formulas neutralised, one line per row. */
export function writeCsv(fields: readonly string[], rows: readonly (readonly CsvCell[])[]): string {
  const text = Papa.unparse(
    { fields: [...fields], data: rows.map((row) => row.map((cell) => cell ?? '')) },
    { escapeFormulae: FORMULA_START, newline: '\n' },
  );
  // Papaparse ends a header-only file with a newline and a file with rows without one.
  return text.endsWith('\n') ? text : `${text}\n`;
}
