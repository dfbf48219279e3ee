import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import {
  mediaTypeOf,
  type ProgressInput,
  type ProgressItem,
  type ProgressListItem,
  type SyncMediaType,
} from '@marquee/contract';
import type { Database } from '../../db/schema.ts';
import { changeTimeOf, iso, type LibraryRef } from '../library/library.ts';
import type { UsersRepository } from '../users/users.repository.ts';
import { deletionCovers, type DeletionRow, type ProgressRepository, type ProgressRow } from './progress.repository.ts';

type ProgressChange = Omit<ProgressInput, 'tmdbId'> & { tmdbId: string };

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

/**
 * Watch progress, one row per movie or episode, keyed by (title id, movie|show, season id, episode id)
 * so a movie and a show with the same TMDB number never collide. Conflict rule: last writer wins by
 * change time, per row; removals are remembered (tombstones) so a late, older write cannot bring
 * back what a user removed. Writes of one user are serialised (row lock on PostgreSQL).
 */
export class ProgressService {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly progress: ProgressRepository,
    private readonly users: UsersRepository,
    private readonly now: () => number,
  ) {}

  async list(lib: LibraryRef): Promise<ProgressListItem[]> {
    return (await this.progress.list(lib)).map(toListDto);
  }

  async put(lib: LibraryRef, change: ProgressChange): Promise<ProgressItem> {
    const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, this.now()));
    return this.db.transaction().execute(async (trx) => {
      await this.users.lockUser(trx, lib.userId);
      const deletions = await this.progress.deletionsOf(lib, [row.tmdb_id], trx);
      if (deletions.some((d) => deletionCovers(d, row) && d.deleted_at > row.updated_at)) {
        // Lost to a later removal: acknowledge what was sent without storing it.
        return toProgressDto(row);
      }
      return toProgressDto(await this.progress.write(row, false, trx));
    });
  }

  /**
   * Merges progress in (never removes). Dated rows follow the conflict rule (the later change wins,
   * whatever `watched` says); undated rows (older clients) only fill gaps. Duplicates within one
   * payload: the latest wins. Answers with the stored rows for the submitted keys.
   */
  async import(lib: LibraryRef, changes: ProgressChange[]): Promise<ProgressListItem[]> {
    const now = this.now();
    const latest = new Map<string, { row: ProgressRow; dated: boolean }>();
    for (const change of changes) {
      const row = this.rowOf(lib, change, changeTimeOf(change.updatedAt, now));
      const dated = change.updatedAt !== undefined;
      const key = [row.tmdb_id, row.media_type, row.season_id, row.episode_id].join('\u0000');
      const seen = latest.get(key);
      if (!seen || (dated && (!seen.dated || row.updated_at >= seen.row.updated_at))) latest.set(key, { row, dated });
    }
    if (latest.size === 0) return [];
    const tmdbIds = [...new Set([...latest.values()].map((v) => v.row.tmdb_id))];
    return this.db.transaction().execute(async (trx) => {
      await this.users.lockUser(trx, lib.userId);
      const deletions = await this.progress.deletionsOf(lib, tmdbIds.length > 500 ? null : tmdbIds, trx);
      const stored: ProgressRow[] = [];
      for (const { row, dated } of latest.values()) {
        if (dated && deletions.some((d) => deletionCovers(d, row) && d.deleted_at > row.updated_at)) continue;
        stored.push(await this.progress.write(row, !dated, trx));
      }
      return stored.map(toListDto);
    });
  }

  /**
   * `{}` removes the whole title (both kinds unless `type` says which), `seasonId` a season,
   * `episodeId` an episode, both an exact episode. Idempotent; answers how many rows went.
   */
  async remove(
    lib: LibraryRef,
    tmdbId: string,
    body: { seasonId?: string | null; episodeId?: string | null; type?: SyncMediaType; updatedAt?: string } = {},
  ): Promise<{ count: number; tmdbId: string; seasonId?: string; episodeId?: string }> {
    const at = changeTimeOf(body.updatedAt, this.now());
    const seasonId = body.seasonId ?? '';
    const episodeId = body.episodeId ?? '';
    const types: SyncMediaType[] = body.type ? [body.type] : seasonId || episodeId ? ['show'] : ['movie', 'show'];
    const count = await this.db.transaction().execute(async (trx) => {
      await this.users.lockUser(trx, lib.userId);
      let removed = 0;
      for (const mediaType of types) {
        const deletion: DeletionRow =
          mediaType === 'movie'
            ? { tmdb_id: tmdbId, media_type: 'movie', season_id: '', episode_id: '', deleted_at: at }
            : { tmdb_id: tmdbId, media_type: 'show', season_id: seasonId, episode_id: episodeId, deleted_at: at };
        removed += await this.progress.remove(lib, deletion, trx);
      }
      return removed;
    });
    return { count, tmdbId, ...(episodeId ? { episodeId } : {}), ...(seasonId ? { seasonId } : {}) };
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
      meta: JSON.stringify({ title: meta.title, year: meta.year ?? null, ...(meta.poster ? { poster: meta.poster } : {}), type: meta.type }),
      duration: Math.round(change.duration),
      watched: Math.round(change.watched),
      updated_at: at,
    };
  }
}
