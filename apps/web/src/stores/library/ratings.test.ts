import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EARLIEST_WATCH_MS } from '@marquee/contract/values';
import { clock } from '../../lib/clock.ts';
import { createLibraryStore, librarySpec, setOutboxRecording } from './library-store.ts';
import {
  applyOp,
  coalesce,
  describeOp,
  latestTimeFor,
  mergeRemovals,
  mergeServerState,
  type LibraryData,
  type OutboxOp,
} from './outbox.ts';
import { switchLibrary } from './profiles.ts';
import { ratingImportOp } from './ratings-ops.ts';
import { validRatedAt, validRating } from './ratings-rules.ts';
import { isRatingEntry, ratingOf, ratingsByDate } from './ratings-view.ts';

/* Ratings on the device (docs/decisions/103-ratings.md): the outbox's rule, the store's actions. */

const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };
const meta = { title: 'Heat', year: 1995, poster: null };
const T0 = Date.UTC(2026, 5, 1, 12);
const MIN = 60_000;

let seq = 0;
const put = (at: number, rating: number, over: Partial<Extract<OutboxOp, { kind: 'rating-put' }>> = {}) =>
  ({
    id: `op${++seq}`,
    kind: 'rating-put',
    type: 'movie',
    tmdbId: '949',
    meta,
    rating,
    ratedAt: at,
    at,
    ...over,
  }) as OutboxOp;
const remove = (at: number, over: Partial<OutboxOp> = {}) =>
  ({ id: `op${++seq}`, kind: 'rating-remove', type: 'movie', tmdbId: '949', at, ...over }) as OutboxOp;
const empty = (): LibraryData => ({ bookmarks: {}, progress: {} });
const held = (data: LibraryData) => data.ratings?.['movie:949'];

describe('ratings in the outbox: last writer wins per title, removals remembered', () => {
  it('a newer rating wins; an older one arriving late changes nothing; equal times: the later arrival', () => {
    const first = applyOp(empty(), put(T0, 6));
    expect(held(first)).toMatchObject({
      rating: 6,
      ratedAt: T0,
      updatedAt: T0,
      title: 'Heat',
      type: 'movie',
    });
    const newer = applyOp(first, put(T0 + MIN, 8));
    expect(held(newer)!.rating).toBe(8);
    expect(applyOp(newer, put(T0, 3))).toBe(newer);
    expect(held(applyOp(newer, put(T0 + MIN, 9)))!.rating).toBe(9);
  });

  it('a removal is a tombstone: an older rating arriving after it stays out, a later one comes back', () => {
    const rated = applyOp(empty(), put(T0, 7));
    const removed = applyOp(rated, remove(T0 + 2 * MIN));
    expect(held(removed)).toBeUndefined();
    expect(removed.removals?.ratings).toEqual({ 'movie:949': T0 + 2 * MIN });
    expect(applyOp(removed, put(T0 + MIN, 5))).toBe(removed);
    const back = applyOp(removed, put(T0 + 3 * MIN, 4));
    expect(held(back)!.rating).toBe(4);
    // Newer than its removal: the tombstone no longer decides anything.
    expect(back.removals?.ratings).toEqual({});
    // A removal older than the rating held leaves it.
    expect(applyOp(back, remove(T0))).toBe(back);
  });

  it('a removal of a rating not held is remembered too (a late, older rating from another device stays out)', () => {
    const removed = applyOp(empty(), remove(T0 + MIN));
    expect(applyOp(removed, put(T0, 9))).toBe(removed);
  });

  it('a movie and a show with one TMDB number are rated apart', () => {
    const both = applyOp(applyOp(empty(), put(T0, 6)), put(T0, 2, { type: 'show' }));
    expect(Object.keys(both.ratings!).sort()).toEqual(['movie:949', 'show:949']);
    const one = applyOp(both, remove(T0 + MIN, { type: 'show' }));
    expect(Object.keys(one.ratings!)).toEqual(['movie:949']);
  });

  it('coalescing: a newer change of the same title replaces the pending one (a rating or its removal), others stay', () => {
    const a = put(T0, 6);
    const other = put(T0, 5, { tmdbId: '680' });
    const b = put(T0 + MIN, 7);
    expect(coalesce(coalesce([a], other), b).map((o) => o.id)).toEqual([other.id, b.id]);
    const gone = remove(T0 + 2 * MIN);
    expect(coalesce([a, other, b], gone).map((o) => o.id)).toEqual([other.id, gone.id]);
    const again = put(T0 + 3 * MIN, 2);
    expect(coalesce([other, gone], again).map((o) => o.id)).toEqual([other.id, again.id]);
    // Another profile's rating, or a bookmark of the same title, is not replaced.
    const kid = { ...put(T0, 3), profile: 'kid' } as OutboxOp;
    const bookmark = {
      id: 'b',
      kind: 'bookmark-add',
      type: 'movie',
      tmdbId: '949',
      meta,
      at: T0,
    } as OutboxOp;
    expect(coalesce([kid, bookmark], put(T0 + MIN, 4))).toHaveLength(3);
  });

  it('the latest change time held for a title counts its rating and its removal', () => {
    const data = applyOp(applyOp(empty(), put(T0, 6)), remove(T0 + 5 * MIN));
    expect(latestTimeFor(data, put(0, 1))).toBe(T0 + 5 * MIN);
    expect(latestTimeFor(empty(), remove(0))).toBe(0);
  });

  it('restore: pending ratings go over the server’s state unless it holds something newer', () => {
    const server = applyOp(empty(), put(T0 + MIN, 9));
    expect(held(mergeServerState(server, [put(T0 + 2 * MIN, 3)]))!.rating).toBe(3);
    expect(held(mergeServerState(server, [put(T0, 3)]))!.rating).toBe(9);
    expect(held(mergeServerState(server, [remove(T0 + 2 * MIN)]))).toBeUndefined();
  });

  it('removals of ratings are merged by key, the latest kept, old ones forgotten', () => {
    const merged = mergeRemovals(
      { bookmarks: {}, progress: {}, ratings: { 'movie:1': T0, 'movie:2': T0 - 10 } },
      { bookmarks: {}, progress: {}, ratings: { 'movie:1': T0 + 5 } },
      T0 - 5,
    );
    expect(merged.ratings).toEqual({ 'movie:1': T0 + 5 });
  });

  it('a refused rating names its title; a refused removal names none', () => {
    expect(describeOp(put(T0, 6))).toEqual({ kind: 'rating-put', title: 'Heat' });
    expect(describeOp(remove(T0))).toEqual({ kind: 'rating-remove', title: null });
  });
});

