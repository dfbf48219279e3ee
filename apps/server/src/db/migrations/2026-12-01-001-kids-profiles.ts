import type { Kysely } from 'kysely';

/*
 * Kids' profiles (decision 106): `profiles.content_limit` holds a kids' profile's limit as JSON text
 * (`ContentLimit`), NULL for every other profile; `sessions.kids_profile` is the kids' profile a device
 * entered, NULL when it is in none (the server then answers that session as the kid).
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('profiles').addColumn('content_limit', 'text').execute();
  await db.schema.alterTable('sessions').addColumn('kids_profile', 'varchar(36)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('kids_profile').execute();
  await db.schema.alterTable('profiles').dropColumn('content_limit').execute();
}
