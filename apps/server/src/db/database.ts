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
  /** PostgreSQL: how long a request waits for a connection before failing (503); default 5 s. */
  connectTimeoutMs?: number;
  /** PostgreSQL `application_name` of our connections (tests find their own backends by it). */
  applicationName?: string;
  /** SQLite: how long a write waits for another writer's lock before failing (503); default 5 s. */
  busyTimeoutMs?: number;
  /** Where pool errors are reported (a dropped idle connection is logged, never fatal). */
  log?: { warn(details: object, message: string): void };
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
      // A database that does not answer fails the request (503) instead of holding it for ever.
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      // Dead peers (a failover without a reset) are noticed by the kernel, not only at the next query.
      keepAlive: true,
      ...(options.applicationName ? { application_name: options.applicationName } : {}),
      ...(options.pgSchema ? { options: `-c search_path=${options.pgSchema}` } : {}),
    });
    // A connection the server closes (restart, failover, pg_terminate_backend) emits 'error': on the
    // pool while idle, on the client while a query holds it. Without listeners Node ends the process;
    // the pool already drops such a client and opens a new one for the next query.
    const report = (error: Error) =>
      options.log?.warn({ err: error }, 'a database connection was lost; the pool replaces it');
    pool.on('error', report);
    pool.on('connect', (client) => client.on('error', report));
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
  sqlite.pragma(`busy_timeout = ${Math.max(0, Math.round(options.busyTimeoutMs ?? 5_000))}`);
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

/** PostgreSQL SQLSTATEs of a server that is going away or not taking connections (class 08, 57P01–57P03, 53300). */
const unavailableStates = new Set(['57P01', '57P02', '57P03', '53300']);
/** Socket errors of a database that cannot be reached. */
const socketCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
/** What pg and pg-pool say when a connection ends or cannot be had in time. */
const poolMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error and is not queryable',
  'Cannot use a pool after calling end on the pool',
];

const codeOf = (error: object): string | undefined => {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Why the database is unavailable, when `error` (or its cause) says it is not answering rather than
 * refusing a statement: connection refused, reset or timed out, the server shutting down, too many
 * connections, SQLite's lock held past the busy timeout. Null for every other error.
 */
export function databaseUnavailableReason(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 5; depth++) {
    const code = codeOf(e);
    if (code) {
      if (socketCodes.has(code)) return code;
      if (unavailableStates.has(code) || /^08[0-9A-Z]{3}$/.test(code)) return `SQLSTATE ${code}`;
      if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) return code;
    }
    const message = (e as { message?: unknown }).message;
    if (typeof message === 'string') {
      const known = poolMessages.find((m) => message.startsWith(m) || message.includes(m));
      if (known) return message.length > 120 ? known : message;
    }
    // Node reports a refused connection to every address of a name as an AggregateError.
    const errors = (e as { errors?: unknown }).errors;
    if (Array.isArray(errors)) {
      const inner = errors.map(databaseUnavailableReason).find((r) => r !== null);
      if (inner) return inner;
    }
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}
