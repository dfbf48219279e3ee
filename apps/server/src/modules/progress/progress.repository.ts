import type { Kysely } from 'kysely';
import type { Database, ProgressItemsTable } from '../../db/schema.ts';
import type { LibraryRef } from '../library/library.ts';

export type ProgressRow = ProgressItemsTable;
export type ProgressKey = Pick<ProgressRow, 'tmdb_id' | 'media_type' | 'season_id' | 'episode_id'>;
const keyColumns = ['user_id', 'profile_id', 'tmdb_id', 'media_type', 'season_id', 'episode_id'] as const;

export interface DeletionRow {
  tmdb_id: string;
  media_type: 'movie' | 'show';
  season_id: string;
  episode_id: string;
  deleted_at: number;
}

/** Does a removal (season/episode '' = any) cover this row key? */
export const deletionCovers = (d: DeletionRow, k: ProgressKey) =>
  d.tmdb_id === k.tmdb_id &&
  d.media_type === k.media_type &&
  (d.season_id === '' || d.season_id === k.season_id) &&
  (d.episode_id === '' || d.episode_id === k.episode_id);

export class ProgressRepository {
  constructor(private readonly db: Kysely<Database>) {}

  list(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<ProgressRow[]> {
    return trx
      .selectFrom('progress_items')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .orderBy('updated_at', 'desc')
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
  deletionsOf(lib: LibraryRef, tmdbIds: string[] | null, trx: Kysely<Database> = this.db): Promise<DeletionRow[]> {
    let query = trx
      .selectFrom('progress_deletions')
      .select(['tmdb_id', 'media_type', 'season_id', 'episode_id', 'deleted_at'])
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
    const written = await trx
      .insertInto('progress_items')
      .values(row)
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
              }))
              .where('progress_items.updated_at', '<=', row.updated_at),
      )
      .returningAll()
      .executeTakeFirst();
    return written ?? (await this.find({ userId: row.user_id, profileId: row.profile_id }, row, trx))!;
  }

  /** Records a removal (keeping the latest time per key) and deletes the rows it covers that are not newer. */
  async remove(lib: LibraryRef, d: DeletionRow, trx: Kysely<Database>): Promise<number> {
    await trx
      .insertInto('progress_deletions')
      .values({ user_id: lib.userId, profile_id: lib.profileId, ...d })
      .onConflict((oc) =>
        oc
          .columns([...keyColumns])
          .doUpdateSet((eb) => ({ deleted_at: eb.ref('excluded.deleted_at') }))
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
    const result = await this.db.deleteFrom('progress_deletions').where('deleted_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
