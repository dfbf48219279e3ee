import type { Kysely } from 'kysely';

/*
 * p-stream's bookmark groups and favourite episodes (JSON string arrays on each bookmark, '[]' for
 * every bookmark stored before) and its per-library order of groups.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookmarks')
    .addColumn('group_names', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('bookmarks')
    .addColumn('favorite_episodes', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .createTable('group_orders')
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('profile_id', 'varchar(36)', (c) => c.notNull().defaultTo(''))
    // JSON string[]
    .addColumn('group_order', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('group_orders_pk', ['user_id', 'profile_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('group_orders').execute();
  await db.schema.alterTable('bookmarks').dropColumn('favorite_episodes').execute();
  await db.schema.alterTable('bookmarks').dropColumn('group_names').execute();
}
