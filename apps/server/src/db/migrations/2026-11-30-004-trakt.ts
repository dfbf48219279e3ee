import type { Kysely } from 'kysely';

/*
 * The server's two-way Trakt sync (decision 101): one link per library (its tokens sealed), and two
 * ledgers of what each side holds: plays (a Marquee play and the Trakt play it is) and watchlist items.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('trakt_links')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    // unlinked | pending | linked | relink
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('device_code', 'text')
    .addColumn('user_code', 'varchar(32)')
    .addColumn('verification_url', 'text')
    .addColumn('device_expires_at', 'bigint')
    .addColumn('poll_interval_ms', 'bigint')
    .addColumn('next_poll_at', 'bigint')
    .addColumn('access_token', 'text')
    .addColumn('refresh_token', 'text')
    .addColumn('token_expires_at', 'bigint')
    .addColumn('username', 'text')
    .addColumn('linked_at', 'bigint')
    .addColumn('last_sync_at', 'bigint')
    .addColumn('next_sync_at', 'bigint')
    .addColumn('lease_until', 'bigint', (c) => c.notNull().defaultTo(0))
    // JSON of Trakt's last_activities at the last good pull
    .addColumn('activities', 'text')
    .addColumn('history_version', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('bookmarks_version', 'bigint', (c) => c.notNull().defaultTo(-1))
    .addColumn('problem', 'varchar(32)')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('trakt_links_pk', ['user_id', 'profile_id'])
    .execute();
  await db.schema
    .createTable('trakt_plays')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    // m:<tmdb> or e:<show tmdb>:<season>:<episode>
    .addColumn('item', 'varchar(96)', (c) => c.notNull())
    // The Marquee play (its key in watch_history), when there is one
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('season_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('episode_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('marquee_at', 'bigint')
    // The Trakt play: its history id once known, and its time
    .addColumn('trakt_id', 'varchar(32)')
    .addColumn('trakt_at', 'bigint')
    // pushed | scrobbled | matched | pulled | unknown (Trakt did not know the title)
    .addColumn('origin', 'varchar(16)', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('trakt_plays_item')
    .on('trakt_plays')
    .columns(['user_id', 'profile_id', 'item'])
    .execute();
  await db.schema
    .createTable('trakt_watchlist')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addPrimaryKeyConstraint('trakt_watchlist_pk', ['user_id', 'profile_id', 'tmdb_id', 'media_type'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('trakt_watchlist').execute();
  await db.schema.dropTable('trakt_plays').execute();
  await db.schema.dropTable('trakt_links').execute();
}
