import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabaseUrl, testDialect } from '../../test/test-database.ts';
import { openDatabase } from '../db/database.ts';
import { migrations } from '../db/migrations/index.ts';
import { runMigrateCommand } from './migrate.ts';

const serverDir = path.resolve(import.meta.dirname, '../..');
const NAMES = Object.keys(migrations).sort();
/** The PostgreSQL that CI and developer machines run, unless the suite names one. */
const pgAdminUrl = testDatabaseUrl ?? 'postgres://postgres@127.0.0.1:5432/test';

function runCli(args: string[], env: Record<string, string>) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/migrate.ts', ...args], {
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

/** A new, empty PostgreSQL database (not a schema: the command migrates what DATABASE_URL names). */
async function createPgDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `mq_migrate_${randomBytes(5).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  await admin.connect().catch((error: unknown) => {
    throw new Error(`PostgreSQL is required at ${pgAdminUrl} (CI runs it): ${String(error)}`);
  });
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(pgAdminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: pgAdminUrl });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

describe(`npm run db:migrate (${testDialect})`, () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-migrate-'));
  let config: { DATABASE_URL?: string; dataDir: string };
  let where: string;
  let drop = async () => {};

  beforeAll(async () => {
    if (testDialect === 'postgres') {
      const database = await createPgDatabase();
      drop = database.drop;
      config = { DATABASE_URL: database.url, dataDir };
      const url = new URL(database.url);
      where = `PostgreSQL ${url.host}${url.pathname}`;
    } else {
      config = { dataDir };
      where = `SQLite ${path.join(dataDir, 'marquee.sqlite')}`;
    }
  });

  afterAll(async () => {
    await drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies every migration to a fresh database and lists them; a second run is up to date', async () => {
    const first: string[] = [];
    expect(await runMigrateCommand(config, (l) => first.push(l))).toBe(0);
    expect(first).toEqual([`${where}: applied ${NAMES.length} migrations`, ...NAMES.map((n) => `  ${n}`)]);

    const second: string[] = [];
    expect(await runMigrateCommand(config, (l) => second.push(l))).toBe(0);
    expect(second).toEqual([`${where}: up to date`]);

    // The schema is there: the tables the server uses answer.
    const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir });
    try {
      expect(await database.db.selectFrom('users').select('id').execute()).toEqual([]);
    } finally {
      await database.destroy();
    }
  });

  it('runs as a command with the server’s settings: lists, then up to date, exit code 0', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'marquee-migrate-cli-'));
    try {
      // SQLite in a new DATA_DIR, or the database the suite configured (migrated by the test above).
      const env: Record<string, string> = { DATA_DIR: fresh };
      if (config.DATABASE_URL) env.DATABASE_URL = config.DATABASE_URL;
      const result = await runCli([], env);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      if (config.DATABASE_URL) expect(result.stdout).toBe(`${where}: up to date\n`);
      else
        expect(result.stdout).toBe(
          [
            `SQLite ${path.join(fresh, 'marquee.sqlite')}: applied ${NAMES.length} migrations`,
            ...NAMES.map((n) => `  ${n}`),
            '',
          ].join('\n'),
        );
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('stops on an invalid setting with the server’s message and exit code 2, touching nothing', async () => {
    const fresh = mkdtempSync(path.join(tmpdir(), 'marquee-migrate-bad-'));
    try {
      const result = await runCli([], {
        DATA_DIR: path.join(fresh, 'data'),
        DATABASE_URL: 'mysql://db/marquee',
      });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/^Invalid configuration.*DATABASE_URL/m);
      expect(result.stdout).toBe('');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });
});

describe('db:migrate run by several processes at once on one PostgreSQL database', () => {
  let database: { url: string; drop(): Promise<void> } | undefined;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'marquee-migrate-concurrent-'));

  beforeAll(async () => {
    database = await createPgDatabase();
  });
  afterAll(async () => {
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('applies each migration exactly once (replicas starting together migrate safely)', async () => {
    const outputs: string[][] = [[], [], []];
    const codes = await Promise.all(
      outputs.map((lines) =>
        runMigrateCommand({ DATABASE_URL: database!.url, dataDir }, (l) => lines.push(l)),
      ),
    );
    expect(codes).toEqual([0, 0, 0]);
    const applied = outputs.flatMap((lines) => lines.filter((l) => l.startsWith('  ')).map((l) => l.trim()));
    expect(applied.sort()).toEqual(NAMES);
    expect(outputs.filter((lines) => lines[0]!.endsWith(': up to date'))).toHaveLength(2);
  });
});
