import type { Kysely } from 'kysely';
import type { Database, SessionsTable } from '../../db/schema.ts';

export type SessionRow = SessionsTable;

export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: SessionRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('sessions').values(row).execute();
  }

  /** The live session a token hash belongs to. */
  findLiveByTokenHash(tokenHash: string, now: number): Promise<SessionRow | undefined> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  }

  findById(id: string): Promise<SessionRow | undefined> {
    return this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listLive(userId: string, now: number): Promise<SessionRow[]> {
    return this.db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('expires_at', '>', now)
      .orderBy('created_at')
      .execute();
  }

  async touch(id: string, accessedAt: number, expiresAt: number): Promise<void> {
    await this.db
      .updateTable('sessions')
      .set({ accessed_at: accessedAt, expires_at: expiresAt })
      .where('id', '=', id)
      .execute();
  }

  /** Which kids' profile the session (device) is in (decision 106); null: none. */
  async setKidsProfile(id: string, profileId: string | null): Promise<void> {
    await this.db.updateTable('sessions').set({ kids_profile: profileId }).where('id', '=', id).execute();
  }

  /** Renames a session of `userId`; undefined when it is not theirs or does not exist. */
  renameOwned(id: string, userId: string, device: string): Promise<SessionRow | undefined> {
    return this.db
      .updateTable('sessions')
      .set({ device })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes every session of `userId` but `keep`; answers the ids deleted. */
  async deleteOthers(userId: string, keep: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keep)
      .returning('id')
      .execute();
    return rows.map((r) => r.id);
  }

  async deleteOwned(id: string, userId: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('id', '=', id).where('user_id', '=', userId).execute();
  }

  /** Which of `ids` are live sessions now. */
  async liveIds(ids: readonly string[], now: number): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('sessions')
      .select('id')
      .where('id', 'in', ids)
      .where('expires_at', '>', now)
      .execute();
    return new Set(rows.map((r) => r.id));
  }

  async deleteExpired(now: number): Promise<number> {
    const result = await this.db.deleteFrom('sessions').where('expires_at', '<=', now).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
