import type { Kysely } from 'kysely';

/*
 * What p-stream saves besides our settings, and its nickname (decision 094): `user_settings.extra` holds
 * those fields as JSON text (their secrets encrypted), NULL = none; `users.nickname` is NULL until set.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').addColumn('extra', 'text').execute();
  await db.schema.alterTable('users').addColumn('nickname', 'varchar(255)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('users').dropColumn('nickname').execute();
  await db.schema.alterTable('user_settings').dropColumn('extra').execute();
}
