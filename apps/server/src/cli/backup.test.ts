import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, openDatabase, SQLITE_FILE, type DatabaseHandle } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';
import { backupBaseName, runBackupCommand } from './backup.ts';

const serverDir = path.resolve(import.meta.dirname, '../..');
const MIGRATIONS = Object.keys(migrations).length;

/** Runs a CLI entry point from source, as `npm run …` runs its build. */
function runCli(file: string, args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd: serverDir,
      env: { ...process.env, DATABASE_URL: '', REDIS_URL: '', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null;
const stop = async (child: ChildProcess, signal: NodeJS.Signals) => {
  if (hasExited(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
};

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { out, err, io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l) } };
}

/**
 * Another process writing to the database as fast as it can, like a busy server: each transaction adds
 * a row and bumps a counter, so a consistent copy has exactly as many rows as its counter says.
 */
const WRITER = `
const Database = require('better-sqlite3');
const db = new Database(process.argv[1]);
db.pragma('journal_mode = WAL');
db.pragma('busy_timeout = 5000');
const insert = db.prepare('insert into backup_probe (payload) values (?)');
const bump = db.prepare('update probe_counter set total = total + 1 where id = 1');
const write = db.transaction(() => { insert.run('w'.repeat(200)); bump.run(); });
let n = 0;
const tick = () => {
  for (let i = 0; i < 20; i++) write();
  if (++n === 5) process.stdout.write('writing\\n');
  setImmediate(tick);
};
tick();
`;

describe('npm run backup (SQLite)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-backup-'));
  const source = path.join(dataDir, SQLITE_FILE);
  let server: DatabaseHandle | undefined;
  let writer: ChildProcess | undefined;
  let writerErrors = '';

  const probe = (file: string) => {
    const db = new SQLite(file, { readonly: true, fileMustExist: true });
    try {
      return {
        rows: (db.prepare('select count(*) as n from backup_probe').get() as { n: number }).n,
        counter: (db.prepare('select total from probe_counter').get() as { total: number }).total,
        user: db.prepare("select id from users where id = 'u-backup'").get() as { id: string } | undefined,
        migrations: (db.prepare('select count(*) as n from kysely_migration').get() as { n: number }).n,
        integrity: db.pragma('integrity_check', { simple: true }),
        journal: db.pragma('journal_mode', { simple: true }),
      };
    } finally {
      db.close();
    }
  };

  beforeAll(async () => {
    // The server's database, as it opens it (WAL), with an account and enough rows that the copy
    // spans many pages (a copy in small steps would restart at every write).
    server = await openDatabase({ dataDir });
    await migrateToLatest(server.db);
    await server.db
      .insertInto('users')
      .values({
        id: 'u-backup',
        namespace: 'movie-web',
        public_key: 'k'.repeat(43),
        email: null,
        password_hash: null,
        roles: '[]',
        profile: '{}',
        created_at: Date.now(),
        last_logged_in: null,
        fullname: null,
      })
      .execute();
    const raw = new SQLite(source);
    raw.exec(`create table backup_probe (id integer primary key, payload text not null);
      create table probe_counter (id integer primary key check (id = 1), total integer not null);
      insert into probe_counter values (1, 0);`);
    const fill = raw.transaction(() => {
      for (let i = 0; i < 5000; i++)
        raw.prepare('insert into backup_probe (payload) values (?)').run('f'.repeat(200));
      raw.prepare('update probe_counter set total = 5000').run();
    });
    fill();
    raw.close();
  });

  afterAll(async () => {
    if (writer) await stop(writer, 'SIGKILL');
    await server?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('copies the live database while another process keeps writing; the copy is consistent and complete', async () => {
    writer = spawn(process.execPath, ['-e', WRITER, source], {
      cwd: serverDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writer.stderr!.on('data', (d: Buffer) => (writerErrors += d.toString()));
    await new Promise<void>((resolve, reject) => {
      writer!.stdout!.once('data', () => resolve());
      writer!.once('exit', (code) => reject(new Error(`writer exited ${code}: ${writerErrors}`)));
    });
    const before = probe(source).rows;

    const destination = path.join(dataDir, 'copies', 'nightly.sqlite');
    const { out, err, io } = capture();
    const code = await runBackupCommand({ DATABASE_URL: undefined, dataDir }, [destination], io);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out[0]).toMatch(
      new RegExp(
        `^backup written to ${destination.replaceAll('.', '\\.')} \\(\\d+\\.\\d MB, integrity ok, ${MIGRATIONS} migrations\\)$`,
      ),
    );

    const copy = probe(destination);
    expect(copy.integrity).toBe('ok');
    expect(copy.user).toEqual({ id: 'u-backup' });
    expect(copy.migrations).toBe(MIGRATIONS);
    // A snapshot: every transaction is either wholly in the copy or not at all.
    expect(copy.rows).toBe(copy.counter);
    expect(copy.rows).toBeGreaterThanOrEqual(before);
    // One self-contained file, no half-written leftovers beside it.
    expect(copy.journal).toBe('delete');
    expect(readdirSync(path.dirname(destination))).toEqual(['nightly.sqlite']);

    // The writer was never blocked or failed, and went on writing after the copy.
    await expect.poll(() => probe(source).rows, { timeout: 5000 }).toBeGreaterThan(copy.rows);
    expect(hasExited(writer)).toBe(false);
    expect(writerErrors).toBe('');
    await stop(writer, 'SIGTERM');

    // Restore as docs/operations.md says: stop, replace the file, delete -wal/-shm, start.
    await server!.destroy();
    server = undefined;
    copyFileSync(destination, source);
    rmSync(`${source}-wal`, { force: true });
    rmSync(`${source}-shm`, { force: true });
    server = await openDatabase({ dataDir });
    expect(await migrateToLatest(server.db)).toEqual([]);
    const restored = await server.db.selectFrom('users').select('id').execute();
    expect(restored).toEqual([{ id: 'u-backup' }]);
    expect(probe(source).rows).toBe(copy.rows);
  });

  it('names a timestamped file under DATA_DIR/backups by default and never overwrites a file', async () => {
    const now = new Date('2026-11-23T10:15:30.123Z');
    expect(backupBaseName(now)).toBe('marquee-2026-11-23T10-15-30Z');
    const first = capture();
    expect(await runBackupCommand({ dataDir }, [], first.io, () => now)).toBe(0);
    const expected = path.join(dataDir, 'backups', 'marquee-2026-11-23T10-15-30Z.sqlite');
    expect(first.out[0]).toContain(`backup written to ${expected} (`);
    expect(probe(expected).user).toEqual({ id: 'u-backup' });

    const again = capture();
    expect(await runBackupCommand({ dataDir }, [], again.io, () => now)).toBe(1);
    expect(again.err).toEqual([`${expected} already exists: name another file`]);
    expect(probe(expected).integrity).toBe('ok');
  });

  it('says what is wrong when there is no database or the file is the database itself', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'marquee-backup-empty-'));
    try {
      const none = capture();
      expect(await runBackupCommand({ dataDir: empty }, [], none.io)).toBe(1);
      expect(none.err[0]).toMatch(/^no database at .*marquee\.sqlite: check DATA_DIR/);
      const self = capture();
      expect(await runBackupCommand({ dataDir }, [source], self.io)).toBe(1);
      expect(self.err[0]).toMatch(/cannot replace the database itself/);
      const usage = capture();
      expect(await runBackupCommand({ dataDir }, ['--force'], usage.io)).toBe(2);
      expect(usage.err[0]).toMatch(/^usage: npm run backup/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });

  it('runs as a command: prints where the backup went, exit code 0', async () => {
    const result = await runCli('src/cli/backup.ts', [], { DATA_DIR: dataDir });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      new RegExp(
        `^backup written to ${path.join(dataDir, 'backups')}/marquee-\\d{4}-\\d\\d-\\d\\dT\\d\\d-\\d\\d-\\d\\dZ\\.sqlite `,
      ),
    );
  });
});

