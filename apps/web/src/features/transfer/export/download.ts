import { strToU8, zipSync } from 'fflate';
import type { LetterboxdExportFiles } from '../formats/index.ts';

/*
 * Saving an export as a file the browser downloads. fflate stays in the import/export page's lazy chunk:
 * only that page imports this folder (decision 096).
 */

/** The calendar day of `date` where the viewer is (`timeZone`: IANA, default the device's), as YYYY-MM-DD. */
export function dayStamp(date: Date, timeZone?: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')}`;
}

export const backupFileName = (date: Date, timeZone?: string) =>
  `marquee-backup-${dayStamp(date, timeZone)}.json`;
export const letterboxdFileName = (date: Date, timeZone?: string) =>
  `marquee-letterboxd-${dayStamp(date, timeZone)}.zip`;

/** Hands `blob` to the browser as a download named `name`: its object URL on a temporary `<a download>`. */
export function saveBlob(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  // In the document while clicked: some browsers ignore a click on a detached link.
  document.body.append(link);
  try {
    link.click();
  } finally {
    link.remove();
    // Revoked once this task ends: the browser has taken the file by then.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

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
