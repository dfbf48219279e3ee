import type { Kysely, Transaction } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import { LIBRARY_TABLES, type Database, type UsersTable } from '../../db/schema.ts';

export type UserRow = UsersTable;

export class UsersRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Dialect,
  ) {}

  /** Inserts unless the public key is taken; false on that conflict (never a unique-violation error). */
  async insertIfKeyFree(row: UserRow, trx: Kysely<Database> = this.db): Promise<boolean> {
    const inserted = await trx
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.column('public_key').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  findById(id: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByPublicKey(publicKey: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('public_key', '=', publicKey).executeTakeFirst();
  }

  async setLastLoggedIn(id: string, at: number, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.updateTable('users').set({ last_logged_in: at }).where('id', '=', id).execute();
  }

  /** Changes the profile (JSON text) and/or the nickname in one statement; the row after it. */
  async updateAccount(
    id: string,
    changes: { profile?: string; nickname?: string },
  ): Promise<UserRow | undefined> {
    return this.db.updateTable('users').set(changes).where('id', '=', id).returningAll().executeTakeFirst();
  }

  /** Removes the user and every row that belongs to them, in one transaction. True if the user existed. */
  async deleteWithData(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      for (const table of LIBRARY_TABLES) await trx.deleteFrom(table).where('user_id', '=', id).execute();
      await trx.deleteFrom('sessions').where('user_id', '=', id).execute();
      const result = await trx.deleteFrom('users').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    });
  }

  /** Users per namespace, the largest `limit` namespaces (for the user-count gauge). */
  async countByNamespace(limit: number): Promise<{ namespace: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('users')
      .select(['namespace', (eb) => eb.fn.countAll<number | string>().as('count')])
      .groupBy('namespace')
      .execute();
    const all = rows
      .map((r) => ({ namespace: r.namespace, count: Number(r.count) }))
      .sort((a, b) => b.count - a.count);
    const top = all.slice(0, limit);
    const rest = all.slice(limit).reduce((sum, r) => sum + r.count, 0);
    return rest > 0 ? [...top, { namespace: 'other', count: rest }] : top;
  }

  /**
   * Serialises one user's library writes across processes (PostgreSQL row lock until the transaction
   * ends). SQLite transactions are already exclusive.
   */
  async lockUser(trx: Transaction<Database>, id: string): Promise<void> {
    if (this.dialect === 'postgres')
      await trx.selectFrom('users').select('id').where('id', '=', id).forNoKeyUpdate().execute();
  }
}
