import { readFile, stat } from 'node:fs/promises';

/**
 * Titles the operator has taken down (DMCA): TAKEDOWN_IDS and the lines of TAKEDOWN_FILE. An entry is a
 * TMDB id (`603`: that number as a movie and as a show) or a typed one (`movie-603`, `tv-1396`; `show-`
 * and the family's `series-` mean tv). The file is reread when it changes.
 */
export class TakedownList {
  private fileCache: { mtimeMs: number; size: number; ids: Set<string> } | null = null;
  private readonly fixed: Set<string>;

  constructor(
    ids: readonly string[],
    private readonly file?: string,
  ) {
    this.fixed = new Set(ids.map(normalizeTakedownId).filter((x): x is string => x !== null));
  }

  async isRemoved(type: 'movie' | 'show', tmdbId: string): Promise<boolean> {
    const ids = new Set([...this.fixed, ...(await this.fromFile())]);
    return ids.has(tmdbId) || ids.has(`${type === 'movie' ? 'movie' : 'tv'}-${tmdbId}`);
  }

  private async fromFile(): Promise<Set<string>> {
    if (!this.file) return new Set();
    const info = await stat(this.file).catch(() => null);
    // A missing file is an empty list, not an outage: the operator may create it later.
    if (!info) return new Set();
    if (this.fileCache?.mtimeMs === info.mtimeMs && this.fileCache.size === info.size)
      return this.fileCache.ids;
    const text = await readFile(this.file, 'utf8');
    const ids = new Set(
      text
        .split(/\r?\n/)
        .map((line) => line.replace(/#.*/, '').trim())
        .flatMap((line) => line.split(/[\s,]+/))
        .map(normalizeTakedownId)
        .filter((x): x is string => x !== null),
    );
    this.fileCache = { mtimeMs: info.mtimeMs, size: info.size, ids };
    return ids;
  }
}

/** `603` → `603`; `movie-603` → `movie-603`; `tv-`/`show-`/`series-1396` → `tv-1396`; anything else → null. */
export function normalizeTakedownId(raw: string): string | null {
  const value = raw.trim().toLowerCase();
  if (/^\d{1,10}$/.test(value)) return value;
  const match = /^(movie|tv|show|series)-(\d{1,10})$/.exec(value);
  if (!match) return null;
  return `${match[1] === 'movie' ? 'movie' : 'tv'}-${match[2]}`;
}
