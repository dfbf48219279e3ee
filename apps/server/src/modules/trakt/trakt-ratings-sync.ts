import type { LibraryRef } from '../library/library.ts';
import type { TraktRatingEntry } from './trakt-api.ts';
import type { TraktRatingRow, TraktRepository } from './trakt.repository.ts';

export interface TraktRatingsCalls {
  ratings(): Promise<TraktRatingEntry[]>;
  add(body: unknown): Promise<unknown>;
  remove(body: unknown): Promise<unknown>;
}

/** A rating of a movie or a show, on either side. */
export interface SyncedRating {
  type: 'movie' | 'show';
  tmdb: number;
  rating: number;
  /** When it was rated (epoch ms). */
  ratedAt: number;
  title: string;
  year: number | null;
}

/** The library's ratings as the pass reads and writes them (the ratings module's, decision 103). */
export interface RatingsAccess {
  /** The library's ratings (not the removed ones), of titles with a TMDB id. */
  list(lib: LibraryRef): Promise<SyncedRating[]>;
  /** Ratings from Trakt, written as a change made now (they replace what is held). */
  put(lib: LibraryRef, ratings: SyncedRating[]): Promise<void>;
  remove(lib: LibraryRef, rating: Pick<SyncedRating, 'type' | 'tmdb'>): Promise<void>;
}

const keyOf = (t: { type: string; tmdb: number | string }) => `${t.type}:${t.tmdb}`;
const numeric = (id: unknown) =>
  typeof id === 'number' ? id : /^\d{1,10}$/.test(String(id)) ? Number(id) : NaN;

function fromTrakt(entry: TraktRatingEntry): SyncedRating | null {
  const type = entry.type === 'movie' ? 'movie' : entry.type === 'show' ? 'show' : undefined;
  const source = type === 'movie' ? entry.movie : entry.show;
  const tmdb = numeric(source?.ids.tmdb);
  const ratedAt = Date.parse(entry.rated_at);
  if (!type || !Number.isSafeInteger(tmdb) || tmdb <= 0) return null;
  if (!Number.isInteger(entry.rating) || entry.rating < 1 || entry.rating > 10) return null;
  return {
    type,
    tmdb,
    rating: entry.rating,
    ratedAt: Number.isNaN(ratedAt) ? 0 : ratedAt,
    title: source?.title ?? '',
    year: source?.year ?? null,
  };
}

function bodyOf(ratings: SyncedRating[], withValue: boolean) {
  const item = (r: SyncedRating) => ({
    ...(withValue ? { rating: r.rating, rated_at: new Date(r.ratedAt).toISOString() } : {}),
    ids: { tmdb: r.tmdb },
  });
  return {
    movies: ratings.filter((r) => r.type === 'movie').map(item),
    shows: ratings.filter((r) => r.type === 'show').map(item),
  };
}

interface Plan {
  toTrakt: SyncedRating[];
  offTrakt: SyncedRating[];
  toHere: SyncedRating[];
  offHere: SyncedRating[];
  /** What both sides hold once the plan is carried out. */
  agreed: Map<string, SyncedRating>;
}

/**
 * One title's ratings, here and on Trakt, against what both held at the last pass (`before`): the side
 * that changed since wins; both changed, the later rating; one side only, the other side's removal or a
 * copy.
 */
function decide(plan: Plan, key: string, here?: SyncedRating, there?: SyncedRating, before?: number): void {
  const take = (winner: SyncedRating, to: SyncedRating[]) => {
    to.push(winner);
    plan.agreed.set(key, winner);
  };
  if (here && there) {
    if (here.rating === there.rating) plan.agreed.set(key, here);
    else if (there.rating === before) take(here, plan.toTrakt);
    else if (here.rating === before) take(there, plan.toHere);
    else if (there.ratedAt > here.ratedAt) take(there, plan.toHere);
    else take(here, plan.toTrakt);
    return;
  }
  // On one side only: removed on the other since the last pass — unless changed since on this side.
  if (here) {
    if (before === here.rating) plan.offHere.push(here);
    else take(here, plan.toTrakt);
  } else if (there) {
    if (before === there.rating) plan.offTrakt.push(there);
    else take(there, plan.toHere);
  }
}

/**
 * Ratings ↔ Trakt's ratings of movies and shows (decision 103), a three-way merge against the ledger
 * `trakt_ratings` of what both held, with the value, at the last pass. Answers whether ratings here
 * changed.
 */
export class TraktRatingsSync {
  constructor(
    private readonly repo: TraktRepository,
    private readonly ratings: RatingsAccess,
  ) {}

  async run(lib: LibraryRef, calls: TraktRatingsCalls): Promise<{ changedHere: boolean }> {
    const here = new Map((await this.ratings.list(lib)).map((r) => [keyOf(r), r]));
    const there = new Map<string, SyncedRating>();
    for (const entry of await calls.ratings()) {
      const rating = fromTrakt(entry);
      if (rating) there.set(keyOf(rating), rating);
    }
    const before = new Map(
      (await this.repo.ratings(lib)).map((r) => [keyOf({ type: r.media_type, tmdb: r.tmdb_id }), r.rating]),
    );
    const plan: Plan = { toTrakt: [], offTrakt: [], toHere: [], offHere: [], agreed: new Map() };
    for (const key of new Set([...here.keys(), ...there.keys()]))
      decide(plan, key, here.get(key), there.get(key), before.get(key));
    if (plan.offTrakt.length) await calls.remove(bodyOf(plan.offTrakt, false));
    if (plan.toTrakt.length) await calls.add(bodyOf(plan.toTrakt, true));
    if (plan.toHere.length) await this.ratings.put(lib, plan.toHere);
    for (const r of plan.offHere) await this.ratings.remove(lib, r);
    await this.repo.setRatings(
      lib,
      [...plan.agreed.values()].map((r): TraktRatingRow => ({
        user_id: lib.userId,
        profile_id: lib.profileId,
        tmdb_id: String(r.tmdb),
        media_type: r.type,
        rating: r.rating,
      })),
    );
    return { changedHere: plan.toHere.length + plan.offHere.length > 0 };
  }
}
