import type { Kysely } from 'kysely';

/*
 * Accounts and sync (issue 3). One users table is the way in for both kinds of account: passphrase
 * accounts have a public_key, email accounts (a later migration) an email; both are nullable and unique.
 * Library tables carry profile_id ('' = the account's own library) so household profiles can get their
 * own libraries without rebuilding primary keys. Times are epoch ms; JSON is stored as text.
 */
// Frozen in time: never edit a migration that has shipped; add a new one. Split per table only:
// the same statements, in the same order.
export async function up(db: Kysely<any>): Promise<void> {
  await createUsers(db);
  await createSessions(db);
  await createAuthChallenges(db);
  await createBookmarks(db);
  await createProgressItems(db);
  await createProgressDeletions(db);
  await createUserSettings(db);
  await createCaptchaSolutions(db);
  await createInstanceSecrets(db);
}

async function createUsers(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('namespace', 'varchar(255)', (c) => c.notNull())
    .addColumn('public_key', 'varchar(64)', (c) => c.unique())
    .addColumn('email', 'varchar(320)', (c) => c.unique())
    .addColumn('password_hash', 'text')
    .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('profile', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_logged_in', 'bigint')
    .execute();
}

async function createSessions(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sessions')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('accessed_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute();
}

async function createAuthChallenges(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('auth_challenges')
    .addColumn('code', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('flow', 'varchar(16)', (c) => c.notNull())
    .addColumn('public_key', 'varchar(64)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('auth_challenges_expires_at')
    .on('auth_challenges')
    .column('expires_at')
    .execute();
}

async function createBookmarks(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bookmarks')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('deleted', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('bookmarks_pk', ['user_id', 'profile_id', 'tmdb_id', 'media_type'])
    .execute();
}

async function createProgressItems(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('progress_items')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    // '' (not NULL) for movies, so the unique key holds on both databases.
    .addColumn('season_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('episode_id', 'varchar(64)', (c) => c.notNull().defaultTo(''))
    .addColumn('season_number', 'integer')
    .addColumn('episode_number', 'integer')
    .addColumn('meta', 'text', (c) => c.notNull())
    .addColumn('duration', 'bigint', (c) => c.notNull())
    .addColumn('watched', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('progress_items_key', [
      'user_id',
      'profile_id',
      'tmdb_id',
      'media_type',
      'season_id',
      'episode_id',
    ])
    .execute();
}

async function createProgressDeletions(db: Kysely<any>): Promise<void> {
  // Tombstones: a removal at deleted_at beats any write of a matching row made before it.
  // season_id / episode_id '' = any.
  await db.schema
    .createTable('progress_deletions')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('tmdb_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('media_type', 'varchar(8)', (c) => c.notNull())
    .addColumn('season_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('episode_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('deleted_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('progress_deletions_pk', [
      'user_id',
      'profile_id',
      'tmdb_id',
      'media_type',
      'season_id',
      'episode_id',
    ])
    .execute();
  await db.schema
    .createIndex('progress_deletions_deleted_at')
    .on('progress_deletions')
    .column('deleted_at')
    .execute();
}

async function createUserSettings(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    .addColumn('application_theme', 'varchar(64)')
    .addColumn('application_language', 'varchar(64)')
    .addColumn('default_subtitle_language', 'varchar(64)')
    .addColumn('proxy_urls', 'text')
    // {"applicationTheme": <epoch ms>, …}: when each field last changed (per-field last writer wins).
    .addColumn('changed_at', 'text', (c) => c.notNull().defaultTo('{}'))
    .addPrimaryKeyConstraint('user_settings_pk', ['user_id', 'profile_id'])
    .execute();
}

async function createCaptchaSolutions(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('captcha_solutions')
    .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('captcha_solutions_expires_at')
    .on('captcha_solutions')
    .column('expires_at')
    .execute();
}

async function createInstanceSecrets(db: Kysely<any>): Promise<void> {
  // Secrets the instance generates for itself when the operator sets none (shared by every process).
  await db.schema
    .createTable('instance_secrets')
    .addColumn('name', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'instance_secrets',
    'captcha_solutions',
    'user_settings',
    'progress_deletions',
    'progress_items',
    'bookmarks',
    'auth_challenges',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
