import { randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import {
  changeWins,
  mediaTypeOf,
  type ProgressInput,
  type ProgressItem,
  type ProgressListItem,
  type ProgressRemoval,
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
  type ListPosition,
} from '../library/library.ts';
import {
  deletionCovers,
  progressKeyOf,
  type DeletionRow,
  type ProgressRepository,
  type ProgressRow,
} from './progress.repository.ts';

type ProgressChange = Omit<ProgressInput, 'tmdbId'> & { tmdbId: string };

interface PendingSave {
  row: ProgressRow;
  resolve(item: ProgressItem): void;
  reject(error: unknown): void;
}

/** Saves written in one transaction at most (a few milliseconds of work). */
const SAVES_PER_TRANSACTION = 200;

/** Cleanup: progress under this many seconds is barely started… */
export const CLEANUP_MIN_WATCHED_S = 20;
/** …and this close to the end, as good as finished. */
export const CLEANUP_END_MARGIN_S = 120;
const needsCleanup = (row: ProgressRow) =>
  row.watched < CLEANUP_MIN_WATCHED_S || row.duration - row.watched < CLEANUP_END_MARGIN_S;

const uniqueKeys = (rows: ProgressRow[]) => [...new Map(rows.map((r) => [progressKeyOf(r), r])).values()];

function toProgressDto(row: ProgressRow): ProgressItem {
  return {
    id: row.id,
    tmdbId: row.tmdb_id,
    season: { id: row.season_id || null, number: row.season_number },
    episode: { id: row.episode_id || null, number: row.episode_number },
    meta: JSON.parse(row.meta) as ProgressItem['meta'],
    duration: row.duration,
    watched: row.watched,
    updatedAt: iso(row.updated_at),
  };
}
/** Lists carry whole seconds as strings, as the older server's bigint columns did. */
const toListDto = (row: ProgressRow): ProgressListItem => ({
  ...toProgressDto(row),
  duration: String(row.duration),
  watched: String(row.watched),
});
const toRemovalDto = (d: DeletionRow): ProgressRemoval => ({
  tmdbId: d.tmdb_id,
  type: d.media_type,
  seasonId: d.season_id || null,
  episodeId: d.episode_id || null,
  removedAt: iso(d.deleted_at),
});

/**
 * Whether a write loses to a recorded removal: a dated one to a later removal (`changeWins`), an undated
 * one (older clients) to any removal of its row (decision 072).
 */
const removedBefore = (deletions: DeletionRow[], row: ProgressRow, dated: boolean) =>
  deletions.some((d) => deletionCovers(d, row) && (!dated || !changeWins(row.updated_at, d.deleted_at)));

/**
 * Watch progress, one row per movie or episode, keyed by (title id, movie|show, season id, episode id)
 * so a movie and a show with the same TMDB number never collide. Conflict rule: last writer wins by
 * change time, per row; removals are remembered (tombstones) so a late, older write cannot bring
 * back what a user removed. Writes of one library are serialised by its lock (LibraryStore.write,
 * decision 091). Every write takes change numbers, which pages and conditional reads use (decision 072).
 */
export class ProgressService {
  /** Reads (whole list, pages, conditional) and the lock of every write; removals are their own rows. */
  readonly library: LibraryStore<ProgressRow, DeletionRow, ProgressListItem, ProgressRemoval>;

  constructor(
    db: Kysely<Database>,
    private readonly progress: ProgressRepository,
    private readonly now: () => number,
  ) {
    this.library = new LibraryStore(db, progress.dialect, progress.versions, {
      kind: 'progress',
      listSlice: (lib, from, limit, trx) => progress.listSlice(lib, from, limit, trx),
      changesAfter: async (lib, cursor, count, trx) => [
        ...(await progress.changedAfter(lib, cursor.after, count, trx)).map((row) => ({ seq: row.seq, row })),
        // Only the removals a page can send: those above the floor.
        ...(await progress.removedAfter(lib, Math.max(cursor.after, cursor.floor), count, trx)).map(
          (removal) => ({ seq: removal.seq, removal }),
        ),
      ],
      toItem: toListDto,
      toRemoval: toRemovalDto,
    });
  }

  /**
   * One save. Saves of one library that arrive while its previous transaction runs wait and are then
   * written together, in one transaction, in the order they arrived (group commit): the player saves
   * every few seconds from every tab and device, and the library's writes are serialised anyway, so
   * one transaction per save made a busy household wait in line for the database (decision 088).
   */
  put(lib: LibraryRef, change: ProgressChange): Promise<ProgressItem> {
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, this.now()));
    const key = `${lib.userId}\u0000${lib.profileId}`;
    return new Promise<ProgressItem>((resolve, reject) => {
      const queue = this.pendingSaves.get(key);
      if (queue) {
        queue.push({ row, resolve, reject });
        return;
      }
      this.pendingSaves.set(key, [{ row, resolve, reject }]);
      void this.drainSaves(lib, key);
    });
  }

  private readonly pendingSaves = new Map<string, PendingSave[]>();

  /** Writes the library's waiting saves, a batch per transaction, until none waits. */
  private async drainSaves(lib: LibraryRef, key: string): Promise<void> {
    for (;;) {
      const queue = this.pendingSaves.get(key)!;
      const batch = queue.splice(0, SAVES_PER_TRANSACTION);
      if (batch.length === 0) {
        this.pendingSaves.delete(key);
        return;
      }
      try {
        const answers = await this.library.write(lib, (trx) => this.saveBatch(trx, lib, batch));
        batch.forEach((save, i) => {
          const answer = answers[i]!;
          if (answer instanceof Error) save.reject(answer);
          else save.resolve(answer);
        });
      } catch (error) {
        for (const save of batch) save.reject(error);
      }
    }
  }

  /**
   * Applies saves in arrival order, as if each had its own transaction: a save that lost to a later
   * removal is acknowledged and not stored; one older than what is held changes nothing and answers
   * what is held; a new row past the library's limit is refused (that save only). Each key's last
   * winning save is written, in one statement, with a change number of its own.
   */
  private async saveBatch(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: PendingSave[],
  ): Promise<(ProgressItem | Error)[]> {
    const rows = batch.map((s) => s.row);
    const deletions = await this.progress.deletionsOf(lib, [...new Set(rows.map((r) => r.tmdb_id))], trx);
    const held = new Map(
      (await this.progress.findMany(lib, uniqueKeys(rows), trx)).map((r) => [progressKeyOf(r), r]),
    );
    let count: number | null = null;
    const winners = new Map<string, ProgressRow>();
    // Per save: its error, or the row it answers with (under its key's id once written).
    const outcome: (Error | { row: ProgressRow; key: string | null })[] = [];
    for (const row of rows) {
      const key = progressKeyOf(row);
      const current = held.get(key);
      if (removedBefore(deletions, row, true)) outcome.push({ row, key: null });
      else if (current && !changeWins(row.updated_at, current.updated_at))
        outcome.push({ row: current, key });
      else {
        if (!current) {
          count ??= await this.progress.count(lib, trx);
          if (count >= LIBRARY_LIMITS.progress) {
            outcome.push(libraryFull('progress'));
            continue;
          }
          count += 1;
        }
        held.set(key, row);
        winners.set(key, row);
        outcome.push({ row, key });
      }
    }
    const written = new Map<string, ProgressRow>();
    if (winners.size > 0) {
      let seq = await this.library.reserve(trx, lib, winners.size);
      for (const row of winners.values()) row.seq = seq++;
      for (const row of await this.progress.writeMany([...winners.values()], false, trx))
        written.set(progressKeyOf(row), row);
    }
    return outcome.map((o) => {
      if (o instanceof Error) return o;
      const stored = o.key === null ? undefined : written.get(o.key);
      if (!stored) return toProgressDto(o.row);
      if (winners.get(o.key!) === o.row) return toProgressDto(stored);
      // A save a later one of the batch replaced answers as it was written, under the row's id.
      return toProgressDto({ ...o.row, id: stored.id });
    });
  }

  /**
   * Merges progress in (never removes). Dated rows follow the conflict rule (the later change wins,
   * whatever `watched` says); undated rows (older clients) only fill gaps — never over a row the
   * account has, nor over a removal. Duplicates within one payload: the latest wins. Written in
   * transactions of a few hundred rows with other requests served between them. Refused as a whole
   * (409) when the new rows would take the library past its limit. Answers with the stored rows for
   * the submitted keys.
   */
  async import(lib: LibraryRef, changes: ProgressChange[]): Promise<ProgressListItem[]> {
    const now = this.now();
    const items = await latestPerKey<ProgressChange, ProgressRow>(
      changes,
      (change) => this.rowOf(lib, change, changeTimeOf(change.updatedAt, now)),
      progressKeyOf,
    );
    if (items.length === 0) return [];
    await this.assertRoomFor(
      lib,
      items.map((i) => i.row),
    );
    const answer: ProgressListItem[] = [];
    for (const [index, batch] of chunksOf(items, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      const stored = await this.library.write(lib, (trx) => this.importBatch(trx, lib, batch));
      answer.push(...stored.map(toListDto));
    }
    return answer;
  }

  /** One transaction of an import: the rows that survive the removals, written in two statements. */
  private async importBatch(
    trx: Transaction<Database>,
    lib: LibraryRef,
    batch: Incoming<ProgressRow>[],
  ): Promise<ProgressRow[]> {
    const deletions = await this.progress.deletionsOf(
      lib,
      [...new Set(batch.map((b) => b.row.tmdb_id))],
      trx,
    );
    const kept = batch.filter(({ row, dated }) => !removedBefore(deletions, row, dated));
    return writeImportBatch<ProgressRow>(trx, this.library, lib, kept, {
      keyOf: progressKeyOf,
      writeMany: (rows, fillOnly, t) => this.progress.writeMany(rows, fillOnly, t),
      findMany: (l, keys, t) => this.progress.findMany(l, keys, t),
    });
  }

  /** 409 unless the library has room for the rows it does not hold yet (checked before anything is written). */
  private async assertRoomFor(lib: LibraryRef, rows: ProgressRow[]): Promise<void> {
    const count = await this.progress.count(lib);
    if (count + rows.length <= LIBRARY_LIMITS.progress) return;
    let held = 0;
    for (const batch of chunksOf(rows, LIBRARY_BATCH_ROWS)) {
      held += (await this.progress.findMany(lib, batch)).length;
      await yieldToOthers();
    }
    if (count + rows.length - held > LIBRARY_LIMITS.progress) throw libraryFull('progress');
  }

  /**
   * `{}` removes the whole title (both kinds unless `type` says which), `seasonId` a season,
   * `episodeId` an episode, both an exact episode. Idempotent; answers how many rows went.
   */
  async remove(
    lib: LibraryRef,
    tmdbId: string,
    body: {
      seasonId?: string | null;
      episodeId?: string | null;
      type?: SyncMediaType;
      updatedAt?: string;
    } = {},
  ): Promise<{ count: number; tmdbId: string; seasonId?: string; episodeId?: string }> {
    const at = changeTimeOf(body.updatedAt, this.now());
    const seasonId = body.seasonId ?? '';
    const episodeId = body.episodeId ?? '';
    const types: SyncMediaType[] = body.type
      ? [body.type]
      : seasonId || episodeId
        ? ['show']
        : ['movie', 'show'];
    const count = await this.library.write(lib, async (trx) => {
      let seq = await this.library.reserve(trx, lib, types.length);
      let removed = 0;
      for (const mediaType of types) {
        const deletion: DeletionRow =
          mediaType === 'movie'
            ? {
                tmdb_id: tmdbId,
                media_type: 'movie',
                season_id: '',
                episode_id: '',
                deleted_at: at,
                seq: seq++,
              }
            : {
                tmdb_id: tmdbId,
                media_type: 'show',
                season_id: seasonId,
                episode_id: episodeId,
                deleted_at: at,
                seq: seq++,
              };
        removed += await this.progress.remove(lib, deletion, trx);
      }
      return removed;
    });
    return { count, tmdbId, ...(episodeId ? { episodeId } : {}), ...(seasonId ? { seasonId } : {}) };
  }

  /**
   * p-stream's "clean up progress": removes every row that is barely started (under
   * `CLEANUP_MIN_WATCHED_S`) or as good as finished (within `CLEANUP_END_MARGIN_S` of the end), the rows
   * that only clutter Continue Watching. Each as a removal, so the other devices drop it too; written a
   * few hundred at a time.
   */
  async cleanup(lib: LibraryRef): Promise<{ deletedCount: number; message: string }> {
    const doomed: ProgressRow[] = [];
    let from: ListPosition | null = null;
    for (;;) {
      const slice = await this.progress.listSlice(lib, from, LIBRARY_BATCH_ROWS * 2);
      doomed.push(...slice.filter(needsCleanup));
      const last = slice.at(-1);
      if (!last || slice.length < LIBRARY_BATCH_ROWS * 2) break;
      from = { updatedAt: last.updated_at, seq: last.seq };
      await yieldToOthers();
    }
    const at = this.now();
    let deletedCount = 0;
    for (const [index, batch] of chunksOf(doomed, LIBRARY_BATCH_ROWS).entries()) {
      if (index > 0) await yieldToOthers();
      deletedCount += await this.library.write(lib, async (trx) => {
        let seq = await this.library.reserve(trx, lib, batch.length);
        let removed = 0;
        for (const row of batch)
          removed += await this.progress.remove(
            lib,
            {
              tmdb_id: row.tmdb_id,
              media_type: row.media_type,
              season_id: row.season_id,
              episode_id: row.episode_id,
              deleted_at: at,
              seq: seq++,
            },
            trx,
          );
        return removed;
      });
    }
    return {
      deletedCount,
      message: `Removed ${deletedCount} progress ${deletedCount === 1 ? 'entry' : 'entries'} barely started or already finished`,
    };
  }

  private rowOf(lib: LibraryRef, change: ProgressChange, at: number): ProgressRow {
    const mediaType = mediaTypeOf(change.meta.type, Boolean(change.episodeId || change.seasonId));
    const isShow = mediaType === 'show';
    const meta = change.meta;
    return {
      id: randomUUID(),
      user_id: lib.userId,
      profile_id: lib.profileId,
      tmdb_id: change.tmdbId,
      media_type: mediaType,
      season_id: isShow ? (change.seasonId ?? '') : '',
      episode_id: isShow ? (change.episodeId ?? '') : '',
      season_number: isShow ? (change.seasonNumber ?? null) : null,
      episode_number: isShow ? (change.episodeNumber ?? null) : null,
      meta: JSON.stringify({
        title: meta.title,
        year: meta.year ?? null,
        ...(meta.poster ? { poster: meta.poster } : {}),
        type: meta.type,
      }),
      duration: Math.round(change.duration),
      watched: Math.round(change.watched),
      updated_at: at,
      seq: 0,
    };
  }
}
