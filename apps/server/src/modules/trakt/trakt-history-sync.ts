import { SAME_PLAY_WINDOW_MS } from '@marquee/contract';
import type { HistoryChange, HistoryService } from '../history/history.service.ts';
import { historyKeyOf, type HistoryRepository, type HistoryRow } from '../history/history.repository.ts';
import type { LibraryRef } from '../library/library.ts';
import type { TraktHistoryEntry } from './trakt-api.ts';
import { itemOfEntry, itemOfPlay, notFoundItems, partsOf, traktBodyOf } from './trakt-items.ts';
import type { TraktPlayRow, TraktRepository } from './trakt.repository.ts';

/** What one side's call needs: the other side's calls run with a valid token. */
export interface TraktHistoryCalls {
  history(): Promise<TraktHistoryEntry[]>;
  add(body: unknown): Promise<unknown>;
  remove(body: unknown): Promise<unknown>;
}

/** Season and episode ids of an episode (TMDB's), for a play pulled from Trakt. */
export type EpisodeIds = (
  show: string,
  season: number,
  episode: number,
) => Promise<{ seasonId: string; episodeId: string } | undefined>;

export interface HistorySyncDeps {
  repo: TraktRepository;
  history: HistoryService;
  historyRepo: HistoryRepository;
  episodeIds: EpisodeIds;
  now: () => number;
}

/** Plays pushed to Trakt per request. */
const PUSH_BATCH = 100;
const near = (a: number, b: number) => Math.abs(a - b) <= SAME_PLAY_WINDOW_MS;
const at = (value: number | string | null) => (value === null ? null : Number(value));
const marqueeKeyOf = (row: TraktPlayRow) => historyKeyOf({ ...row, watched_at: Number(row.marquee_at) });

function groupBy<T>(values: T[], keyOf: (value: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const value of values) {
    const key = keyOf(value);
    const group = groups.get(key);
    if (group) group.push(value);
    else groups.set(key, [value]);
  }
  return groups;
}

interface Side {
  ledger: TraktPlayRow[];
  /** Live Marquee plays Trakt can name, by their history key. */
  plays: Map<string, HistoryRow & { item: string }>;
}

/**
 * One pass over a library's plays (decision 101). Trakt's whole history is read when it changed there;
 * then every play is matched to one on the other side by title and time (within the window that makes
 * several devices' reports one play): a Trakt play with no match here is recorded here, a play here with
 * no match there is sent once (the ledger keeps what was sent), a play removed on one side goes on the
 * other. Answers false when some Trakt play could not be recorded yet (read Trakt again next time).
 */
export class TraktHistorySync {
  constructor(private readonly deps: HistorySyncDeps) {}

  async run(
    lib: LibraryRef,
    calls: TraktHistoryCalls,
    pullTrakt: boolean,
  ): Promise<{ complete: boolean; changedHere: boolean }> {
    const passStart = this.deps.now();
    const side: Side = { ledger: await this.deps.repo.plays(lib), plays: await this.livePlays(lib) };
    let result = { complete: true, changedHere: false };
    if (pullTrakt) {
      result = await this.pull(lib, side, await calls.history(), passStart);
      if (result.changedHere) side.plays = await this.livePlays(lib);
      side.ledger = await this.deps.repo.plays(lib);
    }
    await this.sendRemovals(side, calls);
    await this.push(lib, side, calls);
    return result;
  }

  /** Every live play (the whole-list read answers one per title: this reads them all, by change number). */
  private async livePlays(lib: LibraryRef): Promise<Side['plays']> {
    const plays: Side['plays'] = new Map();
    for (let after = 0; ;) {
      const rows = await this.deps.historyRepo.changedAfter(lib, after, 1000);
      for (const row of rows) {
        const item = row.deleted ? undefined : itemOfPlay(row);
        if (item) plays.set(historyKeyOf({ ...row, watched_at: Number(row.watched_at) }), { ...row, item });
      }
      if (rows.length < 1000) return plays;
      after = Number(rows[rows.length - 1]!.seq);
    }
  }

