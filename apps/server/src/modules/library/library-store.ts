import type { Kysely, Transaction } from 'kysely';
import type { LibraryReadQuery } from '@marquee/contract';
import type { Dialect } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { PreSerialised } from '../../plugins/contract-route.ts';
import {
  DEFAULT_PAGE_ROWS,
  encodeCursor,
  startOf,
  wholeListJson,
  type LibraryCursor,
  type LibraryPage,
  type LibraryReads,
} from './library-reads.ts';
import type { LibraryKind, LibraryVersions } from './library-versions.ts';
import { LIBRARY_BATCH_ROWS, type LibraryRef, type ListPosition } from './library.ts';

/** A change of one kind of library: a row or a removal, with its change number. */
export type LibraryChange<Row, Gone> = { seq: number; row: Row } | { seq: number; removal: Gone };

/** What a kind of library (bookmarks, progress) gives the store: its queries and wire shapes. */
export interface LibraryRows<Row extends { updated_at: number; seq: number }, Gone, Item, Removal> {
  kind: LibraryKind;
  /** One slice of the live rows in the older servers' order (latest change first), after `from`. */
  listSlice(lib: LibraryRef, from: ListPosition | null, limit: number, trx: Kysely<Database>): Promise<Row[]>;
  /**
   * Changes numbered after `cursor.after`, in any order: the first `count` of them by change number
   * must be among them (more may come). Removals numbered up to `cursor.floor` take their place on a
   * page but are not sent.
   */
  changesAfter(
    lib: LibraryRef,
    cursor: LibraryCursor,
    count: number,
    trx: Kysely<Database>,
  ): Promise<LibraryChange<Row, Gone>[]>;
  /** A row as lists and pages send it. */
  toItem(row: Row): Item;
  toRemoval(gone: Gone): Removal;
}

/**
 * One kind of a library as the sync routes read and write it (decisions 072, 091): conditional reads
 * by change number, pages of changes, the whole list built slice by slice as one state, and the one
 * lock every write of it takes.
 */
export class LibraryStore<
  Row extends { updated_at: number; seq: number },
  Gone,
  Item,
  Removal,
> implements LibraryReads<Item, Removal> {
  readonly kind: LibraryKind;

  constructor(
    private readonly db: Kysely<Database>,
    /** Decides how a whole list is read as one state (see wholeListJson). */
    private readonly dialect: Dialect,
    private readonly versions: LibraryVersions,
    private readonly rows: LibraryRows<Row, Gone, Item, Removal>,
  ) {
    this.kind = rows.kind;
  }

  async version(lib: LibraryRef): Promise<number> {
    return (await this.versions.current(lib, this.kind)).version;
  }

  /** The live rows as the older servers listed them, built slice by slice as one state of the library. */
  listJson(lib: LibraryRef): Promise<{ version: number; json: PreSerialised<Item[]> }> {
    const size = LIBRARY_BATCH_ROWS * 2;
    return wholeListJson(
      this.db,
      this.dialect,
      async (trx) => (await this.versions.current(lib, this.kind, trx)).version,
      (trx) => {
        let from: ListPosition | null = null;
        let done = false;
        return async () => {
          if (done) return [];
          const rows = await this.rows.listSlice(lib, from, size, trx);
          done = rows.length < size;
          const last = rows.at(-1);
          if (last) from = { updatedAt: last.updated_at, seq: last.seq };
          return rows.map((row) => this.rows.toItem(row));
        };
      },
    );
  }

  /**
   * One page of changes in the order they were stored: rows and removals changed after the position
   * (a whole-library read skips removals older than its start). Read in one transaction, so a page is
   * one state of the library.
   */
  async page(lib: LibraryRef, query: LibraryReadQuery): Promise<LibraryPage<Item, Removal>> {
    const limit = query.limit ?? DEFAULT_PAGE_ROWS;
    const start = startOf(query);
    return this.db
      .transaction()
      .setIsolationLevel('repeatable read')
      .execute(async (trx) => {
        const { version, purged } = await this.versions.current(lib, this.kind, trx);
        let reset = false;
        let cursor: LibraryCursor;
        if (start.cursor) cursor = start.cursor;
        else if (start.since !== null) cursor = { after: start.since, floor: start.since };
        else {
          cursor = { after: 0, floor: version };
          reset = true;
        }
        // Removals after the position were purged, or the position is not of this database (restored
        // from a backup, another server): the changes cannot be complete, so everything comes again.
        if (cursor.floor < purged || cursor.after > version || cursor.floor > version) {
          cursor = { after: 0, floor: version };
          reset = true;
        }
        const changes = await this.rows.changesAfter(lib, cursor, limit + 1, trx);
        const page = changes.sort((a, b) => a.seq - b.seq).slice(0, limit);
        return {
          items: page.flatMap((c) => ('row' in c ? [this.rows.toItem(c.row)] : [])),
          removed: page.flatMap((c) =>
            'removal' in c && c.seq > cursor.floor ? [this.rows.toRemoval(c.removal)] : [],
          ),
          reset,
          next:
            changes.length > limit ? encodeCursor({ after: page.at(-1)!.seq, floor: cursor.floor }) : null,
          version: String(version),
        };
      });
  }

  /**
   * A write of this library: one transaction that first locks the library's row of this kind in
   * `library_versions` (until commit on PostgreSQL; SQLite transactions are exclusive), so writes of
   * one library and kind run one after another on every process, each seeing what the previous wrote.
   */
  write<T>(lib: LibraryRef, work: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    return this.db.transaction().execute(async (trx) => {
      await this.versions.lock(trx, lib, this.kind);
      return work(trx);
    });
  }

  /** Takes `count` change numbers inside a write; returns the first (the others follow it). */
  reserve(trx: Transaction<Database>, lib: LibraryRef, count: number): Promise<number> {
    return this.versions.reserve(trx, lib, this.kind, count);
  }
}
