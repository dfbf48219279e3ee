import type { Kysely } from 'kysely';

/*
 * Ratings (issue 27, decision 103): one row per movie or show per library, a whole number 1–10, with the
 * title's meta (as bookmarks keep it), when it was rated and the change time. A removal keeps the row
 * as a tombstone (`deleted` = 1) so an older write cannot bring it back; change numbers (`seq`) as every
 * library kind has (decision 072).
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ratings')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addColumn('rated_at', 'bigint', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('ratings_pk', ['user_id', 'profile_id', 'tmdb_id', 'media_type'])
    .execute();
  await db.schema
    .createIndex('ratings_library_seq')
    .on('ratings')
    .columns(['user_id', 'profile_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('ratings_library_time')
    .on('ratings')
    .columns(['user_id', 'profile_id', 'updated_at', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('ratings').execute();
}
