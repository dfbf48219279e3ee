import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../db/database.ts';
import type { Database, WatchHistoryTable } from '../../db/schema.ts';
import { LibraryVersions } from '../library/library-versions.ts';
import { countLiveRows, type LibraryRef, type ListPosition } from '../library/library.ts';

export type HistoryRow = WatchHistoryTable;
/** One movie or episode; a play of it adds `watched_at`. */
export type HistoryTitleKey = Pick<HistoryRow, 'tmdb_id' | 'media_type' | 'season_id' | 'episode_id'>;
export type HistoryKey = HistoryTitleKey & Pick<HistoryRow, 'watched_at'>;
const keyColumns = [
  'user_id',
  'profile_id',
  'tmdb_id',
  'media_type',
  'season_id',
  'episode_id',
  'watched_at',
] as const;

export const historyKeyOf = (k: HistoryKey) =>
  [k.tmdb_id, k.media_type, k.season_id, k.episode_id, k.watched_at].join('\u0000');

/** What a removal names: a title (season/episode '' = any), a season, an episode, or one play. */
export interface HistoryRemoval {
  tmdb_id: string;
  media_types: readonly HistoryRow['media_type'][];
  season_id: string;
  episode_id: string;
  watched_at: number | null;
}

export class HistoryRepository {
  readonly versions: LibraryVersions;

  constructor(
    private readonly db: Kysely<Database>,
    readonly dialect: Dialect = 'sqlite',
  ) {
    this.versions = new LibraryVersions(db);
  }

  private library(lib: LibraryRef, trx: Kysely<Database>) {
    return trx
      .selectFrom('watch_history as h')
      .selectAll('h')
      .where('h.user_id', '=', lib.userId)
      .where('h.profile_id', '=', lib.profileId);
  }

  /**
   * One slice of the whole list in the older servers' order (latest change first), after `from`: the
   * latest play of each movie or episode, the one entry per title p-stream's client keeps.
   */
  listSlice(
    lib: LibraryRef,
    from: ListPosition | null,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<HistoryRow[]> {
    let query = this.library(lib, trx)
      .where('h.deleted', '=', 0)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('watch_history as later')
              .select(sql`1`.as('one'))
              .whereRef('later.user_id', '=', 'h.user_id')
              .whereRef('later.profile_id', '=', 'h.profile_id')
              .whereRef('later.tmdb_id', '=', 'h.tmdb_id')
              .whereRef('later.media_type', '=', 'h.media_type')
              .whereRef('later.season_id', '=', 'h.season_id')
              .whereRef('later.episode_id', '=', 'h.episode_id')
              .whereRef('later.watched_at', '>', 'h.watched_at')
              .where('later.deleted', '=', 0),
          ),
        ),
      );
    if (from)
      query = query.where((eb) =>
        eb(eb.refTuple('h.updated_at', 'h.seq'), '<', eb.tuple(from.updatedAt, from.seq)),
      );
    return query.orderBy('h.updated_at', 'desc').orderBy('h.seq', 'desc').limit(limit).execute();
  }

  /** Plays and removals changed after change number `after`, in the order of their changes. */
  changedAfter(
    lib: LibraryRef,
    after: number,
    limit: number,
    trx: Kysely<Database> = this.db,
  ): Promise<HistoryRow[]> {
    return this.library(lib, trx).where('h.seq', '>', after).orderBy('h.seq').limit(limit).execute();
  }

  countLive(lib: LibraryRef, trx: Kysely<Database> = this.db): Promise<number> {
    return countLiveRows(trx, 'watch_history', lib);
  }

  /**
   * The stored rows (live or removed) of these plays: those of their titles at their times (index ranges
   * on both databases; a list of row values is not one on PostgreSQL), matched here.
   */
  async findMany(
    lib: LibraryRef,
    keys: readonly HistoryKey[],
    trx: Kysely<Database> = this.db,
  ): Promise<HistoryRow[]> {
    if (keys.length === 0) return [];
    const wanted = new Set(keys.map(historyKeyOf));
    const rows = await this.library(lib, trx)
      .where('h.tmdb_id', 'in', [...new Set(keys.map((k) => k.tmdb_id))])
      .where('h.watched_at', 'in', [...new Set(keys.map((k) => k.watched_at))])
      .execute();
    return rows.filter((row) => wanted.has(historyKeyOf({ ...row, watched_at: Number(row.watched_at) })));
  }

  /** The live plays of one movie or episode watched between `from` and `to` (inclusive). */
  playsNear(
    lib: LibraryRef,
    key: HistoryTitleKey,
    from: number,
    to: number,
    trx: Kysely<Database>,
  ): Promise<HistoryRow[]> {
    return this.library(lib, trx)
      .where('h.tmdb_id', '=', key.tmdb_id)
      .where('h.media_type', '=', key.media_type)
      .where('h.season_id', '=', key.season_id)
      .where('h.episode_id', '=', key.episode_id)
      .where('h.watched_at', '>=', from)
      .where('h.watched_at', '<=', to)
      .where('h.deleted', '=', 0)
      .execute();
  }

  /** The live plays a removal made at `at` names (not those changed after it). */
  matching(lib: LibraryRef, r: HistoryRemoval, at: number, trx: Kysely<Database>): Promise<HistoryRow[]> {
    let query = this.library(lib, trx)
      .where('h.tmdb_id', '=', r.tmdb_id)
      .where('h.media_type', 'in', r.media_types)
      .where('h.deleted', '=', 0)
      .where('h.updated_at', '<=', at);
    if (r.season_id) query = query.where('h.season_id', '=', r.season_id);
    if (r.episode_id) query = query.where('h.episode_id', '=', r.episode_id);
    if (r.watched_at !== null) query = query.where('h.watched_at', '=', r.watched_at);
    return query.execute();
  }

  /**
   * Writes plays of one library (distinct keys) unless the stored one changed later (`fillOnly`: only
   * where nothing is stored, removed or not); returns the rows it wrote.
   */
  writeMany(rows: HistoryRow[], fillOnly: boolean, trx: Kysely<Database>): Promise<HistoryRow[]> {
    if (rows.length === 0) return Promise.resolve([]);
    return trx
      .insertInto('watch_history')
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
                completed: eb.ref('excluded.completed'),
                deleted: eb.ref('excluded.deleted'),
                updated_at: eb.ref('excluded.updated_at'),
                seq: eb.ref('excluded.seq'),
              }))
              .whereRef('watch_history.updated_at', '<=', 'excluded.updated_at'),
      )
      .returningAll()
      .execute();
  }

  /** Marks these plays removed at `at` (tombstones), each with its own change number from `seq`. */
  async tombstone(
    lib: LibraryRef,
    rows: readonly HistoryRow[],
    at: number,
    firstSeq: number,
    trx: Kysely<Database>,
  ): Promise<void> {
    let seq = firstSeq;
    for (const row of rows) {
      await trx
        .updateTable('watch_history')
        .set({ deleted: 1, updated_at: at, seq: seq++ })
        .where('user_id', '=', lib.userId)
        .where('profile_id', '=', lib.profileId)
        .where('tmdb_id', '=', row.tmdb_id)
        .where('media_type', '=', row.media_type)
        .where('season_id', '=', row.season_id)
        .where('episode_id', '=', row.episode_id)
        .where('watched_at', '=', row.watched_at)
        .execute();
    }
  }

  async deleteTombstonesBefore(before: number): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await this.versions.notePurge(trx, 'history', before);
      const result = await trx
        .deleteFrom('watch_history')
        .where('deleted', '=', 1)
        .where('updated_at', '<', before)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    });
  }
}
