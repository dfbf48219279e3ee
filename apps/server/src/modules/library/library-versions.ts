import type { Kysely } from 'kysely';
import type { Database, LibraryVersionsTable } from '../../db/schema.ts';
import type { LibraryRef } from './library.ts';

export type LibraryKind = LibraryVersionsTable['kind'];

export interface LibraryVersion {
  /** The latest change number given out (0: nothing was ever written). */
  version: number;
  /** The highest change number among the removals the cleanup purged (0: none). */
  purged: number;
}

/** The table of each kind whose removals are tombstones (`deleted` = 1) among its rows. */
const tombstoneTables = {
  bookmarks: 'bookmarks',
  history: 'watch_history',
  ratings: 'ratings',
} as const satisfies Record<Exclude<LibraryKind, 'progress'>, keyof Database>;

/**
 * Change numbers of a library (decision 072). Every write of a library row or removal takes fresh
 * numbers in its transaction; the library's row in `library_versions` stays locked until the
 * transaction ends (on PostgreSQL; SQLite transactions are exclusive), so numbers are committed in the
 * order they were given: a reader that sees version V sees every change numbered up to V.
 */
export class LibraryVersions {
  constructor(private readonly db: Kysely<Database>) {}

  /** Takes `count` numbers for one write; returns the first (the others follow it). Call inside the write's transaction. */
  async reserve(trx: Kysely<Database>, lib: LibraryRef, kind: LibraryKind, count: number): Promise<number> {
    const row = await trx
      .insertInto('library_versions')
      .values({ user_id: lib.userId, profile_id: lib.profileId, kind, version: count, purged_seq: 0 })
      .onConflict((oc) =>
        oc.columns(['user_id', 'profile_id', 'kind']).doUpdateSet((eb) => ({
          version: eb('library_versions.version', '+', eb.ref('excluded.version')),
        })),
      )
      .returning('version')
      .executeTakeFirstOrThrow();
    return Number(row.version) - count + 1;
  }

  /**
   * Serialises the writes of one library and kind until the transaction ends, without taking a
   * number (for writes that first decide whether they change anything).
   */
  async lock(trx: Kysely<Database>, lib: LibraryRef, kind: LibraryKind): Promise<void> {
    await trx
      .insertInto('library_versions')
      .values({ user_id: lib.userId, profile_id: lib.profileId, kind, version: 0, purged_seq: 0 })
      .onConflict((oc) =>
        oc
          .columns(['user_id', 'profile_id', 'kind'])
          .doUpdateSet((eb) => ({ version: eb.ref('library_versions.version') })),
      )
      .execute();
  }

  async current(
    lib: LibraryRef,
    kind: LibraryKind,
    trx: Kysely<Database> = this.db,
  ): Promise<LibraryVersion> {
    const row = await trx
      .selectFrom('library_versions')
      .select(['version', 'purged_seq'])
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('kind', '=', kind)
      .executeTakeFirst();
    return { version: Number(row?.version ?? 0), purged: Number(row?.purged_seq ?? 0) };
  }

  /**
   * Before removals older than `before` are purged: remembers, per library that has such removals,
   * the highest change number among them, so a read of changes since an earlier number knows it
   * cannot be complete.
   */
  async notePurge(trx: Kysely<Database>, kind: LibraryKind, before: number): Promise<void> {
    const purged =
      kind !== 'progress'
        ? trx
            .selectFrom(tombstoneTables[kind])
            .select(['user_id', 'profile_id', (eb) => eb.fn.max('seq').as('m')])
            .where('deleted', '=', 1)
            .where('updated_at', '<', before)
            .groupBy(['user_id', 'profile_id'])
        : trx
            .selectFrom('progress_deletions')
            .select(['user_id', 'profile_id', (eb) => eb.fn.max('seq').as('m')])
            .where('deleted_at', '<', before)
            .groupBy(['user_id', 'profile_id']);
    await trx
      .updateTable('library_versions')
      .from(purged.as('p'))
      .set((eb) => ({ purged_seq: eb.ref('p.m') }))
      .whereRef('library_versions.user_id', '=', 'p.user_id')
      .whereRef('library_versions.profile_id', '=', 'p.profile_id')
      .where('library_versions.kind', '=', kind)
      .whereRef('p.m', '>', 'library_versions.purged_seq')
      .execute();
  }
}
