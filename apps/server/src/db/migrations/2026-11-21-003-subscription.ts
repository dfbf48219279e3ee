import type { Kysely } from 'kysely';

/*
 * Subscription site (issue 6): email accounts' names, household profiles, per-profile preferences,
 * memberships, payments and promo codes. Times are epoch ms; booleans 0/1; money as decimal text.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  // Email accounts: the name shown for the account's own profile (emails live in users.email already).
  await db.schema.alterTable('users').addColumn('fullname', 'varchar(255)').execute();

  await db.schema
    .createTable('profiles')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('fullname', 'varchar(255)', (c) => c.notNull())
    .addColumn('icon', 'varchar(32)', (c) => c.notNull())
    // Order on the "who's watching" screen: the order of the last list the user saved, new ones last.
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('profiles_user_id').on('profiles').column('user_id').execute();

  // Per-profile preferences (decision 040), synced with the other settings.
  await db.schema.alterTable('user_settings').addColumn('enable_autoplay', 'integer').execute();
  await db.schema.alterTable('user_settings').addColumn('subtitle_styling', 'text').execute();

  await db.schema
    .createTable('memberships')
    .addColumn('user_id', 'varchar(32)', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('ends_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('payments')
    .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
    .addColumn('user_id', 'varchar(32)', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('plan_id', 'integer', (c) => c.notNull())
    .addColumn('duration_months', 'integer', (c) => c.notNull())
    .addColumn('amount', 'varchar(32)', (c) => c.notNull())
    .addColumn('currency', 'varchar(8)', (c) => c.notNull())
    .addColumn('discount_rate', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('promo_code', 'varchar(64)')
    .addColumn('crypto', 'varchar(64)', (c) => c.notNull())
    .addColumn('crypto_display_name', 'varchar(128)', (c) => c.notNull())
    .addColumn('crypto_amount', 'varchar(64)')
    .addColumn('wallet', 'text')
    .addColumn('gateway', 'varchar(16)', (c) => c.notNull())
    .addColumn('gateway_invoice_id', 'varchar(64)')
    .addColumn('status', 'varchar(16)', (c) => c.notNull())
    .addColumn('balance_fiat', 'varchar(32)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('paid_at', 'bigint')
    .execute();
  await db.schema.createIndex('payments_user_status').on('payments').columns(['user_id', 'status']).execute();

  await db.schema
    .createTable('promo_codes')
    .addColumn('code', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('rate', 'integer', (c) => c.notNull())
    .addColumn('is_used', 'integer', (c) => c.notNull().defaultTo(0))
    // The payment request holding the code until it is paid, superseded or reserved_until passes.
    .addColumn('reserved_by', 'varchar(36)')
    .addColumn('reserved_until', 'bigint')
    .addColumn('used_by_payment', 'varchar(36)')
    .addColumn('used_at', 'bigint')
    .addColumn('created_by', 'varchar(32)')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('promo_codes_reserved_by').on('promo_codes').column('reserved_by').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['promo_codes', 'payments', 'memberships', 'profiles'])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable('user_settings').dropColumn('subtitle_styling').execute();
  await db.schema.alterTable('user_settings').dropColumn('enable_autoplay').execute();
  await db.schema.alterTable('users').dropColumn('fullname').execute();
}
