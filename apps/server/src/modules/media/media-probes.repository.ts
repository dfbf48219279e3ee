import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { MediaInfo } from './media-info.ts';

/** Which version of a file a probe describes: a rename keeps it, a rewrite or another file changes it. */
export interface FileIdentity {
  size: number;
  mtimeMs: number;
  ino: number;
}

/** One stored probe: what ffprobe said about the file at `path` when it had this identity. */
export interface StoredProbe extends FileIdentity {
  path: string;
  probedAt: number;
  /** null: the file is not media (`error` says why). */
  info: MediaInfo | null;
  error: string | null;
}

/**
 * Integers both databases keep exactly: mtimes lose their fraction; an inode number beyond 2^53 (some
 * network file systems) is folded, as JavaScript already rounded it, into the same value every time.
 */
export const storedInteger = (n: number): number =>
  Number.isSafeInteger(n) ? n : Math.trunc(n) % Number.MAX_SAFE_INTEGER;

/** Whether a stored probe still describes a file with this identity. */
export const sameFile = (stored: FileIdentity, file: FileIdentity): boolean =>
  stored.size === storedInteger(file.size) &&
  stored.mtimeMs === storedInteger(file.mtimeMs) &&
  stored.ino === storedInteger(file.ino);

function parseInfo(text: string | null): MediaInfo | null | undefined {
  if (text === null) return null;
  try {
    return JSON.parse(text) as MediaInfo;
  } catch {
    return undefined;
  }
}

/** SQL for `media_probes`: ffprobe's answers by real path, shared by every process of the instance. */
export class MediaProbesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The stored probe of a path; undefined when there is none (or its JSON is unreadable). */
  async get(path: string): Promise<StoredProbe | undefined> {
    const row = await this.db
      .selectFrom('media_probes')
      .selectAll()
      .where('path', '=', path)
      .executeTakeFirst();
    if (!row) return undefined;
    const info = parseInfo(row.info);
    if (info === undefined) return undefined;
    return {
      path: row.path,
      size: Number(row.size),
      mtimeMs: Number(row.mtime_ms),
      ino: Number(row.ino),
      probedAt: Number(row.probed_at),
      info,
      error: row.error,
    };
  }

  /** Stores (or replaces) the probe of a path. */
  async put(probe: StoredProbe): Promise<void> {
    const values = {
      size: storedInteger(probe.size),
      mtime_ms: storedInteger(probe.mtimeMs),
      ino: storedInteger(probe.ino),
      probed_at: probe.probedAt,
      info: probe.info === null ? null : JSON.stringify(probe.info),
      error: probe.error,
    };
    await this.db
      .insertInto('media_probes')
      .values({ path: probe.path, ...values })
      .onConflict((oc) => oc.column('path').doUpdateSet(values))
      .execute();
  }

  /** Forgets the probes of these paths (files that are gone). */
  async delete(paths: readonly string[]): Promise<number> {
    let deleted = 0;
    // Both databases cap the parameters of one statement (SQLite: 32,766; PostgreSQL: 65,535).
    for (let i = 0; i < paths.length; i += 1000) {
      const result = await this.db
        .deleteFrom('media_probes')
        .where('path', 'in', paths.slice(i, i + 1000))
        .executeTakeFirst();
      deleted += Number(result.numDeletedRows);
    }
    return deleted;
  }
}
