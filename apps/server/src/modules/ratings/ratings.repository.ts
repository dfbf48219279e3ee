import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database, RatingsTable } from '../../db/schema.ts';
import { LibraryVersions } from '../library/library-versions.ts';
import { countLiveRows, type LibraryRef, type ListPosition } from '../library/library.ts';

export type RatingRow = RatingsTable;
export type RatingKey = Pick<RatingRow, 'tmdb_id' | 'media_type'>;
export const ratingKeyOf = (k: RatingKey) => `${k.tmdb_id}\u0000${k.media_type}`;

/** What a rating's write changes besides its time: an equal-time write changing none of them is no change. */
const changeColumns = ['deleted', 'rating', 'rated_at', 'meta'] as const;
/** Rows read at a time by `liveRows`. */
const LIVE_ROWS_PAGE = 1000;

/** The ratings of every library (decision 103): one row per movie or show, a removal a tombstone. */
export class RatingsRepository {
  readonly versions: LibraryVersions;

  /** `dialect` decides how a whole list is read as one state (see wholeListJson). */
  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect = 'sqlite',
  ) {
    this.versions = new LibraryVersions(db);
  }

  private library(lib: LibraryRef, trx: Kysely<Database>) {
    return trx
      .selectFrom('ratings')
      .selectAll()
      .where('user_id', '=', lib.userId)
      .where('profile_id', '=', lib.profileId);
  }

  /** One slice of the live ratings, latest change first, after `from`. */
  listSlice(
    lib: LibraryRef,
    from: ListPosition | null,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<RatingRow[]> {
    let query = this.library(lib, trx).where('deleted', '=', 0);
    if (from)
      query = query.where((eb) =>
        eb(eb.refTuple('updated_at', 'seq'), '<', eb.tuple(from.updatedAt, from.seq)),
      );
    return query.orderBy('updated_at', 'desc').orderBy('seq', 'desc').limit(limit).execute();
  }

  /** Ratings and tombstones changed after change number `after`, in the order of their changes. */
  changedAfter(
    lib: LibraryRef,
    after: number,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<RatingRow[]> {
    return this.library(lib, trx).where('seq', '>', after).orderBy('seq').limit(limit).execute();
  }

  /** Every live rating of a library (p-stream's list, the Trakt pass), read a page at a time. */
  async liveRows(lib: LibraryRef): Promise<RatingRow[]> {
    const rows: RatingRow[] = [];
    for (let after = 0; ;) {
      const page = await this.library(lib, this.db)
        .where('deleted', '=', 0)
        .where('seq', '>', after)
        .orderBy('seq')
        .limit(LIVE_ROWS_PAGE)
        .execute();
      rows.push(...page);
      if (page.length < LIVE_ROWS_PAGE) return rows;
      after = Number(page.at(-1)!.seq);
    }
  }

  countLive(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<number> {
    return countLiveRows(trx, 'ratings', lib);
  }

  /**
   * The stored rows (tombstones too) of these keys (a few hundred at a time): those of their titles,
   * matched here (a list of row values is no index range on PostgreSQL).
   */
  async findMany(
    lib: LibraryRef,
    keys: readonly RatingKey[],
    trx: Kysely<Database> = this.db,
  ): Promise<RatingRow[]> {
    if (keys.length === 0) return [];
    const wanted = new Set(keys.map(ratingKeyOf));
    const rows = await this.library(lib, trx)
      .where('tmdb_id', 'in', [...new Set(keys.map((k) => k.tmdb_id))])
      .execute();
    return rows.filter((row) => wanted.has(ratingKeyOf(row)));
  }

  /**
   * Writes rows of one library (distinct keys; ratings or tombstones) unless the stored one changed
   * later — `changeWins` in SQL: equal times, the later arrival wins (the very same change again
   * writes nothing). `fillOnly` (undated imports) writes only where nothing is stored, tombstones
   * included. All rows must be ratings, or all tombstones. Returns the rows it wrote.
   */
  writeMany(rows: RatingRow[], fillOnly: boolean, trx: Kysely<Database>): Promise<RatingRow[]> {
    if (rows.length === 0) return Promise.resolve([]);
    const tombstones = rows[0]!.deleted === 1;
    return trx
      .insertInto('ratings')
      .values(rows)
      .onConflict((oc) => {
        const key = oc.columns(['user_id', 'profile_id', 'tmdb_id', 'media_type']);
        if (fillOnly) return key.doNothing();
        return (
          key
            // A tombstone keeps the last meta, value and date the rating had.
            .doUpdateSet((eb) =>
              tombstones
                ? {
                    deleted: eb.ref('excluded.deleted'),
                    updated_at: eb.ref('excluded.updated_at'),
                    seq: eb.ref('excluded.seq'),
                  }
                : {
                    meta: eb.ref('excluded.meta'),
                    rating: eb.ref('excluded.rating'),
                    rated_at: eb.ref('excluded.rated_at'),
                    deleted: eb.ref('excluded.deleted'),
                    updated_at: eb.ref('excluded.updated_at'),
                    seq: eb.ref('excluded.seq'),
                  },
            )
            // Equal times: the later arrival wins, unless it is the same change again (it changes
            // nothing, so an import sent twice writes nothing the second time).
            .where((eb) =>
              eb.or([
                eb('ratings.updated_at', '<', eb.ref('excluded.updated_at')),
                eb.and([
                  eb('ratings.updated_at', '=', eb.ref('excluded.updated_at')),
                  eb.or(
                    (tombstones ? (['deleted'] as const) : changeColumns).map((column) =>
                      eb(`ratings.${column}`, '<>', eb.ref(`excluded.${column}`)),
                    ),
                  ),
                ]),
              ]),
            )
        );
      })
      .returningAll()
      .execute();
  }

  async deleteTombstonesBefore(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.versions.notePurge(trx, 'ratings', before);
      const result = await trx
        .deleteFrom('ratings')
        .where('deleted', '=', 1)
        .where('updated_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
