import type { Kysely, Transaction } from 'kysely';
import {
  mediaTypeOf,
  SAME_PLAY_WINDOW_MS,
  type SyncMediaType,
  type WatchHistoryInput,
  type WatchHistoryItem,
  type WatchHistoryRemoval,
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
import { historyKeyOf, type HistoryRepository, type HistoryRow } from './history.repository.ts';

/** A play as the routes hand it over: its title id decided (the path's or the item's). */
export type HistoryChange = Omit<WatchHistoryInput, 'tmdbId'> & { tmdbId: string };
export interface HistoryRemovalInput {
  seasonId?: string | null | undefined;
  episodeId?: string | null | undefined;
  watchedAt?: string | undefined;
  type?: SyncMediaType | undefined;
  updatedAt?: string | undefined;
}

const ref = (id: string, number: number | null) => ({
  ...(id ? { id } : {}),
  ...(number != null ? { number } : {}),
});

function toItem(row: HistoryRow): WatchHistoryItem {
  return {
    tmdbId: row.tmdb_id,
    episode: ref(row.episode_id, row.episode_number),
    season: ref(row.season_id, row.season_number),
    meta: JSON.parse(row.meta) as WatchHistoryItem['meta'],
    duration: String(row.duration),
    watched: String(row.watched),
    watchedAt: iso(Number(row.watched_at)),
    completed: row.completed === 1,
    updatedAt: iso(row.updated_at),
  };
}
const toRemoval = (row: HistoryRow): WatchHistoryRemoval => ({
  tmdbId: row.tmdb_id,
  type: row.media_type,
  seasonId: row.season_id || null,
  episodeId: row.episode_id || null,
  watchedAt: iso(Number(row.watched_at)),
  removedAt: iso(row.updated_at),
});

/**
 * Watch history (decision 095): one row per play, keyed by the movie or episode and when it was
 * watched, so a rewatch is a new entry and sending a play again changes nothing. Last writer wins per
 * play by change time; a removal is a tombstone, so a late, older write of that play stays removed.
 * Plays a device reports while watching fold into one of the same title held within a few hours (three
 * devices finishing the same episode together are one play); imports keep every play as dated.
 */
export class HistoryService {
  readonly library: LibraryStore<HistoryRow, HistoryRow, WatchHistoryItem, WatchHistoryRemoval>;

  constructor(
    db: Kysely<Database>,
    private readonly history: HistoryRepository,
    private readonly now: () => number,
  ) {
    this.library = new LibraryStore<HistoryRow, HistoryRow, WatchHistoryItem, WatchHistoryRemoval>(
      db,
      history.dialect,
      history.versions,
      {
        kind: 'history',
        listSlice: (lib, from, limit, trx) => history.listSlice(lib, from, limit, trx),
        changesAfter: async (lib, cursor, count, trx) =>
          (await history.changedAfter(lib, cursor.after, count, trx)).map((row) =>
            row.deleted ? { seq: row.seq, removal: row } : { seq: row.seq, row },
          ),
        toItem,
        toRemoval,
      },
    );
  }

  /**
   * Records plays. `imported`: a file or another server's history — every play kept at its own time,
   * undated items only filling gaps; otherwise a device reporting what it just watched (undated = now).
   * Written in transactions of a few hundred rows; refused as a whole (409) past the library's limit.
   */
  async record(
    lib: LibraryRef,
    changes: readonly HistoryChange[],
    imported: boolean,
  ): Promise<{ success: true; count: number; items: WatchHistoryItem[] }> {
    const now = this.now();
    const items = await latestPerKey<HistoryChange, HistoryRow>(
      changes,
      (change) => this.rowOf(lib, change, changeTimeOf(change.updatedAt, now), now),
      historyKeyOf,
    );
    // A device's report is a change made now when undated: it applies like any dated one.
    if (!imported) for (const item of items) item.dated = true;
    await this.assertRoomFor(
      lib,
      items.map((i) => i.row),
    );
    const stored: HistoryRow[] = [];
    for (const [index, batch] of chunksOf(items, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      stored.push(
        ...(await this.library.write(lib, async (trx) => {
          if (!imported) await this.foldIntoPlaysHeld(trx, lib, batch);
          return this.writeBatch(trx, lib, batch);
        })),
      );
    }
    const live = stored.filter((row) => !row.deleted).map(toItem);
    return { success: true, count: live.length, items: live };
  }

  /** A reported play within the window of a live one of the same title becomes that play. */
  private async foldIntoPlaysHeld(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: Incoming<HistoryRow>[],
  ): Promise<void> {
    for (const { row } of batch) {
      const near = await this.history.playsNear(
        lib,
        row,
        row.watched_at - SAME_PLAY_WINDOW_MS,
        row.watched_at + SAME_PLAY_WINDOW_MS,
        trx,
      );
      if (near.length === 0 || near.some((held) => held.watched_at === row.watched_at)) continue;
      const closest = near.reduce((a, b) =>
        Math.abs(a.watched_at - row.watched_at) <= Math.abs(b.watched_at - row.watched_at) ? a : b,
      );
      row.watched_at = Number(closest.watched_at);
    }
  }

  private writeBatch(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: Incoming<HistoryRow>[],
  ): Promise<HistoryRow[]> {
    // Folding may have made two rows of the batch one play: the later change wins.
    const unique = new Map<string, Incoming<HistoryRow>>();
    for (const item of batch) {
      const key = historyKeyOf(item.row);
      const seen = unique.get(key);
      if (!seen || item.row.updated_at >= seen.row.updated_at) unique.set(key, item);
    }
    return writeImportBatch<HistoryRow>(trx, this.library, lib, [...unique.values()], {
      keyOf: historyKeyOf,
      writeMany: (rows, fillOnly, t) => this.history.writeMany(rows, fillOnly, t),
      findMany: (l, keys, t) => this.history.findMany(l, keys, t),
    });
  }

  /** 409 unless the history has room for the plays it does not hold yet (checked before anything is written). */
  private async assertRoomFor(lib: LibraryRef, rows: HistoryRow[]): Promise<void> {
    const count = await this.history.countLive(lib);
    if (count + rows.length <= LIBRARY_LIMITS.history) return;
    let held = 0;
    for (const batch of chunksOf(rows, LIBRARY_BATCH_ROWS)) {
      held += (await this.history.findMany(lib, batch)).filter((r) => !r.deleted).length;
      await yieldToOthers();
    }
    if (count + rows.length - held > LIBRARY_LIMITS.history) throw libraryFull('history');
  }

  /**
   * Removes the plays of a title (`{}`), of a season, of an episode, or one play (`watchedAt`), of
   * both kinds unless `type` names one. Plays changed after the removal stay.
   */
  async remove(
    lib: LibraryRef,
    tmdbId: string,
    input: HistoryRemovalInput,
  ): Promise<{ success: true; count: number; tmdbId: string; seasonId?: string; episodeId?: string }> {
    const at = changeTimeOf(input.updatedAt, this.now());
    const count = await this.library.write(lib, async (trx) => {
      const rows = await this.history.matching(
        lib,
        {
          tmdb_id: tmdbId,
          media_types: input.type ? [input.type] : ['movie', 'show'],
          season_id: input.seasonId ?? '',
          episode_id: input.episodeId ?? '',
          watched_at: input.watchedAt === undefined ? null : Date.parse(input.watchedAt),
        },
        at,
        trx,
      );
      if (rows.length === 0) return 0;
      const seq = await this.library.reserve(trx, lib, rows.length);
      await this.history.tombstone(lib, rows, at, seq, trx);
      return rows.length;
    });
    return {
      success: true,
      count,
      tmdbId,
      ...(input.seasonId ? { seasonId: input.seasonId } : {}),
      ...(input.episodeId ? { episodeId: input.episodeId } : {}),
    };
  }

  private rowOf(lib: LibraryRef, change: HistoryChange, at: number, now: number): HistoryRow {
    const mediaType = mediaTypeOf(change.meta.type, Boolean(change.episodeId || change.seasonId));
    const isShow = mediaType === 'show';
    const meta = change.meta;
    return {
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: change.tmdbId,
      media_type: mediaType,
      season_id: isShow ? (change.seasonId ?? '') : '',
      episode_id: isShow ? (change.episodeId ?? '') : '',
      // A play cannot be in the future: a device whose clock runs ahead reports now.
      watched_at: Math.min(Date.parse(change.watchedAt), now),
      season_number: isShow ? (change.seasonNumber ?? null) : null,
      episode_number: isShow ? (change.episodeNumber ?? null) : null,
      meta: JSON.stringify({
        title: meta.title,
        year: meta.year ?? null,
        ...(meta.poster ? { poster: meta.poster } : {}),
        type: meta.type,
      }),
      duration: change.duration,
      watched: change.watched,
      completed: change.completed ? 1 : 0,
      deleted: 0,
      updated_at: at,
      seq: 0,
    };
  }
}
