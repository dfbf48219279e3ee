import type { Kysely } from 'kysely';

/*
 * Background jobs run once across the processes of an instance (issue 13, decision 079): each job has
 * one row saying when it may run next; a process runs it only if it moved that time forward itself.
 */
// Frozen in time: never edit a migration that has shipped; add a new one.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('job_runs')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('next_run_at', 'bigint', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_runs').execute();
}
