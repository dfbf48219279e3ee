import { sql, type Kysely } from 'kysely';

/*
 * Big libraries (issue 10, decision 072): every library row and removal gets a change number (`seq`),
 * unique within its library and kind and increasing with every write, so clients can page through a
 * library and ask for what changed since their last read. `library_versions` holds each library's
 * latest number per kind (the ETag of its reads) and the highest number of removals the cleanup has
 * purged (a client that last read before that must read everything again).
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ['progress_items', 'progress_deletions', 'bookmarks']) {
    await db.schema
      .alterTable(table)
      .addColumn('seq', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  // Existing rows get numbers in the order of their change times: items first, then removals.
  await sql`
    UPDATE progress_items SET seq = numbered.n
    FROM (SELECT id, ROW_NUMBER() OVER (PARTITION BY user_id, profile_id ORDER BY updated_at, id) AS n FROM progress_items) AS numbered
    WHERE progress_items.id = numbered.id`.execute(db);
  await db.schema
    .createIndex('progress_items_library_seq')
    .on('progress_items')
    .columns(['user_id', 'profile_id', 'seq'])
    .execute();
  await sql`
    UPDATE progress_deletions SET seq = numbered.n + COALESCE((
      SELECT MAX(p.seq) FROM progress_items p
      WHERE p.user_id = progress_deletions.user_id AND p.profile_id = progress_deletions.profile_id), 0)
    FROM (
      SELECT user_id, profile_id, tmdb_id, media_type, season_id, episode_id,
        ROW_NUMBER() OVER (PARTITION BY user_id, profile_id ORDER BY deleted_at, tmdb_id, media_type, season_id, episode_id) AS n
      FROM progress_deletions) AS numbered
    WHERE progress_deletions.user_id = numbered.user_id AND progress_deletions.profile_id = numbered.profile_id
      AND progress_deletions.tmdb_id = numbered.tmdb_id AND progress_deletions.media_type = numbered.media_type
      AND progress_deletions.season_id = numbered.season_id AND progress_deletions.episode_id = numbered.episode_id`.execute(
    db,
  );
  await sql`
    UPDATE bookmarks SET seq = numbered.n
    FROM (
      SELECT user_id, profile_id, tmdb_id, media_type,
        ROW_NUMBER() OVER (PARTITION BY user_id, profile_id ORDER BY updated_at, tmdb_id, media_type) AS n
      FROM bookmarks) AS numbered
    WHERE bookmarks.user_id = numbered.user_id AND bookmarks.profile_id = numbered.profile_id
      AND bookmarks.tmdb_id = numbered.tmdb_id AND bookmarks.media_type = numbered.media_type`.execute(db);

  // Changes since a number; the full list in the older servers' order (latest change first).
  await db.schema
    .createIndex('progress_items_library_time')
    .on('progress_items')
    .columns(['user_id', 'profile_id', 'updated_at', 'seq'])
    .execute();
  await db.schema
    .createIndex('progress_deletions_library_seq')
    .on('progress_deletions')
    .columns(['user_id', 'profile_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('bookmarks_library_seq')
    .on('bookmarks')
    .columns(['user_id', 'profile_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('bookmarks_library_time')
    .on('bookmarks')
    .columns(['user_id', 'profile_id', 'updated_at', 'seq'])
    .execute();

  await db.schema
    .createTable('library_versions')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    // 'progress' | 'bookmarks'
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .addColumn('purged_seq', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('library_versions_pk', ['user_id', 'profile_id', 'kind'])
    .execute();
  await sql`
    INSERT INTO library_versions (user_id, profile_id, kind, version, purged_seq)
    SELECT user_id, profile_id, 'progress', MAX(seq), 0 FROM (
      SELECT user_id, profile_id, seq FROM progress_items
      UNION ALL SELECT user_id, profile_id, seq FROM progress_deletions) AS changes
    GROUP BY user_id, profile_id`.execute(db);
  await sql`
    INSERT INTO library_versions (user_id, profile_id, kind, version, purged_seq)
    SELECT user_id, profile_id, 'bookmarks', MAX(seq), 0 FROM bookmarks GROUP BY user_id, profile_id`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('library_versions').execute();
  for (const index of [
    'bookmarks_library_time',
    'bookmarks_library_seq',
    'progress_deletions_library_seq',
    'progress_items_library_time',
    'progress_items_library_seq',
  ]) {
    await db.schema.dropIndex(index).execute();
  }
  for (const table of ['bookmarks', 'progress_deletions', 'progress_items']) {
    await db.schema.alterTable(table).dropColumn('seq').execute();
  }
}
