import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database, ProgressItemsTable } from '../../db/schema.ts';
import { LibraryVersions } from '../library/library-versions.ts';
import type { LibraryRef, ListPosition } from '../library/library.ts';

export type ProgressRow = ProgressItemsTable;
export type ProgressKey = Pick<ProgressRow, 'tmdb_id' | 'media_type' | 'season_id' | 'episode_id'>;
const keyColumns = ['user_id', 'profile_id', 'tmdb_id', 'media_type', 'season_id', 'episode_id'] as const;

export interface DeletionRow {
  tmdb_id: string;
  media_type: 'movie' | 'show';
  season_id: string;
  episode_id: string;
  deleted_at: number;
  /** Change number (decision 072). */
  seq: number;
}

export const progressKeyOf = (k: ProgressKey) =>
  [k.tmdb_id, k.media_type, k.season_id, k.episode_id].join('\u0000');

/** Does a removal (season/episode '' = any) cover this row key? */
export const deletionCovers = (d: DeletionRow, k: ProgressKey) =>
  d.tmdb_id === k.tmdb_id &&
  d.media_type === k.media_type &&
  (d.season_id === '' || d.season_id === k.season_id) &&
  (d.episode_id === '' || d.episode_id === k.episode_id);

export class ProgressRepository {
  readonly versions: LibraryVersions;

  /** `dialect` decides how a whole list is read as one state (see wholeListJson). */
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect = 'sqlite',
  ) {
    this.versions = new LibraryVersions(db);
  }

  /** One slice of the whole list in the older servers' order (latest change first), after `from`. */
  listSlice(
    lib: LibraryRef,
    from: ListPosition | null,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<ProgressRow[]> {
    let query = trx
      .selectFrom('progress_items')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId);
    if (from)
      query = query.where((eb) =>
        eb(eb.refTuple('updated_at', 'seq'), '<', eb.tuple(from.updatedAt, from.seq)),
      );
    return query.orderBy('updated_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  }

  /** Rows changed after change number `after`, in the order of their changes. */
  changedAfter(
    lib: LibraryRef,
    after: number,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<ProgressRow[]> {
    return trx
      .selectFrom('progress_items')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  /** Removals recorded after change number `after`, in order. */
  removedAfter(
    lib: LibraryRef,
    after: number,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<DeletionRow[]> {
    return trx
      .selectFrom('progress_deletions')
      .select(['tmdb_id', 'media_type', 'season_id', 'episode_id', 'deleted_at', 'seq'])
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  async count(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<number> {
    const row = await trx
      .selectFrom('progress_items')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** The stored rows of these keys (a few hundred at a time). */
  findMany(
    lib: LibraryRef,
    keys: readonly ProgressKey[],
    trx: Kysely<Database> = this.db,
  ): Promise<ProgressRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return trx
      .selectFrom('progress_items')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where((eb) =>
        eb(
          eb.refTuple('tmdb_id', 'media_type', 'season_id', 'episode_id'),
          'in',
          keys.map((k) => eb.tuple(k.tmdb_id, k.media_type, k.season_id, k.episode_id)),
        ),
      )
      .execute();
  }

  find(lib: LibraryRef, key: ProgressKey, trx: Kysely<Database> = this.db): Promise<ProgressRow | undefined> {
    return trx
      .selectFrom('progress_items')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('tmdb_id', '=', key.tmdb_id)
      .where('media_type', '=', key.media_type)
      .where('season_id', '=', key.season_id)
      .where('episode_id', '=', key.episode_id)
      .executeTakeFirst();
  }

  /** Removals of this title recorded for the library (for checking writes against them). */
  deletionsOf(
    lib: LibraryRef,
    tmdbIds: string[] | null,
    trx: Kysely<Database> = this.db,
  ): Promise<DeletionRow[]> {
    let query = trx
      .selectFrom('progress_deletions')
      .select(['tmdb_id', 'media_type', 'season_id', 'episode_id', 'deleted_at', 'seq'])
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId);
    if (tmdbIds) query = query.where('tmdb_id', 'in', tmdbIds.length ? tmdbIds : ['']);
    return query.execute();
  }

  /**
   * Upserts unless the stored row changed later (`fillOnly`: never touches an existing row). One
   * atomic statement; returns the row as stored afterwards.
   */
  async write(row: ProgressRow, fillOnly: boolean, trx: Kysely<Database> = this.db): Promise<ProgressRow> {
    const [written] = await this.writeMany([row], fillOnly, trx);
    return written ?? (await this.find({ userId: row.user_id, profileId: row.profile_id }, row, trx))!;
  }

  /**
   * The same for many rows of one library in one statement (distinct keys); returns the rows it
   * wrote (not those it left alone).
   */
  writeMany(rows: ProgressRow[], fillOnly: boolean, trx: Kysely<Database>): Promise<ProgressRow[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return trx
      .insertInto('progress_items')
      .values(rows)
      .onConflict((oc) =>
        fillOnly
          ? oc.columns([...keyColumns]).doNothing()
          : oc
              .columns([...keyColumns])
              .doUpdateSet((eb) => ({
                season_number: eb.ref('excluded.season_number'),
                episode_number: eb.ref('excluded.episode_number'),
                meta: eb.ref('excluded.meta'),
                duration: eb.ref('excluded.duration'),
                watched: eb.ref('excluded.watched'),
                updated_at: eb.ref('excluded.updated_at'),
                seq: eb.ref('excluded.seq'),
              }))
              .whereRef('progress_items.updated_at', '<=', 'excluded.updated_at'),
      )
      .returningAll()
      .execute();
  }

  /** Records a removal (keeping the latest time per key) and deletes the rows it covers that are not newer. */
  async remove(lib: LibraryRef, d: DeletionRow, trx: Kysely<Database>): Promise<number> {
    await trx
      .insertInto('progress_deletions')
      .values({ user_id: lib.userId, profile_id: lib.profileId, ...d })
      .onConflict((oc) =>
        oc
          .columns([...keyColumns])
          .doUpdateSet((eb) => ({ deleted_at: eb.ref('excluded.deleted_at'), seq: eb.ref('excluded.seq') }))
          .where('progress_deletions.deleted_at', '<', d.deleted_at),
      )
      .execute();
    let query = trx
      .deleteFrom('progress_items')
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('tmdb_id', '=', d.tmdb_id)
      .where('media_type', '=', d.media_type)
      .where('updated_at', '<=', d.deleted_at);
    if (d.season_id) query = query.where('season_id', '=', d.season_id);
    if (d.episode_id) query = query.where('episode_id', '=', d.episode_id);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async deleteTombstonesBefore(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.versions.notePurge(trx, 'progress', before);
      const result = await trx
        .deleteFrom('progress_deletions')
        .where('deleted_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
