import path from 'node:path';
import type { Config } from '../config.ts';
import { migrateToLatest, openDatabase, SQLITE_FILE } from '../db/database.ts';
import { describeDatabase, runAsCommand } from './run-command.ts';

/*
 * Operator command: npm run db:migrate (in a production tree: node apps/server/dist/migrate.js).
 * Applies the pending migrations to the configured database (DATABASE_URL, else SQLite in DATA_DIR) and
 * lists them. Every server start does the same; this lets an upgrade change the schema before the new
 * version's processes start, and shows what a database has.
 */

export async function runMigrateCommand(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  out: (line: string) => void,
): Promise<number> {
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  try {
    const where = describeDatabase(config, path.join(config.dataDir, SQLITE_FILE));
    const applied = await migrateToLatest(database.db);
    if (applied.length === 0) {
      out(`${where}: up to date`);
      return 0;
    }
    out(`${where}: applied ${applied.length} migration${applied.length === 1 ? '' : 's'}`);
    for (const name of applied) out(`  ${name}`);
    return 0;
  } finally {
    await database.destroy();
  }
}

runAsCommand(import.meta.url, (config) => runMigrateCommand(config, (line) => console.log(line)));
