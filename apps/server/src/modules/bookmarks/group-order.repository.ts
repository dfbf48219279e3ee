import type { Kysely } from 'kysely';
import type { Database, GroupOrdersTable } from '../../db/schema.ts';
import type { LibraryRef } from '../library/library.ts';

export type GroupOrderRow = GroupOrdersTable;

/** p-stream's order of bookmark groups, one row per library (SQL only). */
export class GroupOrderRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(lib: LibraryRef): Promise<GroupOrderRow | undefined> {
    return this.db
      .selectFrom('group_orders')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .executeTakeFirst();
  }

  /** Replaces the library's order (one atomic upsert). */
  async save(row: GroupOrderRow): Promise<void> {
    await this.db
      .insertInto('group_orders')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['user_id', 'profile_id']).doUpdateSet((eb) => ({
          group_order: eb.ref('excluded.group_order'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