  /** Trakt's plays against the ledger: ids attached, matches recorded, new ones recorded here, removals followed. */
  private async pull(lib: LibraryRef, side: Side, entries: TraktHistoryEntry[], passStart: number) {
    const byTraktId = new Map(side.ledger.filter((r) => r.trakt_id).map((r) => [r.trakt_id!, r]));
    const linkedHere = new Set(side.ledger.filter((r) => r.marquee_at !== null).map(marqueeKeyOf));
    const seen = new Set<string>();
    const ledgerByItem = groupBy(side.ledger, (r) => r.item);
    const playsByItem = groupBy([...side.plays.entries()], ([, play]) => play.item);
    const fresh: { entry: TraktHistoryEntry; item: string; at: number }[] = [];
    const newRows: Omit<TraktPlayRow, 'id'>[] = [];
    for (const entry of entries) {
      const item = itemOfEntry(entry);
      const traktAt = Date.parse(entry.watched_at);
      if (!item || !Number.isFinite(traktAt)) continue;
      const id = String(entry.id);
      if (byTraktId.has(id)) {
        seen.add(byTraktId.get(id)!.id);
        continue;
      }
      const waiting = (ledgerByItem.get(item) ?? []).find(
        (r) => r.item === item && r.trakt_id === null && !seen.has(r.id) && near(Number(r.trakt_at), traktAt),
      );
      if (waiting) {
        seen.add(waiting.id);
        await this.deps.repo.updatePlay(waiting.id, { trakt_id: id, trakt_at: traktAt });
        continue;
      }
      const here = (playsByItem.get(item) ?? []).find(
        ([key, play]) => !linkedHere.has(key) && near(Number(play.watched_at), traktAt),
      );
      if (here) {
        linkedHere.add(here[0]);
        newRows.push(this.ledgerRow(lib, here[1], id, traktAt, 'matched'));
        continue;
      }
      fresh.push({ entry, item, at: traktAt });
    }
    await this.deps.repo.addPlays(newRows);
    const changedHere = await this.followTraktRemovals(lib, side, seen, passStart);
    const recorded = await this.recordHere(lib, fresh);
    return { complete: recorded.complete, changedHere: changedHere || recorded.count > 0 };
  }

  /** Ledger plays Trakt no longer has: removed there (or, never given an id, not recorded: sent again). */
  private async followTraktRemovals(lib: LibraryRef, side: Side, seen: Set<string>, passStart: number) {
    const gone = side.ledger.filter(
      (r) =>
        !seen.has(r.id) &&
        (r.trakt_id !== null ||
          (r.origin !== 'matched' && r.origin !== 'pulled' && r.created_at < passStart)),
    );
    let changed = false;
    for (const row of gone) {
      if (row.trakt_id === null || row.marquee_at === null || !side.plays.has(marqueeKeyOf(row))) continue;
      await this.deps.history.remove(lib, row.tmdb_id, {
        type: row.media_type,
        seasonId: row.season_id || null,
        episodeId: row.episode_id || null,
        watchedAt: new Date(Number(row.marquee_at)).toISOString(),
      });
      changed = true;
    }
    await this.deps.repo.deletePlays(gone.filter((r) => r.origin !== 'unknown').map((r) => r.id));
    return changed;
  }

