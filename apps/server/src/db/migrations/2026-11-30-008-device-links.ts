import type { Kysely } from 'kysely';

/*
 * Signing in on another device with a code (decision 105): a pending link lives 10 minutes. Its code and
 * its poll token are kept as SHA-256 hashes only; an approval names the account, and the session is made
 * when the new device picks it up (no token is ever stored).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('device_links')
    .addColumn('id', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('code_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('poll_hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('device', 'text', (c) => c.notNull())
    .addColumn('user_agent', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('approved_by', 'varchar(32)', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('device_links_expires').on('device_links').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('device_links').execute();
}
