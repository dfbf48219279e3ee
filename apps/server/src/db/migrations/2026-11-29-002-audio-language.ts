import type { Kysely } from 'kysely';

/*
 * The preferred audio language of library titles (issue 24), synced with the other settings: an ISO 639
 * code, NULL = the UI language's.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('default_audio_language', 'varchar(8)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('default_audio_language').execute();
}
