import type { FastifyBaseLogger } from 'fastify';
import type { LibraryChangeKind, TraktProblem } from '@marquee/contract';
import type { LibraryRef } from '../library/library.ts';
import { TraktError, type TraktActivities, type TraktApi, type TraktHistoryEntry } from './trakt-api.ts';
import type { TraktHistorySync } from './trakt-history-sync.ts';
import { TraktRelinkNeeded, type TraktTokens } from './trakt-tokens.ts';
import type { TraktRatingsSync } from './trakt-ratings-sync.ts';
import type { TraktWatchlistSync } from './trakt-watchlist-sync.ts';
import type { TraktDueRow, TraktLinkRow, TraktRepository } from './trakt.repository.ts';

export interface TraktSyncDeps {
  repo: TraktRepository;
  api: TraktApi;
  tokens: TraktTokens;
  history: TraktHistorySync;
  watchlist: TraktWatchlistSync;
  ratings: TraktRatingsSync;
  /** Tells the library's devices that a kind changed (plays or My List pulled from Trakt). */
  announce: (lib: LibraryRef, kind: LibraryChangeKind) => void;
  now: () => number;
  log: FastifyBaseLogger;
  /** Between two passes of a library when nothing changed here. */
  intervalMs: number;
}

/** How long one pass may hold a link before another process may take it. */
const LEASE_MS = 10 * 60_000;
/** After Trakt did not answer. */
const RETRY_MS = 5 * 60_000;
const HISTORY_PAGE = 1000;

const pick = (activities: TraktActivities | null, group: string, field: string) =>
  String((activities?.[group] as Record<string, unknown> | undefined)?.[field] ?? '');
const historyMoved = (a: TraktActivities | null, b: TraktActivities) =>
  !a ||
  pick(a, 'movies', 'watched_at') !== pick(b, 'movies', 'watched_at') ||
  pick(a, 'episodes', 'watched_at') !== pick(b, 'episodes', 'watched_at');
const watchlistMoved = (a: TraktActivities | null, b: TraktActivities) =>
  !a ||
  pick(a, 'watchlist', 'updated_at') !== pick(b, 'watchlist', 'updated_at') ||
  pick(a, 'movies', 'watchlisted_at') !== pick(b, 'movies', 'watchlisted_at') ||
  pick(a, 'shows', 'watchlisted_at') !== pick(b, 'shows', 'watchlisted_at');

const ratingsMoved = (a: TraktActivities | null, b: TraktActivities) =>
  !a ||
  pick(a, 'movies', 'rated_at') !== pick(b, 'movies', 'rated_at') ||
  pick(a, 'shows', 'rated_at') !== pick(b, 'shows', 'rated_at');

type DueLink = TraktDueRow;

/**
 * The server's Trakt sync (decision 101): every tick (once across processes) each linked library whose
 * pass is due — its time came, "Sync now", or its plays or My List changed here — gets one pass: Trakt's
 * last_activities first (one light request), then the plays and the watchlist when either side moved.
 * A pass that fails leaves everything to the next (nothing is half-applied that the ledger doesn't know).
 */
export class TraktSync {
  constructor(private readonly deps: TraktSyncDeps) {}

  private readonly running = new Set<Promise<void>>();

