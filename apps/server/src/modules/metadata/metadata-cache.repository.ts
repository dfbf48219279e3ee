import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** How long an expired answer is kept, to be served when TMDB fails (decision 082). */
export const STALE_KEEP_MS = 7 * 24 * 3_600_000;

/** A cached answer and whether it is still within its time to live. */
export interface CacheEntry {
  value: string;
  /** false: expired, kept only to stand in while TMDB fails. */
  fresh: boolean;
}

/**
 * SQL for the shared metadata cache: one row per key with the time it expires. Expired rows are kept
 * `keepStaleMs` longer (stale answers for when TMDB fails), then swept.
 */
export class MetadataCacheRepository {
  constructor(
    private readonly db: Kysely<Database>,
    readonly keepStaleMs: number = STALE_KEEP_MS,
  ) {}

  /** The answer while it is fresh; undefined once it expired. */
  async get(key: string, now: number): Promise<string | undefined> {
    const entry = await this.lookup(key, now);
    return entry?.fresh ? entry.value : undefined;
  }

  /** The answer, fresh or (for `keepStaleMs` after it expired) stale; undefined when there is none. */
  async lookup(key: string, now: number): Promise<CacheEntry | undefined> {
    const row = await this.db
      .selectFrom('metadata_cache')
      .select(['value', 'expires_at'])
      .where('key', '=', key)
      .where('expires_at', '>', now - this.keepStaleMs)
      .executeTakeFirst();
    return row ? { value: row.value, fresh: Number(row.expires_at) > now } : undefined;
  }

  async set(key: string, value: string, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('metadata_cache')
      .values({ key, value, expires_at: expiresAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires_at: expiresAt }))
      .execute();
  }

  /** Deletes answers too old to be served even stale (expired more than `keepStaleMs` ago); says how many. */
  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('metadata_cache')
      .where('expires_at', '<=', now - this.keepStaleMs)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
