import type { Kysely } from 'kysely';

/*
 * Ratings ↔ Trakt (decision 103): the ledger of the ratings both sides held, with their value, at a
 * library's last pass, and the ratings version the pass saw (a change here since makes it due).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('trakt_ratings')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('rating', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('trakt_ratings_pk', ['user_id', 'profile_id', 'tmdb_id', 'media_type'])
    .execute();
  await db.schema
    .alterTable('trakt_links')
    .addColumn('ratings_version', 'bigint', (c) => c.notNull().defaultTo(-1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('trakt_links').dropColumn('ratings_version').execute();
  await db.schema.dropTable('trakt_ratings').execute();
}
