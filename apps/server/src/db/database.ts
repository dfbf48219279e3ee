import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type MigrationProvider } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Database } from './schema.ts';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  db: Kysely<Database>;
  dialect: Dialect;
  destroy(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgres://… selects PostgreSQL; absent selects SQLite in `dataDir`. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** PostgreSQL schema to use (tests isolate themselves this way). */
  pgSchema?: string;
  /** SQLite file name inside dataDir, or ':memory:'. */
  sqliteFile?: string;
}

/** The SQLite database's file name inside DATA_DIR (backups and restores name it). */
export const SQLITE_FILE = 'marquee.sqlite';

/** Opens the configured database. Only its driver is loaded (a SQLite process never loads pg, and back). */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const { default: pg } = await import('pg');
    // int8 (bigint) and numeric come back as strings by default; our values fit in a double.
    pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number.parseInt(v, 10));
    pg.types.setTypeParser(pg.types.builtins.NUMERIC, (v) => Number.parseFloat(v));
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', destroy: () => db.destroy() };
  }
  const file = options.sqliteFile ?? SQLITE_FILE;
  let target = file;
  if (file !== ':memory:') {
    mkdirSync(options.dataDir, { recursive: true });
    target = path.join(options.dataDir, file);
  }
  const { default: SQLite } = await import('better-sqlite3');
  const sqlite = new SQLite(target);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('synchronous = NORMAL');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', destroy: () => db.destroy() };
}

const provider: MigrationProvider = { getMigrations: async () => migrations };

/**
 * Applies every pending migration and returns the names of those it applied (none: up to date); throws
 * with the failing migration's name. `schema` (PostgreSQL) keeps Kysely's bookkeeping tables in that
 * schema: without it Kysely looks for them in every schema and, while other schemas of the same
 * database migrate at the same time, finds theirs. Concurrent calls on one PostgreSQL database are
 * safe: Kysely runs them one at a time under an advisory lock and re-reads what is applied inside it.
 */
export async function migrateToLatest(
  db: Kysely<Database>,
  options: { schema?: string } = {},
): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider,
    ...(options.schema ? { migrationTableSchema: options.schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? '(unknown)'} failed: ${String(error)}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
