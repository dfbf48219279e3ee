import type { Kysely } from 'kysely';

/*
 * Watch history (issue 27, decision 095): one row per play of a movie or an episode, keyed by the title,
 * the episode ('' for movies, as progress does) and when it was watched. A removal keeps the row as a
 * tombstone (`deleted` = 1) so an older write of that play cannot bring it back; change numbers (`seq`)
 * as every library kind has (decision 072).
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('watch_history')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('season_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('episode_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('watched_at', 'bigint', (c) => c.notNull())
    .addColumn('season_number', 'integer')
    .addColumn('episode_number', 'integer')
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('duration', 'double precision', (c) => c.notNull())
    .addColumn('watched', 'double precision', (c) => c.notNull())
    .addColumn('completed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('watch_history_pk', [
      'user_id',
      'profile_id',
      'tmdb_id',
      'media_type',
      'season_id',
      'episode_id',
      'watched_at',
    ])
    .execute();
  await db.schema
    .createIndex('watch_history_library_seq')
    .on('watch_history')
    .columns(['user_id', 'profile_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('watch_history_library_time')
    .on('watch_history')
    .columns(['user_id', 'profile_id', 'updated_at', 'seq'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('watch_history').execute();
}
