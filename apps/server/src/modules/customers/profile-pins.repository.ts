import type { Kysely } from 'kysely';
import type { Database, ProfilePinsTable } from '../../db/schema.ts';

export type ProfilePinRow = ProfilePinsTable;

/** Profile PINs (SQL only; the rules live in ProfileLocks). profile_id '' is the account's own profile. */
export class ProfilePinsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  find(userId: string, profileId: string): Promise<ProfilePinRow | undefined> {
    return this.db
      .selectFrom('profile_pins')
      .selectAll()
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .executeTakeFirst();
  }

  /** The ids of the account's locked profiles ('' for its own). */
  async lockedIds(userId: string): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('profile_pins')
      .select('profile_id')
      .where('user_id', '=', userId)
      .execute();
    return new Set(rows.map((r) => r.profile_id));
  }

  async put(row: ProfilePinRow): Promise<void> {
    await this.db
      .insertInto('profile_pins')
      .values(row)
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'profile_id'])
          .doUpdateSet({ pin_hash: row.pin_hash, changed_at: row.changed_at }),
      )
      .execute();
  }

  async remove(userId: string, profileId: string): Promise<void> {
    await this.db
      .deleteFrom('profile_pins')
      .where('user_id', '=', userId)
      .where('profile_id', '=', profileId)
      .execute();
  }
}
