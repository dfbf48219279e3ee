import type { Kysely } from 'kysely';
import { mediaTypeOf, type Bookmark, type SyncMediaType } from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { changeTimeOf, iso, type LibraryRef } from '../library/library.ts';
import type { BookmarkRow, BookmarksRepository } from './bookmarks.repository.ts';

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
  JSON.stringify({ title: meta.title, year: meta.year ?? null, ...(meta.poster ? { poster: meta.poster } : {}), type: meta.type });

function toBookmarkDto(row: Pick<BookmarkRow, 'tmdb_id' | 'meta' | 'updated_at'>): Bookmark {
  return { tmdbId: row.tmdb_id, meta: JSON.parse(row.meta) as Bookmark['meta'], updatedAt: iso(row.updated_at) };
}

/**
 * Bookmarks sync. Rows are keyed by (title id, movie|show); a removal is a tombstone, so the rule
 * "an older change never overwrites a newer one" holds for adds and removals alike. Clients that send
 * no change time (the older ones) get the server's time: their change is the newest.
 */
export class BookmarksService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly bookmarks: BookmarksRepository,
    private readonly now: () => number,
  ) {}

  async list(lib: LibraryRef): Promise<Bookmark[]> {
    return (await this.bookmarks.listLive(lib)).map(toBookmarkDto);
  }

  async add(lib: LibraryRef, change: BookmarkChange): Promise<Bookmark> {
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, this.now()));
    const stored = await this.bookmarks.write(row);
    // Lost to a later removal: acknowledge what was sent (the client re-reads the list to converge).
    return toBookmarkDto(stored.deleted ? row : stored);
  }

  /**
   * Merges bookmarks in; never removes any. Dated items follow the conflict rule; undated ones (older
   * clients) only fill gaps: they add what is missing, never change a bookmark the account has.
   */
  async import(lib: LibraryRef, changes: BookmarkChange[]): Promise<Bookmark[]> {
    const now = this.now();
    const latest = new Map<string, { row: BookmarkRow; dated: boolean }>();
    for (const change of changes) {
      const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, now));
      const dated = change.updatedAt !== undefined;
      const key = `${row.tmdb_id}\u0000${row.media_type}`;
      const seen = latest.get(key);
      if (!seen || (dated && (!seen.dated || row.updated_at >= seen.row.updated_at))) latest.set(key, { row, dated });
    }
    const stored = await this.db.transaction().execute(async (trx) => {
      const out: BookmarkRow[] = [];
      for (const { row, dated } of latest.values()) out.push(await this.bookmarks.write(row, { onlyOverTombstone: !dated }, trx));
      return out;
    });
    return stored.filter((r) => !r.deleted).map(toBookmarkDto);
  }

  async remove(lib: LibraryRef, tmdbId: string, type: SyncMediaType | undefined, updatedAt: string | undefined): Promise<{ tmdbId: string }> {
    const at = changeTimeOf(updatedAt, this.now());
    const types: SyncMediaType[] = type ? [type] : ['movie', 'show'];
    for (const mediaType of types) {
      await this.bookmarks.write({
        user_id: lib.userId,
        profile_id: lib.profileId,
        tmdb_id: tmdbId,
        media_type: mediaType,
        meta: '{}',
        deleted: 1,
        updated_at: at,
      });
    }
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
    };
  }
}
