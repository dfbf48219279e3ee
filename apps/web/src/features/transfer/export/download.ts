import { strToU8, zipSync } from 'fflate';
import { calendarDay } from '../../../lib/intl.ts';
import { saveBlob } from '../../../lib/save-file.ts';
import type { LetterboxdExportFiles } from '../formats/index.ts';

/*
 * Saving an export as a file the browser downloads. fflate stays in the import/export page's lazy chunk:
 * only that page imports this folder (decision 096).
 */

export const backupFileName = (date: Date, timeZone?: string) =>
  `marquee-backup-${calendarDay(date, timeZone)}.json`;
export const letterboxdFileName = (date: Date, timeZone?: string) =>
  `marquee-letterboxd-${calendarDay(date, timeZone)}.zip`;

/** The backup's text as a JSON file. */
export const backupBlob = (json: string) => new Blob([json], { type: 'application/json' });

/** Letterboxd's CSV files in one zip (UTF-8), as its importer takes several files at once. */
export function letterboxdZip(files: LetterboxdExportFiles): Blob {
  const entries: Record<string, Uint8Array> = {};
  for (const [name, text] of Object.entries(files)) {
    if (typeof text === 'string') entries[name] = strToU8(text);
  }
  // zipSync returns a fresh ArrayBuffer's view (never a shared one), as a Blob part must be.
  const bytes = zipSync(entries) as Uint8Array<ArrayBuffer>;
  return new Blob([bytes], { type: 'application/zip' });
}

/** Saves the backup (`json`, exportPStreamBackup's text) made `now`; returns the file's name. */
export function downloadBackup(json: string, now: Date, timeZone?: string): string {
  const name = backupFileName(now, timeZone);
  saveBlob(backupBlob(json), name);
  return name;
}

/** Saves the Letterboxd files made `now` as one zip; returns the file's name. */
export function downloadLetterboxd(files: LetterboxdExportFiles, now: Date, timeZone?: string): string {
  const name = letterboxdFileName(now, timeZone);
  saveBlob(letterboxdZip(files), name);
  return name;
}
