import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { BookmarksTable, Database } from '../../db/schema.ts';
import { LibraryVersions } from '../library/library-versions.ts';
import { countLiveRows, type LibraryRef, type ListPosition } from '../library/library.ts';

export type BookmarkRow = BookmarksTable;
export type BookmarkKey = Pick<BookmarkRow, 'tmdb_id' | 'media_type'>;
export const bookmarkKeyOf = (k: BookmarkKey) => `${k.tmdb_id}\u0000${k.media_type}`;

/** Which lists a write left out (the older clients send none): the stored bookmark's are kept. */
export interface BookmarkOmits {
  group: boolean;
  favoriteEpisodes: boolean;
}
/** A row to write; `omits` (not a column) says which of its lists stand for "keep what is stored". */
export type BookmarkWrite = BookmarkRow & { omits?: BookmarkOmits };

export class BookmarksRepository {
  readonly versions: LibraryVersions;

  /** `dialect` decides how a whole list is read as one state (see wholeListJson). */
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect = 'sqlite',
  ) {
    this.versions = new LibraryVersions(db);
  }

  /** One slice of the live bookmarks in the older servers' order (latest change first), after `from`. */
  listSlice(
    lib: LibraryRef,
    from: ListPosition | null,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<BookmarkRow[]> {
    let query = trx
      .selectFrom('bookmarks')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('deleted', '=', 0);
    if (from)
      query = query.where((eb) =>
        eb(eb.refTuple('updated_at', 'seq'), '<', eb.tuple(from.updatedAt, from.seq)),
      );
    return query.orderBy('updated_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  }

  /** Bookmarks and tombstones changed after change number `after`, in the order of their changes. */
  changedAfter(
    lib: LibraryRef,
    after: number,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<BookmarkRow[]> {
    return trx
      .selectFrom('bookmarks')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where('seq', '>', after)
      .orderBy('seq')
      .limit(limit)
      .execute();
  }

  countLive(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<number> {
    return countLiveRows(trx, 'bookmarks', lib);
  }

  /** The stored rows (tombstones too) of these keys (a few hundred at a time). */
  findMany(
    lib: LibraryRef,
    keys: readonly BookmarkKey[],
    trx: Kysely<Database> = this.db,
  ): Promise<BookmarkRow[]> {
    if (keys.length === 0) return Promise.resolve([]);
    return trx
      .selectFrom('bookmarks')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId)
      .where((eb) =>
        eb(
          eb.refTuple('tmdb_id', 'media_type'),
          'in',
          keys.map((k) => eb.tuple(k.tmdb_id, k.media_type)),
        ),
      )
      .execute();
  }

  find(
    lib: LibraryRef,
    tmdbId: string,
    mediaType: BookmarkRow['media_type'],
    trx: Kysely<Database> = this.db,
  ): Promise<BookmarkRow | undefined> {
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
   * (one atomic statement). Returns the row as stored afterwards.
   */
  async write(row: BookmarkWrite, trx: Kysely<Database>): Promise<BookmarkRow> {
    const [written] = await this.writeMany([row], false, trx);
    return (
      written ??
      (await this.find({ userId: row.user_id, profileId: row.profile_id }, row.tmdb_id, row.media_type, trx))!
    );
  }

  /**
   * The same for many rows of one library (distinct keys, all bookmarks or all tombstones), one
   * statement per kind of `omits` among them; `fillOnly` (undated imports) never touches a stored
   * row, tombstones included. Returns the rows it wrote (not those it left alone).
   */
  async writeMany(rows: BookmarkWrite[], fillOnly: boolean, trx: Kysely<Database>): Promise<BookmarkRow[]> {
    const byOmits = new Map<string, { omits: BookmarkOmits; rows: BookmarkRow[] }>();
    for (const { omits = { group: false, favoriteEpisodes: false }, ...row } of rows) {
      const key = `${omits.group}/${omits.favoriteEpisodes}`;
      const entry = byOmits.get(key) ?? { omits, rows: [] };
      entry.rows.push(row);
      byOmits.set(key, entry);
    }
    const written: BookmarkRow[] = [];
    for (const { omits, rows: part } of byOmits.values())
      written.push(...(await this.writeSome(part, omits, fillOnly, trx)));
    return written;
  }

  private writeSome(
    rows: BookmarkRow[],
    omits: BookmarkOmits,
    fillOnly: boolean,
    trx: Kysely<Database>,
  ): Promise<BookmarkRow[]> {
    const tombstones = rows[0]!.deleted === 1;
    return trx
      .insertInto('bookmarks')
      .values(rows)
      .onConflict((oc) => {
        const key = oc.columns(['user_id', 'profile_id', 'tmdb_id', 'media_type']);
        if (fillOnly) return key.doNothing();
        // A list the write left out stays as stored, unless the stored row is a tombstone: a bookmark
        // brought back starts from what the write says (its default, [], when it said nothing).
        const list = (column: 'group_names' | 'favorite_episodes', omitted: boolean) =>
          omitted
            ? sql<string>`case when bookmarks.deleted = 1 then excluded.${sql.ref(column)} else bookmarks.${sql.ref(column)} end`
            : sql<string>`excluded.${sql.ref(column)}`;
        return key
          .doUpdateSet((eb) => ({
            // A tombstone keeps the last meta it had; its lists are cleared.
            meta: tombstones ? eb.ref('bookmarks.meta') : eb.ref('excluded.meta'),
            group_names: list('group_names', omits.group),
            favorite_episodes: list('favorite_episodes', omits.favoriteEpisodes),
            deleted: eb.ref('excluded.deleted'),
            updated_at: eb.ref('excluded.updated_at'),
            seq: eb.ref('excluded.seq'),
          }))
          .whereRef('bookmarks.updated_at', '<=', 'excluded.updated_at');
      })
      .returningAll()
      .execute();
  }

  async deleteTombstonesBefore(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.versions.notePurge(trx, 'bookmarks', before);
      const result = await trx
        .deleteFrom('bookmarks')
        .where('deleted', '=', 1)
        .where('updated_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
