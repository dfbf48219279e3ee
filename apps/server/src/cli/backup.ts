import { existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { SQLITE_FILE } from '../db/database.ts';
import { runAsCommand } from './run-command.ts';

/*
 * Operator command: npm run backup [-- <file>] (in a production tree: node apps/server/dist/backup.js).
 * Copies the SQLite database with SQLite's online backup while the server keeps running, checks the
 * copy and prints where it is. PostgreSQL databases are backed up with pg_dump: the command says how.
 */

const USAGE = 'usage: npm run backup [-- <file>]   (default: DATA_DIR/backups/marquee-<time>.sqlite)';

/** Pages per backup step: everything in one step (see backupSqlite). */
const ALL_PAGES = 0x7fffffff;

export interface BackupIo {
  out(line: string): void;
  err(line: string): void;
}

/** `marquee-2026-11-23T10-15-30Z`: sorts by time and is a valid file name everywhere (no colons). */
export function backupBaseName(now: Date): string {
  return `marquee-${now
    .toISOString()
    .replace(/\.\d+Z$/, 'Z')
    .replaceAll(':', '-')}`;
}

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** The pg_dump (and pg_restore) commands for a PostgreSQL DATABASE_URL, without its password. */
export function pgDumpAdvice(databaseUrl: string, file: string): string[] {
  const url = new URL(databaseUrl);
  const hasPassword = url.password !== '';
  url.password = '';
  const target = shellQuote(url.toString());
  return [
    'DATABASE_URL is PostgreSQL: back it up with pg_dump (a consistent copy, also while the servers run):',
    `  pg_dump --format=custom --file=${shellQuote(file)} ${target}`,
    'and restore it (into an empty or the same database, with the servers stopped) with:',
    `  pg_restore --clean --if-exists --no-owner --dbname=${target} ${shellQuote(file)}`,
    ...(hasPassword
      ? ['The password is not shown: pg_dump asks for it, or reads PGPASSWORD or ~/.pgpass.']
      : []),
  ];
}

export interface BackupReport {
  file: string;
  bytes: number;
  migrations: number;
}

/**
 * Copies a live SQLite database to `destination` and checks the copy. The copy is made in one backup
 * step, i.e. inside one read transaction: a consistent snapshot that writers (WAL) do not wait for.
 * (SQLite restarts a backup when another connection writes between two steps: in small steps, a busy
 * instance could keep it restarting.) The copy is written beside its final name and renamed only once it
 * passed `PRAGMA integrity_check`, so a file with the final name is always a good backup.
 */
export async function backupSqlite(source: string, destination: string): Promise<BackupReport> {
  const { default: SQLite } = await import('better-sqlite3');
  const partial = `${destination}.partial`;
  rmSync(partial, { force: true });
  const live = new SQLite(source, { fileMustExist: true });
  try {
    live.pragma('busy_timeout = 5000');
    await live.backup(partial, { progress: () => ALL_PAGES });
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  } finally {
    live.close();
  }
  let migrations = 0;
  const copy = new SQLite(partial, { fileMustExist: true });
  try {
    // One self-contained file (no -wal beside it): the server switches it back to WAL when it opens it.
    copy.pragma('journal_mode = DELETE');
    const rows = copy.pragma('integrity_check') as { integrity_check: string }[];
    const problems = rows.map((r) => r.integrity_check).filter((r) => r !== 'ok');
    if (problems.length > 0) throw new Error(`the copy failed its integrity check: ${problems.join('; ')}`);
    const hasMigrations = copy
      .prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'")
      .get();
    if (hasMigrations)
      migrations = (copy.prepare('select count(*) as n from kysely_migration').get() as { n: number }).n;
  } catch (error) {
    copy.close();
    rmSync(partial, { force: true });
    throw error;
  }
  copy.close();
  renameSync(partial, destination);
  return { file: destination, bytes: statSync(destination).size, migrations };
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export async function runBackupCommand(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  args: string[],
  io: BackupIo,
  now: () => Date = () => new Date(),
): Promise<number> {
  if (args.length > 1 || args[0]?.startsWith('-')) {
    io.err(USAGE);
    return 2;
  }
  const named = args[0] ? path.resolve(args[0]) : undefined;
  if (config.DATABASE_URL) {
    for (const line of pgDumpAdvice(config.DATABASE_URL, named ?? `${backupBaseName(now())}.dump`))
      io.err(line);
    return 1;
  }
  const source = path.join(config.dataDir, SQLITE_FILE);
  if (!existsSync(source)) {
    io.err(`no database at ${source}: check DATA_DIR (the server creates the database when it first starts)`);
    return 1;
  }
  const destination = named ?? path.join(config.dataDir, 'backups', `${backupBaseName(now())}.sqlite`);
  if (destination === source) {
    io.err('the backup cannot replace the database itself: name another file');
    return 1;
  }
  if (existsSync(destination)) {
    io.err(`${destination} already exists: name another file`);
    return 1;
  }
  mkdirSync(path.dirname(destination), { recursive: true });
  const report = await backupSqlite(source, destination);
  io.out(
    `backup written to ${report.file} (${megabytes(report.bytes)}, integrity ok, ${report.migrations} migrations)`,
  );
  io.out(
    `restore: stop the server, copy it over ${source}, delete ${SQLITE_FILE}-wal and ${SQLITE_FILE}-shm, start`,
  );
  return 0;
}

runAsCommand(import.meta.url, (config) =>
  runBackupCommand(config, process.argv.slice(2), {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  }),
);