describe('npm run backup (PostgreSQL)', () => {
  it('tells the operator the exact pg_dump command, never the password, and exits non-zero', async () => {
    const url = 'postgres://marquee:s3cret-pw@db.internal:5432/marquee?sslmode=require';
    const { out, err, io } = capture();
    const code = await runBackupCommand(
      { DATABASE_URL: url, dataDir: '/nonexistent' },
      ['/backups/marquee.dump'],
      io,
    );
    expect(code).toBe(1);
    expect(out).toEqual([]);
    expect(err).toContain(
      "  pg_dump --format=custom --file='/backups/marquee.dump' 'postgres://marquee@db.internal:5432/marquee?sslmode=require'",
    );
    expect(err).toContain(
      "  pg_restore --clean --if-exists --no-owner --dbname='postgres://marquee@db.internal:5432/marquee?sslmode=require' '/backups/marquee.dump'",
    );
    expect(err.join('\n')).not.toContain('s3cret');
    expect(err.at(-1)).toMatch(/password is not shown/);
  });

  it('as a command, exits 1 with the advice on stderr', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'marquee-backup-pg-'));
    try {
      const result = await runCli('src/cli/backup.ts', [], {
        DATA_DIR: dir,
        DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/marquee',
      });
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(
        /\n {2}pg_dump --format=custom --file='[^']*marquee-[\dTZ-]+\.dump' 'postgres:\/\/postgres@127\.0\.0\.1:5432\/marquee'\n/,
      );
      // Nothing was written for a database it does not back up.
      expect(existsSync(path.join(dir, 'backups'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