  /**
   * "Sync now", or a link just made: a pass of this library in the background, right away (unless
   * another process holds it; then the schedule runs it).
   */
  kick(lib: LibraryRef): void {
    const job = (async () => {
      const link = (await this.deps.repo.linked()).find(
        (l) => l.user_id === lib.userId && l.profile_id === lib.profileId,
      );
      if (!link || !(await this.deps.repo.claimLease(lib, this.deps.now(), this.deps.now() + LEASE_MS)))
        return;
      await this.pass(lib, link);
    })()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'a Trakt sync pass failed'))
      .finally(() => this.running.delete(job));
    this.running.add(job);
  }

  /** Waits for passes started by `kick` (the server is closing; tests). */
  async settle(): Promise<void> {
    await Promise.all([...this.running]);
  }

  /** Runs the due passes; answers how many ran. */
  async runDue(): Promise<number> {
    const now = this.deps.now();
    const due = (await this.deps.repo.linked()).filter((link) => {
      if (Number(link.next_sync_at ?? 0) <= now) return true;
      // Trakt asked to wait, or did not answer: changes here wait for that time too.
      if (link.problem === 'rate_limited' || link.problem === 'unreachable') return false;
      return (
        (link.history_now ?? 0) !== Number(link.history_version) ||
        (link.bookmarks_now ?? 0) !== Number(link.bookmarks_version) ||
        (link.ratings_now ?? 0) !== Number(link.ratings_version)
      );
    });
    let ran = 0;
    for (const link of due) {
      const lib = { userId: link.user_id, profileId: link.profile_id };
      if (!(await this.deps.repo.claimLease(lib, this.deps.now(), this.deps.now() + LEASE_MS))) continue;
      ran++;
      await this.pass(lib, link);
    }
    return ran;
  }

  private async pass(lib: LibraryRef, link: DueLink): Promise<void> {
    const { repo, tokens, api } = this.deps;
    const now = this.deps.now();
    try {
      const activities = await tokens.with(lib, link, (t) => api.lastActivities(t));
      const before = link.activities ? (JSON.parse(link.activities) as TraktActivities) : null;
      const historyHere = link.history_now ?? 0;
      const bookmarksHere = link.bookmarks_now ?? 0;
      const ratingsHere = link.ratings_now ?? 0;
      let complete = true;
      let problem: TraktProblem | null = null;
      const pullHistory = historyMoved(before, activities);
      if (pullHistory || historyHere !== Number(link.history_version)) {
        const result = await this.deps.history.run(lib, this.historyCalls(lib, link), pullHistory);
        complete = result.complete;
        if (result.changedHere) this.deps.announce(lib, 'history');
      }
      if (watchlistMoved(before, activities) || bookmarksHere !== Number(link.bookmarks_version)) {
        const result = await this.deps.watchlist.run(lib, this.watchlistCalls(lib, link));
        if (result.limitReached) problem = 'limit_reached';
        if (result.changedHere) this.deps.announce(lib, 'bookmarks');
      }
      if (ratingsMoved(before, activities) || ratingsHere !== Number(link.ratings_version)) {
        const result = await this.deps.ratings.run(lib, this.ratingsCalls(lib, link));
        if (result.changedHere) this.deps.announce(lib, 'ratings');
      }
      await repo.updateLink(lib, {
        // Not all of Trakt's plays could be recorded: read them again next time.
        activities: complete ? JSON.stringify(activities) : link.activities,
        history_version: historyHere,
        bookmarks_version: bookmarksHere,
        ratings_version: ratingsHere,
        last_sync_at: this.deps.now(),
        next_sync_at: now + this.deps.intervalMs,
        lease_until: 0,
        problem,
        updated_at: this.deps.now(),
      });
    } catch (error) {
      await this.failed(lib, error);
    }
  }

  private async failed(lib: LibraryRef, error: unknown): Promise<void> {
    const now = this.deps.now();
    if (error instanceof TraktRelinkNeeded) {
      await this.deps.repo.updateLink(lib, { lease_until: 0, updated_at: now });
      return;
    }
    let problem: TraktProblem = 'unreachable';
    let next = now + RETRY_MS;
    if (error instanceof TraktError && error.failure === 'rate_limited') {
      problem = 'rate_limited';
      next = now + Math.max(1000, error.retryAfterMs ?? 60_000);
    } else if (!(error instanceof TraktError)) {
      this.deps.log.warn({ err: error }, 'a Trakt sync pass failed; it will run again');
    }
    await this.deps.repo.updateLink(lib, { problem, next_sync_at: next, lease_until: 0, updated_at: now });
  }

  private historyCalls(lib: LibraryRef, link: TraktLinkRow) {
    const { tokens, api } = this.deps;
    return {
      history: async () => {
        const entries: TraktHistoryEntry[] = [];
        for (let page = 1; ; page++) {
          const result = await tokens.with(lib, link, (t) => api.historyPage(t, page, HISTORY_PAGE));
          entries.push(...result.items);
          if (page >= result.pageCount || result.items.length === 0) return entries;
        }
      },
      add: (body: unknown) => tokens.with(lib, link, (t) => api.addHistory(t, body)),
      remove: (body: unknown) => tokens.with(lib, link, (t) => api.removeHistory(t, body)),
    };
  }

  private ratingsCalls(lib: LibraryRef, link: TraktLinkRow) {
    const { tokens, api } = this.deps;
    return {
      ratings: () => tokens.with(lib, link, (t) => api.ratings(t)),
      add: (body: unknown) => tokens.with(lib, link, (t) => api.addRatings(t, body)),
      remove: (body: unknown) => tokens.with(lib, link, (t) => api.removeRatings(t, body)),
    };
  }

  private watchlistCalls(lib: LibraryRef, link: TraktLinkRow) {
    const { tokens, api } = this.deps;
    return {
      watchlist: () => tokens.with(lib, link, (t) => api.watchlist(t)),
      add: (body: unknown) => tokens.with(lib, link, (t) => api.addWatchlist(t, body)),
      remove: (body: unknown) => tokens.with(lib, link, (t) => api.removeWatchlist(t, body)),
    };
  }
}
