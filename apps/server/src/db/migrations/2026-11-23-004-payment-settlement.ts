import type { Kysely } from 'kysely';

/*
 * Money rules (issue 10, decision 073): what each payment was checked against and how the gateway's
 * reported balance compared, so admins can list under- and overpayments. Money as decimal text.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  // The plan's price before any promo discount (what is due when the discount does not hold).
  await db.schema.alterTable('payments').addColumn('list_amount', 'varchar(32)').execute();
  // The amount the last reported balance was checked against.
  await db.schema.alterTable('payments').addColumn('due_fiat', 'varchar(32)').execute();
  // NULL (nothing received yet), 'exact', 'underpaid' or 'overpaid'; and when it was last reported.
  await db.schema.alterTable('payments').addColumn('settlement', 'varchar(16)').execute();
  await db.schema.alterTable('payments').addColumn('settlement_at', 'bigint').execute();
  await db.schema
    .createIndex('payments_settlement')
    .on('payments')
    .columns(['settlement', 'created_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('payments_settlement').execute();
  for (const column of ['settlement_at', 'settlement', 'due_fiat', 'list_amount'])
    await db.schema.alterTable('payments').dropColumn(column).execute();
}
