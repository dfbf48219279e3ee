import type { Kysely } from 'kysely';
import type { BookmarksTable, Database } from '../../db/schema.ts';
import type { LibraryRef } from '../library/library.ts';

export type BookmarkRow = BookmarksTable;

export class BookmarksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  listLive(lib: LibraryRef): Promise<BookmarkRow[]> {
    return this.db
      .selectFrom('bookmarks')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('deleted', '=', 0)
      .orderBy('updated_at', 'desc')
      .execute();
  }

  find(lib: LibraryRef, tmdbId: string, mediaType: BookmarkRow['media_type'], trx: Kysely<Database> = this.db): Promise<BookmarkRow | undefined> {
    return trx
      .selectFrom('bookmarks')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('tmdb_id', '=', tmdbId)
      .where('media_type', '=', mediaType)
      .executeTakeFirst();
  }

  /**
   * Writes the row (a bookmark, or a tombstone when deleted = 1) unless the stored one changed later
   * (one atomic statement). `onlyOverTombstone` (undated imports) never touches a live bookmark.
   * Returns the row as stored afterwards.
   */
  async write(row: BookmarkRow, options: { onlyOverTombstone?: boolean } = {}, trx: Kysely<Database> = this.db): Promise<BookmarkRow> {
    const written = await trx
      .insertInto('bookmarks')
      .values(row)
      .onConflict((oc) => {
        const update = oc
          .columns(['user_id', 'profile_id', 'tmdb_id', 'media_type'])
          .doUpdateSet((eb) => ({
            // A tombstone keeps the last meta it had.
            meta: row.deleted ? eb.ref('bookmarks.meta') : eb.ref('excluded.meta'),
            deleted: eb.ref('excluded.deleted'),
            updated_at: eb.ref('excluded.updated_at'),
          }))
          .where('bookmarks.updated_at', '<=', row.updated_at);
        return options.onlyOverTombstone ? update.where('bookmarks.deleted', '=', 1) : update;
      })
      .returningAll()
      .executeTakeFirst();
    return written ?? (await this.find({ userId: row.user_id, profileId: row.profile_id }, row.tmdb_id, row.media_type, trx))!;
  }

  async deleteTombstonesBefore(before: number): Promise<number> {
    const result = await this.db.deleteFrom('bookmarks').where('deleted', '=', 1).where('updated_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
