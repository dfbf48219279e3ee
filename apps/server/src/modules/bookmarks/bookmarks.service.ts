import type { Kysely } from 'kysely';
import {
  changeWins,
  mediaTypeOf,
  type Bookmark,
  type BookmarkRemoval,
  type BookmarksPage,
  type LibraryReadQuery,
  type SyncMediaType,
} from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import {
  DEFAULT_PAGE_ROWS,
  encodeCursor,
  startOf,
  type LibraryCursor,
  type LibraryReader,
  wholeListJson,
} from '../library/library-reads.ts';
import type { LibraryVersions } from '../library/library-versions.ts';
import {
  changeTimeOf,
  chunksOf,
  iso,
  LIBRARY_BATCH_ROWS,
  LIBRARY_LIMITS,
  libraryFull,
  yieldToOthers,
  type LibraryRef,
  type ListPosition,
} from '../library/library.ts';
import { bookmarkKeyOf, type BookmarkRow, type BookmarksRepository } from './bookmarks.repository.ts';

interface MetaInput {
  title: string;
  year?: number | null | undefined;
  poster?: string | null | undefined;
  type: string;
}
interface BookmarkChange {
  tmdbId: string;
  meta: MetaInput;
  updatedAt?: string | undefined;
}

const storedMeta = (meta: MetaInput) =>
  JSON.stringify({
    title: meta.title,
    year: meta.year ?? null,
    ...(meta.poster ? { poster: meta.poster } : {}),
    type: meta.type,
  });

function toBookmarkDto(row: Pick<BookmarkRow, 'tmdb_id' | 'meta' | 'updated_at'>): Bookmark {
  return {
    tmdbId: row.tmdb_id,
    meta: JSON.parse(row.meta) as Bookmark['meta'],
    updatedAt: iso(row.updated_at),
  };
}
const toRemovalDto = (row: BookmarkRow): BookmarkRemoval => ({
  tmdbId: row.tmdb_id,
  type: row.media_type,
  removedAt: iso(row.updated_at),
});

/**
 * Bookmarks sync. Rows are keyed by (title id, movie|show); a removal is a tombstone, so the rule
 * "an older change never overwrites a newer one" holds for adds and removals alike. Clients that send
 * no change time (the older ones) get the server's time: their change is the newest — except in
 * imports, where an undated item only fills a gap (decision 072). Every write takes change numbers,
 * which pages and conditional reads use.
 */