describe('the values a rating takes', () => {
  it('whole numbers 1–10 (a half rounds), else nothing', () => {
    expect([1, 10, 7.4, 7.5].map(validRating)).toEqual([1, 10, 7, 8]);
    expect([0, 0.4, 11, Number.NaN, Infinity].map(validRating)).toEqual([null, null, null, null, null]);
  });

  it('the day rated: later than now is now, before 1888 or unknown is now', () => {
    expect(validRatedAt(T0 - MIN, T0)).toBe(T0 - MIN);
    expect(validRatedAt(T0 + MIN, T0)).toBe(T0);
    expect(validRatedAt(EARLIEST_WATCH_MS - 1, T0)).toBe(T0);
    expect(validRatedAt(Number.NaN, T0)).toBe(T0);
    expect(validRatedAt(undefined, T0)).toBe(T0);
  });
});

describe('the library store’s ratings', () => {
  let now = T0;
  beforeEach(() => {
    now = T0;
    vi.spyOn(clock, 'now').mockImplementation(() => new Date(now));
    setOutboxRecording(() => true);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    setOutboxRecording(() => false);
  });

  it('rate and unrate apply at once and queue one op per title; the selector reads the rating', () => {
    const store = createLibraryStore();
    store.getState().rate(heat, 6);
    now += MIN;
    store.getState().rate(heat, 8);
    expect(ratingOf(store.getState(), 'movie', '949')).toMatchObject({
      rating: 8,
      ratedAt: T0 + MIN,
      updatedAt: T0 + MIN,
      title: 'Heat',
      year: 1995,
    });
    expect(ratingOf(store.getState(), 'show', '949')).toBeUndefined();
    expect(store.getState().outbox).toMatchObject([{ kind: 'rating-put', rating: 8, at: T0 + MIN }]);
    now += MIN;
    store.getState().unrate('movie', '949');
    expect(ratingOf(store.getState(), 'movie', '949')).toBeUndefined();
    expect(store.getState().outbox).toMatchObject([
      { kind: 'rating-remove', type: 'movie', at: T0 + 2 * MIN },
    ]);
  });

  it('a value outside 1–10 changes nothing; a date given is kept (not later than now)', () => {
    const store = createLibraryStore();
    store.getState().rate(heat, 0);
    store.getState().rate(heat, 11);
    expect(store.getState().outbox).toEqual([]);
    store.getState().rate(heat, 7, { ratedAt: T0 - 24 * 60 * MIN });
    expect(ratingOf(store.getState(), 'movie', '949')).toMatchObject({
      rating: 7,
      ratedAt: T0 - 24 * 60 * MIN,
      updatedAt: T0,
    });
  });

  it('the latest action wins even when another device’s clock ran ahead', () => {
    const store = createLibraryStore();
    store.setState({
      ratings: { 'movie:949': { ...heat, rating: 3, ratedAt: T0, updatedAt: T0 + 60 * MIN } },
    });
    store.getState().rate(heat, 9);
    expect(ratingOf(store.getState(), 'movie', '949')).toMatchObject({
      rating: 9,
      updatedAt: T0 + 60 * MIN + 1,
    });
  });

  it('signed out: ratings apply, nothing is queued; logout forgets them', () => {
    setOutboxRecording(() => false);
    const store = createLibraryStore();
    store.getState().rate(heat, 5);
    expect(store.getState().outbox).toEqual([]);
    expect(ratingOf(store.getState(), 'movie', '949')!.rating).toBe(5);
    store.getState().clear();
    expect(store.getState().ratings).toEqual({});
  });

  it('each household profile keeps its own ratings (stashed on a switch)', () => {
    const store = createLibraryStore();
    store.getState().rate(heat, 5);
    const toKid = switchLibrary(store.getState(), 'kid')!;
    expect(toKid.data.ratings).toEqual({});
    expect(toKid.data.stash['']!.ratings).toEqual(store.getState().ratings);
    store.setState(toKid.data);
    store.getState().rate(heat, 10);
    expect(store.getState().outbox.at(-1)).toMatchObject({ kind: 'rating-put', profile: 'kid', rating: 10 });
    const back = switchLibrary(store.getState(), '')!;
    expect(ratingOf(back.data, 'movie', '949')!.rating).toBe(5);
    expect(ratingOf(back.data.stash['kid']!, 'movie', '949')!.rating).toBe(10);
    // A library stashed before ratings were kept: none.
    const { ratings: _none, ...old } = back.data.stash['kid']!;
    expect(switchLibrary({ ...back.data, stash: { kid: old } }, 'kid')!.data.ratings).toEqual({});
  });

  it('ratings listed newest rated first', () => {
    const store = createLibraryStore();
    store.getState().rate(heat, 5, { ratedAt: T0 - 2 * MIN });
    store.getState().rate({ ...heat, tmdbId: '680', title: 'Pulp Fiction' }, 9, { ratedAt: T0 - MIN });
    expect(ratingsByDate(store.getState().ratings).map((r) => r.title)).toEqual(['Pulp Fiction', 'Heat']);
  });
});

