import type { Kysely } from 'kysely';
import { LIBRARY_TABLES, type Database, type ProfilesTable, type UsersTable } from '../../db/schema.ts';

export type ProfileRow = ProfilesTable;
type UserRow = UsersTable;

/** Email accounts, household profiles and admin roles (SQL only; rules live in CustomersService). */
export class CustomersRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Inserts unless the email is taken; false on that conflict (never a unique-violation error). */
  async insertIfEmailFree(row: UserRow): Promise<boolean> {
    const inserted = await this.db
      .insertInto('users')
      .values(row)
      .onConflict((oc) => oc.column('email').doNothing())
      .returning('id')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return this.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  }

  async setPasswordHash(userId: string, passwordHash: string): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ password_hash: passwordHash })
      .where('id', '=', userId)
      .execute();
  }

  async updateUser(userId: string, changes: { fullname?: string; profile?: string }): Promise<void> {
    if (Object.keys(changes).length === 0) return;
    await this.db.updateTable('users').set(changes).where('id', '=', userId).execute();
  }

  /** Writes the role list; the caller computed it from the current one. */
  async setRoles(userId: string, roles: string[]): Promise<void> {
    await this.db
      .updateTable('users')
      .set({ roles: JSON.stringify(roles) })
      .where('id', '=', userId)
      .execute();
  }

  async deleteOtherSessions(userId: string, keepSessionId: string): Promise<void> {
    await this.db
      .deleteFrom('sessions')
      .where('user_id', '=', userId)
      .where('id', '!=', keepSessionId)
      .execute();
  }

  // ---- household profiles ----

  listProfiles(userId: string, trx: Kysely<Database> = this.db): Promise<ProfileRow[]> {
    return trx
      .selectFrom('profiles')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('position')
      .orderBy('created_at')
      .orderBy('id')
      .execute();
  }

  findProfile(
    userId: string,
    profileId: string,
    trx: Kysely<Database> = this.db,
  ): Promise<ProfileRow | undefined> {
    return trx
      .selectFrom('profiles')
      .selectAll()
      .where('id', '=', profileId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }

  async insertProfile(row: ProfileRow, trx: Kysely<Database> = this.db): Promise<void> {
    await trx.insertInto('profiles').values(row).execute();
  }

  /** Changes a profile of `userId`; undefined when it is not theirs. */
  updateProfile(
    userId: string,
    profileId: string,
    changes: { fullname?: string; icon?: string; position?: number; content_limit?: string | null },
    trx: Kysely<Database> = this.db,
  ): Promise<ProfileRow | undefined> {
    if (Object.keys(changes).length === 0) return this.findProfile(userId, profileId, trx);
    return trx
      .updateTable('profiles')
      .set(changes)
      .where('id', '=', profileId)
      .where('user_id', '=', userId)
      .returningAll()
      .executeTakeFirst();
  }

  /** Deletes a profile of `userId` and every row of its library. True if it existed. */
  async deleteProfile(userId: string, profileId: string, trx: Kysely<Database>): Promise<boolean> {
    const result = await trx
      .deleteFrom('profiles')
      .where('id', '=', profileId)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) return false;
    for (const table of LIBRARY_TABLES) {
      await trx.deleteFrom(table).where('user_id', '=', userId).where('profile_id', '=', profileId).execute();
    }
    return true;
  }
}
