import { randomBytes, randomUUID } from 'node:crypto';
import { Migrator, sql, type Kysely } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProgressListItem } from '@marquee/contract';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../src/db/database.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { BookmarksRepository } from '../src/modules/bookmarks/bookmarks.repository.ts';
import { BookmarksService } from '../src/modules/bookmarks/bookmarks.service.ts';
import { ProgressRepository } from '../src/modules/progress/progress.repository.ts';
import { ProgressService } from '../src/modules/progress/progress.service.ts';
import { testDatabaseUrl, testDialect } from './test-database.ts';

/*
 * Migration 2026-11-24-001 (decision 072) on a database that already holds libraries: every row and
 * removal gets a change number, unique within its library, and the libraries read as before.
 */

const THIS = '2026-11-24-001-library-changes';
const names = Object.keys(migrations);
const previous = names[names.indexOf(THIS) - 1]!;

/** A database migrated up to the migration before this one. */
async function databaseBefore(): Promise<{ handle: DatabaseHandle; schema?: string }> {
  if (!testDatabaseUrl) {
    const handle = await openDatabase({ dataDir: '/tmp', sqliteFile: ':memory:' });
    await new Migrator({ db: handle.db, provider: { getMigrations: async () => migrations } }).migrateTo(
      previous,
    );
    return { handle };
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testDatabaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const handle = await openDatabase({ databaseUrl: testDatabaseUrl, pgSchema: schema, dataDir: '/tmp' });
  const migrator = new Migrator({
    db: handle.db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: schema,
  });
  const { error } = await migrator.migrateTo(previous);
  if (error) throw error;
  return { handle, schema };
}

describe(`migration ${THIS} (${testDialect})`, () => {
  let opened: { handle: DatabaseHandle; schema?: string } | undefined;
  afterEach(async () => {
    if (!opened) return;
    if (opened.schema) await sql`DROP SCHEMA ${sql.id(opened.schema)} CASCADE`.execute(opened.handle.db);
    await opened.handle.destroy();
    opened = undefined;
  });

  it('numbers existing rows and removals per library; reads and writes carry on from there', async () => {
    opened = await databaseBefore();
    const db = opened.handle.db as unknown as Kysely<any>;
    const t0 = Date.UTC(2026, 0, 1);
    for (const id of ['u1', 'u2']) {
      await db
        .insertInto('users')
        .values({ id, namespace: 'movie-web', roles: '[]', profile: '{}', created_at: t0 })
        .execute();
    }
    const progress = (user: string, profile: string, tmdb: string, episode: string, at: number) => ({
      id: randomUUID(),
      user_id: user,
      profile_id: profile,
      tmdb_id: tmdb,
      media_type: episode ? 'show' : 'movie',
      season_id: episode ? 's1' : '',
      episode_id: episode,
      season_number: episode ? 1 : null,
      episode_number: episode ? 1 : null,
      meta: JSON.stringify({ title: tmdb, year: 2000, type: episode ? 'show' : 'movie' }),
      duration: 100,
      watched: 10,
      updated_at: at,
    });
    await db
      .insertInto('progress_items')
      .values([
        progress('u1', '', '1', 'e1', t0 + 3),
        progress('u1', '', '1', 'e2', t0 + 1),
        progress('u1', '', '2', '', t0 + 2),
        progress('u1', 'p1', '1', 'e1', t0 + 5),
        progress('u2', '', '9', '', t0 + 4),
      ])
      .execute();
    await db
      .insertInto('progress_deletions')
      .values({
        user_id: 'u1',
        profile_id: '',
        tmdb_id: '3',
        media_type: 'movie',
        season_id: '',
        episode_id: '',
        deleted_at: t0 + 9,
      })
      .execute();
    await db
      .insertInto('bookmarks')
      .values([
        {
          user_id: 'u1',
          profile_id: '',
          tmdb_id: '1',
          media_type: 'show',
          meta: JSON.stringify({ title: '1', year: 2000, type: 'show' }),
          deleted: 0,
          updated_at: t0 + 2,
        },
        {
          user_id: 'u1',
          profile_id: '',
          tmdb_id: '5',
          media_type: 'movie',
          meta: '{}',
          deleted: 1,
          updated_at: t0 + 1,
        },
      ])
      .execute();

    expect(await migrateToLatest(opened.handle.db, opened.schema ? { schema: opened.schema } : {})).toContain(
      THIS,
    );

    const seqs = async (table: string, user: string, profile: string) =>
      (
        await db
          .selectFrom(table)
          .select('seq')
          .where('user_id', '=', user)
          .where('profile_id', '=', profile)
          .execute()
      ).map((r) => Number(r.seq));
    const u1Progress = [
      ...(await seqs('progress_items', 'u1', '')),
      ...(await seqs('progress_deletions', 'u1', '')),
    ];
    expect(u1Progress.sort()).toEqual([1, 2, 3, 4]);
    expect(await seqs('progress_items', 'u1', 'p1')).toEqual([1]);
    expect(await seqs('progress_items', 'u2', '')).toEqual([1]);
    expect((await seqs('bookmarks', 'u1', '')).sort()).toEqual([1, 2]);
    const versions = await db
      .selectFrom('library_versions')
      .selectAll()
      .orderBy('user_id')
      .orderBy('profile_id')
      .orderBy('kind')
      .execute();
    expect(versions.map((v) => [v.user_id, v.profile_id, v.kind, Number(v.version)])).toEqual([
      ['u1', '', 'bookmarks', 2],
      ['u1', '', 'progress', 4],
      ['u1', 'p1', 'progress', 1],
      ['u2', '', 'progress', 1],
    ]);

    const now = () => t0 + 60_000;
    const service = new ProgressService(
      opened.handle.db,
      new ProgressRepository(opened.handle.db, opened.handle.dialect),
      now,
    );
    const lib = { userId: 'u1', profileId: '' };
    const whole = JSON.parse((await service.library.listJson(lib)).json.toString()) as ProgressListItem[];
    expect(whole.map((p) => [p.tmdbId, p.episode.id])).toEqual([
      ['1', 'e1'],
      ['2', null],
      ['1', 'e2'],
    ]);
    const page = await service.library.page(lib, { limit: 10 });
    expect(page).toMatchObject({ reset: true, next: null, version: '4', removed: [] });
    expect(page.items.map((p) => p.episode.id)).toEqual(['e2', null, 'e1']);
    await service.put(lib, {
      tmdbId: '7',
      meta: { title: '7', year: 2000, type: 'movie' },
      duration: 5,
      watched: 1,
    });
    const changes = await service.library.page(lib, { updatedSince: '4' });
    expect(changes.items.map((p) => p.tmdbId)).toEqual(['7']);
    expect(changes.version).toBe('5');

    const bookmarks = new BookmarksService(
      opened.handle.db,
      new BookmarksRepository(opened.handle.db, opened.handle.dialect),
      now,
    );
    expect(JSON.parse((await bookmarks.library.listJson(lib)).json.toString())).toEqual([
      {
        tmdbId: '1',
        meta: { title: '1', year: 2000, type: 'show' },
        // Bookmarks stored before groups existed (migration 2026-11-30-003) have none.
        group: [],
        favoriteEpisodes: [],
        updatedAt: new Date(t0 + 2).toISOString(),
      },
    ]);
  });
});
