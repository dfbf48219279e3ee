import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';

/**
 * The database the tests run on: PostgreSQL when TEST_DATABASE_URL is set (CI runs the suite twice),
 * otherwise an in-memory SQLite. Each call gets its own empty, migrated database.
 */
export const testDatabaseUrl = process.env.TEST_DATABASE_URL || undefined;
export const testRedisUrl = process.env.TEST_REDIS_URL || undefined;
export const testDialect = testDatabaseUrl ? 'postgres' : 'sqlite';

export interface TestDatabase extends DatabaseHandle {
  /** Options that open the same database again (a second server process, say). */
  options: { databaseUrl?: string; pgSchema?: string; dataDir: string; sqliteFile?: string };
}

export async function createTestDatabase(dataDir = '/tmp'): Promise<TestDatabase> {
  if (!testDatabaseUrl) {
    const handle = await openDatabase({ dataDir, sqliteFile: ':memory:' });
    await migrateToLatest(handle.db);
    return { ...handle, options: { dataDir, sqliteFile: ':memory:' } };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = await openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, dataDir });
  await migrateToLatest(handle.db, { schema });
  return {
    ...handle,
    options: { databaseUrl: testDatabaseUrl, pgSchema: schema, dataDir },
    async destroy() {
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(handle.db);
      await handle.destroy();
    },
  };
}