describe('ratings as saved', () => {
  it('what was saved is checked where it is used: the screens and the sync never see an unusable rating', () => {
    const good = { ...heat, rating: 6, ratedAt: T0, updatedAt: T0 };
    expect(isRatingEntry(good)).toBe(true);
    const bad = [
      { ...good, rating: 11 },
      { ...good, rating: '6' },
      { ...good, updatedAt: 'x' },
      null,
      [],
      'x',
    ];
    expect(bad.some(isRatingEntry)).toBe(false);
    const ratings = { 'movie:949': good, 'movie:1': { ...good, tmdbId: '1', rating: 0 } };
    expect(ratingOf({ ratings }, 'movie', '949')).toBe(good);
    expect(ratingOf({ ratings }, 'movie', '1')).toBeUndefined();
    expect(ratingsByDate(ratings)).toEqual([good]);
    // Saved before ratings: none; saved as something else than a record: none.
    const init = librarySpec.initial();
    expect(librarySpec.sanitize!({ bookmarks: {}, progress: {} }, init).ratings).toEqual({});
    expect(librarySpec.sanitize!({ ratings: [good] }, init).ratings).toEqual({});
    expect(librarySpec.sanitize!({ ratings }, init).ratings).toEqual(ratings);
  });

  it('a file’s rating as an import change: dated by its change time, else when it was rated', () => {
    const record = { ...heat, rating: 8, ratedAt: T0 - MIN };
    expect(ratingImportOp(record, T0)).toMatchObject({
      kind: 'rating-put',
      rating: 8,
      ratedAt: T0 - MIN,
      at: T0 - MIN,
    });
    expect(ratingImportOp({ ...record, updatedAt: T0 }, T0)!.at).toBe(T0);
    expect(ratingImportOp({ ...record, rating: 0 }, T0)).toBeNull();
  });
});
