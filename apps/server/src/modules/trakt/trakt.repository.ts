import { randomBytes } from 'node:crypto';
import type { Kysely, Updateable } from 'kysely';
import type {
  Database,
  TraktLinksTable,
  TraktPlaysTable,
  TraktRatingsTable,
  TraktWatchlistTable,
} from '../../db/schema.ts';
import type { LibraryRef } from '../library/library.ts';

/** A library's rows: its account's, of its profile ('' = the account's own). */
const ownedBy = (lib: LibraryRef) => ({ user_id: lib.userId, profile_id: lib.profileId });

export type TraktLinkRow = TraktLinksTable;
export type TraktPlayRow = TraktPlaysTable;
export type TraktWatchRow = TraktWatchlistTable;
export type TraktRatingRow = TraktRatingsTable;
/** A linked library with its kinds' versions now (null: never changed). */
export type TraktDueRow = TraktLinkRow & {
  history_now: number | null;
  bookmarks_now: number | null;
  ratings_now: number | null;
};

const newId = () => randomBytes(12).toString('base64url');

/** The links, and the two ledgers of what each side holds (decision 101). */
export class TraktRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async link(lib: LibraryRef): Promise<TraktLinkRow | undefined> {
    return this.db
      .selectFrom('trakt_links')
      .selectAll()
      .where((eb) => eb.and(ownedBy(lib)))
      .executeTakeFirst();
  }

  /** Replaces the library's link with `row` (a new device code, a new state). */
  async putLink(row: TraktLinkRow): Promise<void> {
    const { user_id: _user, profile_id: _profile, ...rest } = row;
    await this.db
      .insertInto('trakt_links')
      .values(row)
      .onConflict((oc) => oc.columns(['user_id', 'profile_id']).doUpdateSet(rest))
      .execute();
  }

  async updateLink(lib: LibraryRef, changes: Updateable<TraktLinksTable>): Promise<void> {
    await this.db
      .updateTable('trakt_links')
      .set(changes)
      .where((eb) => eb.and(ownedBy(lib)))
      .execute();
  }

  /** Claims the next poll of a pending code (of several processes reading the status, one asks Trakt). */
  async claimPoll(lib: LibraryRef, now: number, next: number): Promise<boolean> {
    const result = await this.db
      .updateTable('trakt_links')
      .set({ next_poll_at: next })
      .where((eb) => eb.and(ownedBy(lib)))
      .where('state', '=', 'pending')
      .where('next_poll_at', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Claims a pass over the link until `until` (one pass per link across processes). */
  async claimLease(lib: LibraryRef, now: number, until: number): Promise<boolean> {
    const result = await this.db
      .updateTable('trakt_links')
      .set({ lease_until: until })
      .where((eb) => eb.and(ownedBy(lib)))
      .where('state', '=', 'linked')
      .where('lease_until', '<=', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Everything Trakt-related of a library goes (unlink). */
  async removeAll(lib: LibraryRef): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      for (const table of ['trakt_plays', 'trakt_watchlist', 'trakt_ratings', 'trakt_links'] as const)
        await trx
          .deleteFrom(table)
          .where((eb) => eb.and(ownedBy(lib)))
          .execute();
    });
  }

  /** Linked libraries, with the versions of their history, bookmarks and ratings now (what changed since a pass). */
  async linked(): Promise<TraktDueRow[]> {
    const rows = await this.db
      .selectFrom('trakt_links as t')
      .leftJoin('library_versions as h', (join) =>
        join
          .onRef('h.user_id', '=', 't.user_id')
          .onRef('h.profile_id', '=', 't.profile_id')
          .on('h.kind', '=', 'history'),
      )
      .leftJoin('library_versions as b', (join) =>
        join
          .onRef('b.user_id', '=', 't.user_id')
          .onRef('b.profile_id', '=', 't.profile_id')
          .on('b.kind', '=', 'bookmarks'),
      )
      .leftJoin('library_versions as r', (join) =>
        join
          .onRef('r.user_id', '=', 't.user_id')
          .onRef('r.profile_id', '=', 't.profile_id')
          .on('r.kind', '=', 'ratings'),
      )
      .selectAll('t')
      .select(['h.version as history_now', 'b.version as bookmarks_now', 'r.version as ratings_now'])
      .where('t.state', '=', 'linked')
      .execute();
    return rows.map((row) => ({
      ...row,
      history_now: row.history_now === null ? null : Number(row.history_now),
      bookmarks_now: row.bookmarks_now === null ? null : Number(row.bookmarks_now),
      ratings_now: row.ratings_now === null ? null : Number(row.ratings_now),
    }));
  }

  // ---- the plays ledger ----

  plays(lib: LibraryRef): Promise<TraktPlayRow[]> {
    return this.db
      .selectFrom('trakt_plays')
      .selectAll()
      .where((eb) => eb.and(ownedBy(lib)))
      .execute();
  }

  async addPlays(rows: Omit<TraktPlayRow, 'id'>[]): Promise<void> {
    for (let i = 0; i < rows.length; i += 200)
      await this.db
        .insertInto('trakt_plays')
        .values(rows.slice(i, i + 200).map((row) => ({ ...row, id: newId() })))
        .execute();
  }

  async updatePlay(id: string, changes: Updateable<TraktPlaysTable>): Promise<void> {
    await this.db.updateTable('trakt_plays').set(changes).where('id', '=', id).execute();
  }

  async deletePlays(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += 500)
      await this.db
        .deleteFrom('trakt_plays')
        .where('id', 'in', ids.slice(i, i + 500))
        .execute();
  }

  /** Plays of one item on either side since `from` (the scrobble's check). */
  async playsOfItemSince(lib: LibraryRef, item: string, from: number): Promise<TraktPlayRow[]> {
    const rows = await this.db
      .selectFrom('trakt_plays')
      .selectAll()
      .where((eb) => eb.and(ownedBy(lib)))
      .where('item', '=', item)
      .execute();
    return rows.filter((row) => Math.max(Number(row.trakt_at ?? 0), Number(row.marquee_at ?? 0)) >= from);
  }

  // ---- the watchlist ledger ----

  watchlist(lib: LibraryRef): Promise<TraktWatchRow[]> {
    return this.db
      .selectFrom('trakt_watchlist')
      .selectAll()
      .where((eb) => eb.and(ownedBy(lib)))
      .execute();
  }

  async setWatchlist(lib: LibraryRef, rows: TraktWatchRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('trakt_watchlist')
        .where((eb) => eb.and(ownedBy(lib)))
        .execute();
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('trakt_watchlist')
          .values(rows.slice(i, i + 500))
          .execute();
    });
  }

  // ---- the ratings ledger ----

  ratings(lib: LibraryRef): Promise<TraktRatingRow[]> {
    return this.db
      .selectFrom('trakt_ratings')
      .selectAll()
      .where((eb) => eb.and(ownedBy(lib)))
      .execute();
  }

  async setRatings(lib: LibraryRef, rows: TraktRatingRow[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('trakt_ratings')
        .where((eb) => eb.and(ownedBy(lib)))
        .execute();
      for (let i = 0; i < rows.length; i += 500)
        await trx
          .insertInto('trakt_ratings')
          .values(rows.slice(i, i + 500))
          .execute();
    });
  }
}
