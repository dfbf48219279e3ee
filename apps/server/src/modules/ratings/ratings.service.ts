import type { Kysely, Transaction } from 'kysely';
import {
  changeWins,
  type FamilyRating,
  type Rating,
  type RatingImportItem,
  type RatingRemoval,
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
import { ratingKeyOf, type RatingRow, type RatingsRepository } from './ratings.repository.ts';

/** A rating as the routes (and the Trakt pass) hand it over: the contract's import item. */
export type RatingChange = RatingImportItem;

export interface RatingsOptions {
  /** The most live ratings a library holds (default RATINGS_MAX; tests lower it). */
  maxRatings?: number | undefined;
}

function toRating(row: RatingRow): Rating {
  return {
    tmdbId: row.tmdb_id,
    type: row.media_type,
    meta: JSON.parse(row.meta) as Rating['meta'],
    rating: row.rating,
    ratedAt: iso(Number(row.rated_at)),
    updatedAt: iso(row.updated_at),
  };
}
const toRemoval = (row: RatingRow): RatingRemoval => ({
  tmdbId: row.tmdb_id,
  type: row.media_type,
  removedAt: iso(row.updated_at),
});

/** Whether writing `row` over `held` would change nothing (the same change sent again). */
const sameAs = (held: RatingRow, row: RatingRow) =>
  held.updated_at === row.updated_at &&
  held.deleted === row.deleted &&
  (row.deleted === 1 ||
    (held.rating === row.rating && Number(held.rated_at) === row.rated_at && held.meta === row.meta));

/**
 * Ratings (decision 103): one per movie or show per library, keyed by (title id, movie|show). Last
 * writer wins per title by change time (decision 011, corrected by the device's clock before it gets
 * here, decision 079); a removal is a tombstone, so a late, older write stays removed. Undated import
 * items only fill gaps (decision 072). Every write takes change numbers for pages and conditional reads.
 */
export class RatingsService {
  /** Reads (whole list, pages, conditional) and the lock of every write; tombstones are the removals. */
  readonly library: LibraryStore<RatingRow, RatingRow, Rating, RatingRemoval>;
  private readonly max: number;

  constructor(
    db: Kysely<Database>,
    private readonly ratings: RatingsRepository,
    private readonly now: () => number,
    options: RatingsOptions = {},
  ) {
    this.max = options.maxRatings ?? LIBRARY_LIMITS.ratings;
    this.library = new LibraryStore<RatingRow, RatingRow, Rating, RatingRemoval>(
      db,
      ratings.dialect,
      ratings.versions,
      {
        kind: 'ratings',
        listSlice: (lib, from, limit, trx) => ratings.listSlice(lib, from, limit, trx),
        changesAfter: async (lib, cursor, count, trx) =>
          (await ratings.changedAfter(lib, cursor.after, count, trx)).map((row) =>
            row.deleted ? { seq: row.seq, removal: row } : { seq: row.seq, row },
          ),
        toItem: toRating,
        toRemoval,
      },
    );
  }

  /**
   * Rates one title. An older change than the one held changes nothing: the answer is the rating held,
   * or (lost to a later removal) what was sent, as a bookmark's add answers.
   */
  async put(lib: LibraryRef, change: RatingChange): Promise<Rating> {
    const now = this.now();
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, now), now);
    const stored = await this.library.write(lib, async (trx): Promise<RatingRow> => {
      const [held] = await this.ratings.findMany(lib, [row], trx);
      // p-stream's rating names no title: the title held stays.
      if (held && change.meta.title === '' && held.meta !== '{}') row.meta = held.meta;
      if (held && (!changeWins(row.updated_at, held.updated_at) || sameAs(held, row))) return held;
      if ((!held || held.deleted) && (await this.ratings.countLive(lib, trx)) >= this.max)
        throw libraryFull('ratings', this.max);
      row.seq = await this.library.reserve(trx, lib, 1);
      const [written] = await this.ratings.writeMany([row], false, trx);
      return written ?? row;
    });
    return toRating(stored.deleted ? row : stored);
  }

  /**
   * Merges ratings in; never removes any. Dated items follow the conflict rule; undated ones only fill
   * gaps: never a rating held, never one removed. Written in transactions of a few hundred rows;
   * refused as a whole (409) when it would take the library past its limit. `count`: rows written.
   */
  async import(lib: LibraryRef, changes: readonly RatingChange[]): Promise<{ success: true; count: number }> {
    const now = this.now();
    const items = await latestPerKey<RatingChange, RatingRow>(
      changes,
      (change) => this.rowOf(lib, change, changeTimeOf(change.updatedAt, now), now),
      ratingKeyOf,
    );
    await this.assertRoomFor(
      lib,
      items.map((i) => i.row),
    );
    let count = 0;
    for (const [index, batch] of chunksOf(items, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      count += await this.library.write(lib, (trx) => this.importBatch(trx, lib, batch));
    }
    return { success: true, count };
  }

  /** One transaction of an import; answers how many of its rows were written. */
  private async importBatch(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: Incoming<RatingRow>[],
  ): Promise<number> {
    const stored = await writeImportBatch<RatingRow>(trx, this.library, lib, batch, {
      keyOf: ratingKeyOf,
      writeMany: (rows, fillOnly, t) => this.ratings.writeMany(rows, fillOnly, t),
      findMany: (l, keys, t) => this.ratings.findMany(l, keys, t),
    });
    // Rows written took this batch's fresh change numbers; the others kept older ones.
    const taken = new Set(batch.map((b) => b.row.seq));
    return stored.filter((row) => taken.has(Number(row.seq))).length;
  }

  /** 409 unless the library has room for the ratings it does not hold yet (checked before anything is written). */
  private async assertRoomFor(lib: LibraryRef, rows: RatingRow[]): Promise<void> {
    const count = await this.ratings.countLive(lib);
    if (count + rows.length <= this.max) return;
    let held = 0;
    for (const batch of chunksOf(rows, LIBRARY_BATCH_ROWS)) {
      held += (await this.ratings.findMany(lib, batch)).filter((r) => !r.deleted).length;
      await yieldToOthers();
    }
    if (count + rows.length - held > this.max) throw libraryFull('ratings', this.max);
  }

  /**
   * Removes the title's rating, of both kinds unless `type` names one: tombstones at the change time,
   * also where nothing is held (a late, older rating from elsewhere stays removed). A rating changed
   * after the removal stays. `count`: the ratings it removed. Idempotent.
   */
  async remove(
    lib: LibraryRef,
    tmdbId: string,
    type: SyncMediaType | undefined,
    updatedAt: string | undefined,
  ): Promise<{ success: true; count: number; tmdbId: string }> {
    const at = changeTimeOf(updatedAt, this.now());
    const tombstones = (type ? [type] : (['movie', 'show'] as const)).map((mediaType): RatingRow => ({
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: tmdbId,
      media_type: mediaType,
      meta: '{}',
      rating: 0,
      rated_at: at,
      deleted: 1,
      updated_at: at,
      seq: 0,
    }));
    const count = await this.library.write(lib, async (trx) => {
      const held = new Map(
        (await this.ratings.findMany(lib, tombstones, trx)).map((r) => [ratingKeyOf(r), r]),
      );
      const due = tombstones.filter((row) => {
        const h = held.get(ratingKeyOf(row));
        return !h || (changeWins(at, h.updated_at) && !sameAs(h, row));
      });
      if (due.length === 0) return 0;
      let seq = await this.library.reserve(trx, lib, due.length);
      for (const row of due) row.seq = seq++;
      await this.ratings.writeMany(due, false, trx);
      return due.filter((row) => held.get(ratingKeyOf(row))?.deleted === 0).length;
    });
    return { success: true, count, tmdbId };
  }

  /**
   * p-stream's rating of one title: `tv` is a show, a value between whole numbers is rounded, 0 (its
   * "none") removes the rating. It names no title: the title held stays (see `put`). Answers it as stored.
   */
  async rateAsFamily(
    lib: LibraryRef,
    input: { tmdb_id: number; type: 'movie' | 'tv' | 'show'; rating: number },
  ): Promise<FamilyRating> {
    const type = input.type === 'movie' ? 'movie' : 'show';
    const rating = Math.round(input.rating);
    const tmdbId = String(input.tmdb_id);
    if (rating === 0) await this.remove(lib, tmdbId, type, undefined);
    else await this.put(lib, { tmdbId, type, meta: { title: '', year: null, type }, rating });
    return { tmdb_id: input.tmdb_id, type: type === 'movie' ? 'movie' : 'tv', rating };
  }

  /** The live ratings in p-stream's shape: titles with a numeric TMDB id, `tv` for shows. */
  async familyList(lib: LibraryRef): Promise<FamilyRating[]> {
    return (await this.ratings.liveRows(lib)).flatMap((row) =>
      !/^\d{1,10}$/.test(row.tmdb_id)
        ? []
        : [
            {
              tmdb_id: Number(row.tmdb_id),
              type: row.media_type === 'movie' ? ('movie' as const) : ('tv' as const),
              rating: row.rating,
            },
          ],
    );
  }

  private rowOf(lib: LibraryRef, change: RatingChange, at: number, now: number): RatingRow {
    const { meta } = change;
    return {
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: change.tmdbId,
      media_type: change.type,
      meta: JSON.stringify({
        title: meta.title,
        year: meta.year ?? null,
        ...(meta.poster ? { poster: meta.poster } : {}),
        type: meta.type,
      }),
      rating: change.rating,
      // Rated later than now is a clock running ahead: taken as now. Not said: when the change was
      // made (now, for an undated one), so the same change sent again is the same row.
      rated_at: change.ratedAt === undefined ? at : Math.min(Date.parse(change.ratedAt), now),
      deleted: 0,
      updated_at: at,
      seq: 0,
    };
  }
}
