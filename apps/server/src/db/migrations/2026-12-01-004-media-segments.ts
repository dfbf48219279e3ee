import type { Kysely } from 'kysely';

/*
 * Skippable segments of library videos (decision 111), by library file id and version of the file
 * (`<size>-<mtime ms>`: a replaced file is another version):
 * - `media_segment_marks`: where a viewer says a segment is (one per file, type and account), shared on
 *   the instance; they go with the account.
 * - `media_segment_detections`: what detection found in a file (its intro and credits, or none), for the
 *   group of files it was compared with (`group_key`: a season's episodes and their versions).
 * - `media_segment_analyses`: what detection read from a file — the fingerprints of its first and last
 *   minutes (base64 of the raw points) and its black frames before the end — kept so a season that gets
 *   a new episode compares again without reading the others again.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_segment_marks')
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('type', 'varchar(16)', (c) => c.notNull())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('file_version', 'varchar(64)', (c) => c.notNull())
    .addColumn('start_ms', 'bigint', (c) => c.notNull())
    .addColumn('end_ms', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_segment_marks_pk', ['file_id', 'type', 'user_id'])
    .execute();
  await db.schema
    .createIndex('media_segment_marks_user')
    .on('media_segment_marks')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('media_segment_detections')
    .addColumn('file_id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('file_version', 'varchar(64)', (c) => c.notNull())
    .addColumn('group_key', 'varchar(64)', (c) => c.notNull())
    .addColumn('state', 'varchar(16)', (c) => c.notNull())
    .addColumn('intro_start_ms', 'bigint')
    .addColumn('intro_end_ms', 'bigint')
    .addColumn('credits_start_ms', 'bigint')
    .addColumn('credits_end_ms', 'bigint')
    .addColumn('detail', 'text')
    .addColumn('detected_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('media_segment_analyses')
    .addColumn('file_id', 'varchar(64)', (c) => c.notNull())
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('file_version', 'varchar(64)', (c) => c.notNull())
    .addColumn('offset_ms', 'bigint', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('made_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('media_segment_analyses_pk', ['file_id', 'kind'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_segment_analyses').execute();
  await db.schema.dropTable('media_segment_detections').execute();
  await db.schema.dropTable('media_segment_marks').execute();
}