  /** New Trakt plays become plays here, at Trakt's time, with the ids TMDB gives their episodes. */
  private async recordHere(lib: LibraryRef, fresh: { entry: TraktHistoryEntry; item: string; at: number }[]) {
    const changes: HistoryChange[] = [];
    const rows: Omit<TraktPlayRow, 'id'>[] = [];
    let complete = true;
    for (const { entry, item, at: traktAt } of fresh) {
      const parts = partsOf(item);
      const source = entry.type === 'movie' ? entry.movie : entry.show;
      let ids = { seasonId: '', episodeId: '' };
      if (parts.type === 'show') {
        const found = await this.deps
          .episodeIds(String(parts.tmdb), parts.season!, parts.episode!)
          .catch(() => undefined);
        if (!found) {
          complete = false;
          continue;
        }
        ids = found;
      }
      const watchedAt = new Date(traktAt).toISOString();
      changes.push({
        tmdbId: String(parts.tmdb),
        meta: { title: source?.title ?? '', year: source?.year ?? null, type: parts.type },
        duration: 0,
        watched: 0,
        watchedAt,
        completed: true,
        ...(parts.type === 'show'
          ? { ...ids, seasonNumber: parts.season!, episodeNumber: parts.episode! }
          : {}),
      });
      rows.push({
        user_id: lib.userId,
        profile_id: lib.profileId,
        item,
        tmdb_id: String(parts.tmdb),
        media_type: parts.type,
        season_id: ids.seasonId,
        episode_id: ids.episodeId,
        marquee_at: Math.min(traktAt, this.deps.now()),
        trakt_id: String(entry.id),
        trakt_at: traktAt,
        origin: 'pulled',
        created_at: this.deps.now(),
      });
    }
    if (changes.length) await this.deps.history.record(lib, changes, true);
    await this.deps.repo.addPlays(rows);
    return { complete, count: changes.length };
  }

  /** Plays removed here that Trakt has (by its history id) are removed there. */
  private async sendRemovals(side: Side, calls: TraktHistoryCalls): Promise<void> {
    const removed = side.ledger.filter((r) => r.marquee_at !== null && !side.plays.has(marqueeKeyOf(r)));
    const withId = removed.filter((r) => r.trakt_id !== null);
    for (let i = 0; i < withId.length; i += PUSH_BATCH) {
      const batch = withId.slice(i, i + PUSH_BATCH);
      await calls.remove({ ids: batch.map((r) => Number(r.trakt_id)) });
      await this.deps.repo.deletePlays(batch.map((r) => r.id));
    }
    await this.deps.repo.deletePlays(removed.filter((r) => r.origin === 'unknown').map((r) => r.id));
  }

  /** Plays here that Trakt does not have are sent once (a scrobble's play or a match counts as had). */
  private async push(lib: LibraryRef, side: Side, calls: TraktHistoryCalls): Promise<void> {
    const linked = new Set(side.ledger.filter((r) => r.marquee_at !== null).map(marqueeKeyOf));
    const unclaimed = side.ledger.filter((r) => r.marquee_at === null);
    const toSend: (HistoryRow & { item: string })[] = [];
    for (const [key, play] of side.plays) {
      if (linked.has(key)) continue;
      const index = unclaimed.findIndex(
        (r) => r.item === play.item && near(Number(r.trakt_at), Number(play.watched_at)),
      );
      if (index < 0) {
        toSend.push(play);
        continue;
      }
      const [claimed] = unclaimed.splice(index, 1);
      await this.deps.repo.updatePlay(claimed!.id, {
        tmdb_id: play.tmdb_id,
        media_type: play.media_type,
        season_id: play.season_id,
        episode_id: play.episode_id,
        marquee_at: Number(play.watched_at),
      });
    }
    for (let i = 0; i < toSend.length; i += PUSH_BATCH) {
      const batch = toSend.slice(i, i + PUSH_BATCH);
      const answer = await calls.add(
        traktBodyOf(batch.map((p) => ({ item: p.item, watchedAt: Number(p.watched_at) }))),
      );
      const unknown = notFoundItems(answer);
      await this.deps.repo.addPlays(
        batch.map((play) =>
          this.ledgerRow(
            lib,
            play,
            null,
            Number(play.watched_at),
            unknown.has(play.item) ? 'unknown' : 'pushed',
          ),
        ),
      );
    }
  }

  private ledgerRow(
    lib: LibraryRef,
    play: HistoryRow & { item: string },
    traktId: string | null,
    traktAt: number,
    origin: TraktPlayRow['origin'],
  ): Omit<TraktPlayRow, 'id'> {
    return {
      user_id: lib.userId,
      profile_id: lib.profileId,
      item: play.item,
      tmdb_id: play.tmdb_id,
      media_type: play.media_type,
      season_id: play.season_id,
      episode_id: play.episode_id,
      marquee_at: at(play.watched_at),
      trakt_id: traktId,
      trakt_at: traktAt,
      origin,
      created_at: this.deps.now(),
    };
  }
}
