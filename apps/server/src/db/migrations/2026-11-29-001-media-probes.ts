import type { Kysely } from 'kysely';

/*
 * What ffprobe said about each library file (decision 085, modules/media/media-prober.ts), keyed by its real
 * path and valid while size, mtime and inode are unchanged: a restart or another process reuses it
 * instead of probing the file again. `info` is MediaInfo as JSON, null when the file is not media.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('media_probes')
    .addColumn('path', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('mtime_ms', 'bigint', (c) => c.notNull())
    .addColumn('ino', 'bigint', (c) => c.notNull())
    .addColumn('probed_at', 'bigint', (c) => c.notNull())
    .addColumn('info', 'text')
    .addColumn('error', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('media_probes').execute();
}
