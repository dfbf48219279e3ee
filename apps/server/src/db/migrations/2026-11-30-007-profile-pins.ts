import type { Kysely } from 'kysely';

/*
 * Profile PINs (decision 104): one row per locked profile ('' = the account's own), the PIN hashed like
 * passwords. `changed_at` is in every unlock token, so a new PIN (or none) ends the unlocks made before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('profile_pins')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('pin_hash', 'text', (c) => c.notNull())
    .addColumn('changed_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('profile_pins_pk', ['user_id', 'profile_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('profile_pins').execute();
}
