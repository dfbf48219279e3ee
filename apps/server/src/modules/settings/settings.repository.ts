import type { Kysely } from 'kysely';
import type { Database, UserSettingsTable } from '../../db/schema.ts';
import type { LibraryRef } from '../library/library.ts';

export type SettingsRow = UserSettingsTable;

export class SettingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<SettingsRow | undefined> {
    return trx
      .selectFrom('user_settings')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .executeTakeFirst();
  }

  async save(row: SettingsRow, trx: Kysely<Database>): Promise<void> {
    const { user_id: _u, profile_id: _p, ...values } = row;
    await trx
      .insertInto('user_settings')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'profile_id']).doUpdateSet(values))
      .execute();
  }
}
