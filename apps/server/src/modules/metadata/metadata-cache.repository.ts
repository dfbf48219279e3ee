import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/** SQL for the shared metadata cache: one row per key, expired rows ignored and swept. */
export class MetadataCacheRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async get(key: string, now: number): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('metadata_cache')
      .select('value')
      .where('key', '=', key)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return row?.value;
  }

  async set(key: string, value: string, expiresAt: number): Promise<void> {
    await this.db
      .insertInto('metadata_cache')
      .values({ key, value, expires_at: expiresAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, expires_at: expiresAt }))
      .execute();
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db
      .deleteFrom('metadata_cache')
      .where('expires_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
