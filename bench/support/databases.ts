/**
 * Running a server benchmark on each database (`BENCH_DATABASES`, default both): SQLite as the server
 * makes it, PostgreSQL in a throw-away database on `BENCH_DATABASE_URL` (default 127.0.0.1:5432/test),
 * dropped afterwards. No PostgreSQL: said, and the SQLite figures stand.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';

const pgAdminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite,postgres').split(',').map((d) => d.trim());

/** Runs `runCase(label, serverEnv)` on SQLite, then on a fresh PostgreSQL database. */
export async function onEachDatabase(
  runCase: (label: string, env: Record<string, string>) => Promise<void>,
): Promise<void> {
  if (DATABASES.includes('sqlite')) await runCase('sqlite', {});
  if (!DATABASES.includes('postgres')) return;
  const dbName = `mq_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgAdminUrl });
  try {
    await admin.connect();
  } catch (error) {
    console.log(`postgres  skipped: no PostgreSQL at ${pgAdminUrl} (${String(error)})`);
    return;
  }
  await admin.query(`CREATE DATABASE ${dbName}`);
  try {
    const pgUrl = new URL(pgAdminUrl);
    pgUrl.pathname = `/${dbName}`;
    await runCase('postgres', { DATABASE_URL: pgUrl.toString() });
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await admin.end();
  }
}
