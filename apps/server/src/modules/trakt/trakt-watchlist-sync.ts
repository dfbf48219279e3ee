import type { BookmarksRepository } from '../bookmarks/bookmarks.repository.ts';
import type { BookmarksService } from '../bookmarks/bookmarks.service.ts';
import type { LibraryRef, ListPosition } from '../library/library.ts';
import { TraktError, type TraktWatchlistEntry } from './trakt-api.ts';
import type { TraktRepository, TraktWatchRow } from './trakt.repository.ts';

export interface TraktWatchlistCalls {
  watchlist(): Promise<TraktWatchlistEntry[]>;
  add(body: unknown): Promise<unknown>;
  remove(body: unknown): Promise<unknown>;
}

interface Title {
  type: 'movie' | 'show';
  tmdb: number;
  title: string;
  year: number | null;
}

const keyOf = (t: { type: string; tmdb: number | string }) => `${t.type}:${t.tmdb}`;
const numeric = (id: unknown) =>
  typeof id === 'number' ? id : /^\d{1,10}$/.test(String(id)) ? Number(id) : NaN;

function bodyOf(titles: Title[]) {
  return {
    movies: titles.filter((t) => t.type === 'movie').map((t) => ({ ids: { tmdb: t.tmdb } })),
    shows: titles.filter((t) => t.type === 'show').map((t) => ({ ids: { tmdb: t.tmdb } })),
  };
}

/**
 * My List ↔ Trakt's watchlist (decision 101), a three-way merge against the ledger of what both held at
 * the last pass: a title on one side only is added to the other unless the ledger shows the other side
 * removed it, in which case it goes here too. Answers whether Trakt refused additions over the account's
 * own limit (420), and whether My List changed.
 */
export class TraktWatchlistSync {
  constructor(
    private readonly repo: TraktRepository,
    private readonly bookmarks: BookmarksService,
    private readonly bookmarksRepo: BookmarksRepository,
  ) {}

  async run(
    lib: LibraryRef,
    calls: TraktWatchlistCalls,
  ): Promise<{ limitReached: boolean; changedHere: boolean }> {
    const here = await this.myList(lib);
    const there = new Map<string, Title>();
    for (const entry of await calls.watchlist()) {
      const type = entry.type === 'movie' ? 'movie' : entry.type === 'show' ? 'show' : undefined;
      const source = type === 'movie' ? entry.movie : entry.show;
      const tmdb = numeric(source?.ids.tmdb);
      if (!type || !Number.isSafeInteger(tmdb) || tmdb <= 0) continue;
      there.set(keyOf({ type, tmdb }), {
        type,
        tmdb,
        title: source?.title ?? '',
        year: source?.year ?? null,
      });
    }
    const before = new Set(
      (await this.repo.watchlist(lib)).map((r) => keyOf({ type: r.media_type, tmdb: r.tmdb_id })),
    );
    const plan = {
      toTrakt: [] as Title[],
      offTrakt: [] as Title[],
      toHere: [] as Title[],
      offHere: [] as Title[],
    };
    const both = new Set<string>();
    for (const [key, title] of here) {
      if (there.has(key)) both.add(key);
      else (before.has(key) ? plan.offHere : plan.toTrakt).push(title);
    }
    for (const [key, title] of there)
      if (!here.has(key)) (before.has(key) ? plan.offTrakt : plan.toHere).push(title);
    return this.apply(lib, calls, plan, both);
  }

  private async apply(
    lib: LibraryRef,
    calls: TraktWatchlistCalls,
    plan: { toTrakt: Title[]; offTrakt: Title[]; toHere: Title[]; offHere: Title[] },
    both: Set<string>,
  ) {
    if (plan.offTrakt.length) await calls.remove(bodyOf(plan.offTrakt));
    let limitReached = false;
    if (plan.toTrakt.length) {
      try {
        await calls.add(bodyOf(plan.toTrakt));
        for (const t of plan.toTrakt) both.add(keyOf(t));
      } catch (error) {
        if (!(error instanceof TraktError) || error.failure !== 'limit_reached') throw error;
        limitReached = true;
      }
    }
    if (plan.toHere.length)
      await this.bookmarks.import(
        lib,
        plan.toHere.map((t) => ({
          tmdbId: String(t.tmdb),
          meta: { title: t.title, year: t.year, type: t.type },
        })),
      );
    for (const t of plan.toHere) both.add(keyOf(t));
    for (const t of plan.offHere) await this.bookmarks.remove(lib, String(t.tmdb), t.type, undefined);
    await this.repo.setWatchlist(
      lib,
      [...both].map((key): TraktWatchRow => {
        const [type, tmdb] = key.split(':') as ['movie' | 'show', string];
        return { user_id: lib.userId, profile_id: lib.profileId, tmdb_id: tmdb, media_type: type };
      }),
    );
    return { limitReached, changedHere: plan.toHere.length + plan.offHere.length > 0 };
  }

  private async myList(lib: LibraryRef): Promise<Map<string, Title>> {
    const titles = new Map<string, Title>();
    let from: ListPosition | null = null;
    for (;;) {
      const rows = await this.bookmarksRepo.listSlice(lib, from, 1000);
      for (const row of rows) {
        const tmdb = numeric(row.tmdb_id);
        if (!Number.isSafeInteger(tmdb) || tmdb <= 0) continue;
        const meta = JSON.parse(row.meta) as { title?: string; year?: number | null };
        const title: Title = { type: row.media_type, tmdb, title: meta.title ?? '', year: meta.year ?? null };
        titles.set(keyOf(title), title);
      }
      if (rows.length < 1000) return titles;
      const last = rows[rows.length - 1]!;
      from = { updatedAt: Number(last.updated_at), seq: Number(last.seq) };
    }
  }
}