export class BookmarksService implements LibraryReader<BookmarksPage> {
  readonly kind = 'bookmarks';
  private readonly versions: LibraryVersions;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly bookmarks: BookmarksRepository,
    private readonly now: () => number,
  ) {
    this.versions = bookmarks.versions;
  }

  async version(lib: LibraryRef): Promise<number> {
    return (await this.versions.current(lib, 'bookmarks')).version;
  }

  /** The live bookmarks as the older servers listed them, built slice by slice as one state of the library. */
  listJson(lib: LibraryRef): Promise<{ version: number; json: Buffer }> {
    const size = LIBRARY_BATCH_ROWS * 2;
    return wholeListJson(
      this.db,
      this.bookmarks.dialect,
      async (trx) => (await this.versions.current(lib, 'bookmarks', trx)).version,
      (trx) => {
        let from: ListPosition | null = null;
        let done = false;
        return async () => {
          if (done) return [];
          const rows = await this.bookmarks.listSlice(lib, from, size, trx);
          done = rows.length < size;
          const last = rows.at(-1);
          if (last) from = { updatedAt: last.updated_at, seq: last.seq };
          return rows.map(toBookmarkDto);
        };
      },
    );
  }

  /**
   * One page of changes in the order they were stored: bookmarks and removals (tombstones) changed
   * after the position; a whole-library read skips removals older than its start.
   */
  async page(lib: LibraryRef, query: LibraryReadQuery): Promise<BookmarksPage> {
    const limit = query.limit ?? DEFAULT_PAGE_ROWS;
    const start = startOf(query);
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { version, purged } = await this.versions.current(lib, 'bookmarks', trx);
        let reset = false;
        let cursor: LibraryCursor;
        if (start.cursor) cursor = start.cursor;
        else if (start.since !== null) cursor = { after: start.since, floor: start.since };
        else {
          cursor = { after: 0, floor: version };
          reset = true;
        }
        // The changes cannot be complete (removals purged, or a position of another database state).
        if (cursor.floor < purged || cursor.after > version || cursor.floor > version) {
          cursor = { after: 0, floor: version };
          reset = true;
        }
        const rows = await this.bookmarks.changedAfter(lib, cursor.after, limit + 1, trx);
        const page = rows.slice(0, limit);
        return {
          items: page.filter((r) => !r.deleted).map(toBookmarkDto),
          removed: page.filter((r) => r.deleted && r.seq > cursor.floor).map(toRemovalDto),
          reset,
          next: rows.length > limit ? encodeCursor({ after: page.at(-1)!.seq, floor: cursor.floor }) : null,
          version: String(version),
        };
      });
  }

  async add(lib: LibraryRef, change: BookmarkChange): Promise<Bookmark> {
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, this.now()));
    const stored = await this.db.transaction().execute(async (trx) => {
      await this.versions.lock(trx, lib, 'bookmarks');
      const held = await this.bookmarks.find(lib, row.tmdb_id, row.media_type, trx);
      // Older than what is stored: nothing changes (and no change number is taken).
      if (held && !changeWins(row.updated_at, held.updated_at)) return held;
      if ((!held || held.deleted) && (await this.bookmarks.countLive(lib, trx)) >= LIBRARY_LIMITS.bookmarks) {
        throw libraryFull('bookmarks');
      }
      row.seq = await this.versions.reserve(trx, lib, 'bookmarks', 1);
      return this.bookmarks.write(row, trx);
    });
    // Lost to a later removal: acknowledge what was sent (the client re-reads the list to converge).
    return toBookmarkDto(stored.deleted ? row : stored);
  }

  /**
   * Merges bookmarks in; never removes any. Dated items follow the conflict rule; undated ones (older
   * clients) only fill gaps: they add what the account never had, never change a bookmark it has and
   * never bring back one removed (on another device, say). Written in transactions of a few hundred
   * rows; refused as a whole (409) when it would take the library past its limit.
   */
  async import(lib: LibraryRef, changes: BookmarkChange[]): Promise<Bookmark[]> {
    const now = this.now();
    const latest = new Map<string, { row: BookmarkRow; dated: boolean }>();
    for (const [index, slice] of chunksOf(changes, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      for (const change of slice) {
        const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, now));
        const dated = change.updatedAt !== undefined;
        const key = bookmarkKeyOf(row);
        const seen = latest.get(key);
        if (!seen || (dated && (!seen.dated || row.updated_at >= seen.row.updated_at)))
          latest.set(key, { row, dated });
      }
    }
    const items = [...latest.values()];
    await this.assertRoomFor(
      lib,
      items.map((i) => i.row),
    );
    const stored: BookmarkRow[] = [];
    for (const [index, batch] of chunksOf(items, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      stored.push(...(await this.db.transaction().execute((trx) => this.importBatch(trx, lib, batch))));
    }
    return stored.filter((r) => !r.deleted).map(toBookmarkDto);
  }

  private async importBatch(
    trx: Kysely<Database>,
    lib: LibraryRef,
    batch: { row: BookmarkRow; dated: boolean }[],
  ): Promise<BookmarkRow[]> {
    let seq = await this.versions.reserve(trx, lib, 'bookmarks', batch.length);
    for (const { row } of batch) row.seq = seq++;
    const written = [
      ...(await this.bookmarks.writeMany(
        batch.filter((b) => b.dated).map((b) => b.row),
        false,
        trx,
      )),
      ...(await this.bookmarks.writeMany(
        batch.filter((b) => !b.dated).map((b) => b.row),
        true,
        trx,
      )),
    ];
    const byKey = new Map(written.map((row) => [bookmarkKeyOf(row), row]));
    const untouched = batch.map((b) => b.row).filter((row) => !byKey.has(bookmarkKeyOf(row)));
    for (const row of await this.bookmarks.findMany(lib, untouched, trx)) byKey.set(bookmarkKeyOf(row), row);
    return batch.flatMap(({ row }) => byKey.get(bookmarkKeyOf(row)) ?? []);
  }

  /** 409 unless the library has room for the bookmarks it does not hold yet (checked before anything is written). */
  private async assertRoomFor(lib: LibraryRef, rows: BookmarkRow[]): Promise<void> {
    const count = await this.bookmarks.countLive(lib);
    if (count + rows.length <= LIBRARY_LIMITS.bookmarks) return;
    let held = 0;
    for (const batch of chunksOf(rows, LIBRARY_BATCH_ROWS)) {
      held += (await this.bookmarks.findMany(lib, batch)).filter((r) => !r.deleted).length;
      await yieldToOthers();
    }
    if (count + rows.length - held > LIBRARY_LIMITS.bookmarks) throw libraryFull('bookmarks');
  }

  async remove(
    lib: LibraryRef,
    tmdbId: string,
    type: SyncMediaType | undefined,
    updatedAt: string | undefined,
  ): Promise<{ tmdbId: string }> {
    const at = changeTimeOf(updatedAt, this.now());
    const types: SyncMediaType[] = type ? [type] : ['movie', 'show'];
    await this.db.transaction().execute(async (trx) => {
      let seq = await this.versions.reserve(trx, lib, 'bookmarks', types.length);
      const tombstones = types.map((mediaType): BookmarkRow => ({
        user_id: lib.userId,
        profile_id: lib.profileId,
        tmdb_id: tmdbId,
        media_type: mediaType,
        meta: '{}',
        deleted: 1,
        updated_at: at,
        seq: seq++,
      }));
      await this.bookmarks.writeMany(tombstones, false, trx);
    });
    return { tmdbId };
  }

  private rowOf(lib: LibraryRef, change: BookmarkChange, at: number): BookmarkRow {
    return {
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: change.tmdbId,
      media_type: mediaTypeOf(change.meta.type),
      meta: storedMeta(change.meta),
      deleted: 0,
      updated_at: at,
      seq: 0,
    };
  }
}
