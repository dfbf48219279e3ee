import type { Kysely } from 'kysely';
import type { Database, PasskeysTable } from '../../db/schema.ts';

export type PasskeyRow = PasskeysTable;

/** Passkeys of accounts (SQL only; the rules live in PasskeysService). */
export class PasskeysRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** False when the credential is already kept (by this account or another). */
  async insert(row: PasskeyRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('passkeys')
      .values(row)
      .onConflict((oc) => oc.column('id').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  find(id: string): Promise<PasskeyRow | undefined> {
    return this.db.selectFrom('passkeys').selectAll().where('id', '=', id).executeTakeFirst();
  }

  listOf(userId: string): Promise<PasskeyRow[]> {
    return this.db
      .selectFrom('passkeys')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();
  }

  async countOf(userId: string): Promise<number> {
    const row = await this.db
      .selectFrom('passkeys')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(row?.n ?? 0);
  }

  /**
   * A sign-in: the new counter and when. Only from the counter read (`from`): of two sign-ins with the
   * same signature, the second finds it moved and is refused.
   */
  async used(id: string, from: number, counter: number, at: number): Promise<boolean> {
    const result = await this.db
      .updateTable('passkeys')
      .set({ counter, last_used_at: at })
      .where('id', '=', id)
      .where('counter', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const result = await this.db
      .deleteFrom('passkeys')
      .where('user_id', '=', userId)
      .where('id', '=', id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }
}
