import type { Kysely, Transaction } from 'kysely';
import {
  changeWins,
  mediaTypeOf,
  type Bookmark,
  type BookmarkRemoval,
  type SyncMediaType,
} from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { latestPerKey, writeImportBatch, type Incoming } from '../library/library-import.ts';
import { LibraryStore } from '../library/library-store.ts';
import {
  changeTimeOf,
  chunksOf,
  iso,
  LIBRARY_BATCH_ROWS,
  LIBRARY_LIMITS,
  libraryFull,
  yieldToOthers,
  type LibraryRef,
} from '../library/library.ts';
import {
  bookmarkKeyOf,
  type BookmarkRow,
  type BookmarksRepository,
  type BookmarkWrite,
} from './bookmarks.repository.ts';

interface MetaInput {
  title: string;
  year?: number | null | undefined;
  poster?: string | null | undefined;
  type: string;
}
interface BookmarkChange {
  tmdbId: string;
  meta: MetaInput;
  /** Left out (the older clients): what the stored bookmark has is kept. */
  group?: string[] | undefined;
  favoriteEpisodes?: string[] | undefined;
  updatedAt?: string | undefined;
}

const storedMeta = (meta: MetaInput) =>
  JSON.stringify({
    title: meta.title,
    year: meta.year ?? null,
    ...(meta.poster ? { poster: meta.poster } : {}),
    type: meta.type,
  });

function toBookmarkDto(
  row: Pick<BookmarkRow, 'tmdb_id' | 'meta' | 'group_names' | 'favorite_episodes' | 'updated_at'>,
): Bookmark {
  return {
    tmdbId: row.tmdb_id,
    meta: JSON.parse(row.meta) as Bookmark['meta'],
    group: JSON.parse(row.group_names) as string[],
    favoriteEpisodes: JSON.parse(row.favorite_episodes) as string[],
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
 * which pages and conditional reads use. p-stream's groups and favourite episodes ride along: a write
 * that leaves them out (the older clients re-adding a title) keeps the stored bookmark's, `[]` clears
 * them, and a removed bookmark brought back starts from what the write says.
 */
export class BookmarksService {
  /** Reads (whole list, pages, conditional) and the lock of every write; tombstones are the removals. */
  readonly library: LibraryStore<BookmarkRow, BookmarkRow, Bookmark, BookmarkRemoval>;

  constructor(
    db: Kysely<Database>,
    private readonly bookmarks: BookmarksRepository,
    private readonly now: () => number,
  ) {
    this.library = new LibraryStore<BookmarkRow, BookmarkRow, Bookmark, BookmarkRemoval>(
      db,
      bookmarks.dialect,
      bookmarks.versions,
      {
        kind: 'bookmarks',
        listSlice: (lib, from, limit, trx) => bookmarks.listSlice(lib, from, limit, trx),
        changesAfter: async (lib, cursor, count, trx) =>
          (await bookmarks.changedAfter(lib, cursor.after, count, trx)).map((row) =>
            row.deleted ? { seq: row.seq, removal: row } : { seq: row.seq, row },
          ),
        toItem: toBookmarkDto,
        toRemoval: toRemovalDto,
      },
    );
  }

  async add(lib: LibraryRef, change: BookmarkChange): Promise<Bookmark> {
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, this.now()));
    const stored = await this.library.write(lib, async (trx): Promise<BookmarkRow> => {
      const held = await this.bookmarks.find(lib, row.tmdb_id, row.media_type, trx);
      // Older than what is stored: nothing changes (and no change number is taken).
      if (held && !changeWins(row.updated_at, held.updated_at)) return held;
      if ((!held || held.deleted) && (await this.bookmarks.countLive(lib, trx)) >= LIBRARY_LIMITS.bookmarks) {
        throw libraryFull('bookmarks');
      }
      row.seq = await this.library.reserve(trx, lib, 1);
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
    const items = await latestPerKey<BookmarkChange, BookmarkWrite>(
      changes,
      (change) => this.rowOf(lib, change, changeTimeOf(change.updatedAt, now)),
      bookmarkKeyOf,
    );
    await this.assertRoomFor(
      lib,
      items.map((i) => i.row),
    );
    const stored: BookmarkRow[] = [];
    for (const [index, batch] of chunksOf(items, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      stored.push(...(await this.library.write(lib, (trx) => this.importBatch(trx, lib, batch))));
    }
    return stored.filter((r) => !r.deleted).map(toBookmarkDto);
  }

  private importBatch(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: Incoming<BookmarkWrite>[],
  ): Promise<BookmarkRow[]> {
    return writeImportBatch<BookmarkWrite>(trx, this.library, lib, batch, {
      keyOf: bookmarkKeyOf,
      writeMany: (rows, fillOnly, t) => this.bookmarks.writeMany(rows, fillOnly, t),
      findMany: (l, keys, t) => this.bookmarks.findMany(l, keys, t),
    });
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
    await this.library.write(lib, async (trx) => {
      let seq = await this.library.reserve(trx, lib, types.length);
      const tombstones = types.map((mediaType): BookmarkRow => ({
        user_id: lib.userId,
        profile_id: lib.profileId,
        tmdb_id: tmdbId,
        media_type: mediaType,
        meta: '{}',
        group_names: '[]',
        favorite_episodes: '[]',
        deleted: 1,
        updated_at: at,
        seq: seq++,
      }));
      await this.bookmarks.writeMany(tombstones, false, trx);
    });
    return { tmdbId };
  }

  private rowOf(lib: LibraryRef, change: BookmarkChange, at: number): BookmarkWrite {
    return {
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: change.tmdbId,
      media_type: mediaTypeOf(change.meta.type),
      meta: storedMeta(change.meta),
      group_names: JSON.stringify(change.group ?? []),
      favorite_episodes: JSON.stringify(change.favoriteEpisodes ?? []),
      deleted: 0,
      updated_at: at,
      seq: 0,
      omits: { group: change.group === undefined, favoriteEpisodes: change.favoriteEpisodes === undefined },
    };
  }
}
