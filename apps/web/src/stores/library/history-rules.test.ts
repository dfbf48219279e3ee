import { describe, expect, it } from 'vitest';
import { SAME_PLAY_WINDOW_MS } from '@marquee/contract/values';
import {
  addPlay,
  crossesWatched,
  playKey,
  removePlays,
  validWatchedThreshold,
  WATCHED_SHARE,
  WATCHED_THRESHOLD_CHOICES,
  type HistoryData,
  type PlayEntry,
} from './history-rules.ts';
import { playsOf } from './history-view.ts';
import { applyOp, coalesce, type OutboxOp } from './outbox.ts';

const HOUR = 60 * 60_000;
const T = Date.UTC(2026, 5, 1, 20);
const movie = (watchedAt: number, updatedAt = watchedAt, extra: Partial<PlayEntry> = {}): PlayEntry => ({
  tmdbId: '603',
  type: 'movie',
  title: 'The Matrix',
  year: 1999,
  poster: null,
  watchedAt,
  watched: 7400,
  duration: 8160,
  completed: true,
  updatedAt,
  ...extra,
});
const episode = (id: string, watchedAt: number): PlayEntry => ({
  ...movie(watchedAt),
  tmdbId: '1396',
  type: 'show',
  title: 'Breaking Bad',
  season: { id: '3572', number: 1, title: '' },
  episode: { id, number: Number(id) - 62084, title: '' },
});
const empty = (): HistoryData => ({ history: {}, removed: {} });
const keys = (d: HistoryData) =>
  Object.values(d.history).map((p) => `${p.tmdbId}/${p.episode?.id ?? ''}@${p.watchedAt}`);

describe('the watch history on this device (decision 095)', () => {
  it('a rewatch is another play; the same play again is one', () => {
    let d = addPlay(empty(), movie(T - 30 * 24 * HOUR), { fold: true });
    d = addPlay(d, movie(T - 30 * 24 * HOUR, T), { fold: true });
    d = addPlay(d, movie(T), { fold: true });
    expect(keys(d).sort()).toEqual([`603/@${T - 30 * 24 * HOUR}`, `603/@${T}`]);
    expect(playsOf(d.history, 'movie', '603').map((p) => p.watchedAt)).toEqual([T, T - 30 * 24 * HOUR]);
  });

  it('a report within hours of a play of the same episode is that play; another episode is its own; imports are never folded', () => {
    let d = addPlay(empty(), episode('62085', T), { fold: true });
    d = addPlay(d, episode('62085', T + 2 * HOUR), { fold: true });
    d = addPlay(d, episode('62086', T + 2 * HOUR), { fold: true });
    expect(keys(d).sort()).toEqual([`1396/62085@${T}`, `1396/62086@${T + 2 * HOUR}`]);
    d = addPlay(d, episode('62085', T + SAME_PLAY_WINDOW_MS + 1), { fold: true });
    d = addPlay(d, episode('62085', T + HOUR), { fold: false });
    expect(Object.keys(d.history)).toHaveLength(4);
  });

  it('a removal removes what it names and was changed before it, is remembered, and an older write of the play stays out', () => {
    let d = addPlay(empty(), movie(T - 10 * HOUR), { fold: false });
    d = addPlay(d, movie(T - 5 * HOUR), { fold: false });
    d = addPlay(d, episode('62085', T - 5 * HOUR), { fold: false });
    d = removePlays(d, { type: 'movie', tmdbId: '603', watchedAt: T - 10 * HOUR }, T);
    expect(keys(d).sort()).toEqual([`1396/62085@${T - 5 * HOUR}`, `603/@${T - 5 * HOUR}`]);
    // The removed play, written again by a device with its old change time: stays removed.
    expect(addPlay(d, movie(T - 10 * HOUR, T - HOUR), { fold: false })).toBe(d);
    // Written after the removal: back.
    expect(keys(addPlay(d, movie(T - 10 * HOUR, T + 1), { fold: false }))).toHaveLength(3);
    // The whole show, at a time before its play changed: the play stays.
    expect(keys(removePlays(d, { type: 'show', tmdbId: '1396' }, T - 6 * HOUR))).toHaveLength(2);
    expect(keys(removePlays(d, { type: 'show', tmdbId: '1396' }, T))).toEqual([`603/@${T - 5 * HOUR}`]);
  });

  it('counts a play once, when a save first passes 90 % of the length (the default threshold)', () => {
    expect(WATCHED_SHARE).toBe(0.9);
    expect(crossesWatched(undefined, 890, 1000, WATCHED_SHARE)).toBe(false);
    expect(crossesWatched(undefined, 900, 1000, WATCHED_SHARE)).toBe(true);
    expect(crossesWatched({ watched: 500, duration: 1000 }, 950, 1000, WATCHED_SHARE)).toBe(true);
    expect(crossesWatched({ watched: 920, duration: 1000 }, 950, 1000, WATCHED_SHARE)).toBe(false);
    // Unknown length: never.
    expect(crossesWatched(undefined, 950, 0, WATCHED_SHARE)).toBe(false);
  });

  it('at another threshold (the viewer’s setting), the same rule at that share', () => {
    // 70 %: earlier.
    expect(crossesWatched(undefined, 690, 1000, 0.7)).toBe(false);
    expect(crossesWatched(undefined, 700, 1000, 0.7)).toBe(true);
    expect(crossesWatched({ watched: 650, duration: 1000 }, 720, 1000, 0.7)).toBe(true);
    expect(crossesWatched({ watched: 710, duration: 1000 }, 800, 1000, 0.7)).toBe(false);
    // 95 %: what 90 % would count is not enough yet.
    expect(crossesWatched(undefined, 940, 1000, 0.95)).toBe(false);
    expect(crossesWatched({ watched: 940, duration: 1000 }, 950, 1000, 0.95)).toBe(true);
  });

  it('at 100 % ("only when finished"), the end counts: the last seconds the player may never save', () => {
    expect(crossesWatched(undefined, 7000, 7200, 1)).toBe(false);
    expect(crossesWatched(undefined, 7197, 7200, 1)).toBe(false);
    expect(crossesWatched(undefined, 7198, 7200, 1)).toBe(true);
    expect(crossesWatched(undefined, 7200, 7200, 1)).toBe(true);
    expect(crossesWatched({ watched: 7199, duration: 7200 }, 7200, 7200, 1)).toBe(false);
  });

  it('a threshold is a share of 0.5–1; anything else is no threshold', () => {
    for (const share of [0.5, 0.7, 0.9, 1, ...WATCHED_THRESHOLD_CHOICES])
      expect(validWatchedThreshold(share)).toBe(share);
    for (const bad of [0.49, 1.01, 90, -1, Number.NaN, '0.9', null, undefined, true])
      expect(validWatchedThreshold(bad)).toBeNull();
  });
});

describe('history changes in the outbox', () => {
  const add = (id: string, watchedAt: number, at: number): OutboxOp => ({
    id,
    kind: 'history-add',
    type: 'movie',
    tmdbId: '603',
    meta: { title: 'The Matrix', year: 1999, poster: null },
    watchedAt,
    watched: 7400,
    duration: 8160,
    completed: true,
    at,
  });

  it('a removal drops the pending plays it covers; the same play queued twice is sent once', () => {
    let outbox = coalesce([], add('a', T, T));
    outbox = coalesce(outbox, add('b', T, T + 1));
    expect(outbox.map((o) => o.id)).toEqual(['b']);
    outbox = coalesce(outbox, add('c', T - 48 * HOUR, T + 2));
    outbox = coalesce(outbox, {
      id: 'd',
      kind: 'history-remove',
      type: 'movie',
      tmdbId: '603',
      watchedAt: T,
      at: T + 3,
    });
    expect(outbox.map((o) => o.id)).toEqual(['c', 'd']);
  });

  it('applies with the same rules as the server, removals remembered per play', () => {
    let data = applyOp({ bookmarks: {}, progress: {} }, add('a', T, T));
    expect(Object.keys(data.history!)).toEqual([playKey({ type: 'movie', tmdbId: '603', watchedAt: T })]);
    data = applyOp(data, { kind: 'history-remove', type: 'movie', tmdbId: '603', at: T + 1 });
    expect(data.history).toEqual({});
    expect(data.removals!.history).toEqual({
      [playKey({ type: 'movie', tmdbId: '603', watchedAt: T })]: T + 1,
    });
    expect(applyOp(data, add('b', T, T))).toBe(data);
  });
});

describe('plays recorded by the player', () => {
  it('one play when a movie first passes 90 %, another on a rewatch; an episode’s on its own', async () => {
    const { createLibraryStore } = await import('./library-store.ts');
    const store = createLibraryStore();
    const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
    const save = (watched: number) => store.getState().saveProgress({ meta, watched, duration: 1000 });
    save(500);
    expect(store.getState().history).toEqual({});
    save(920);
    save(990);
    expect(Object.values(store.getState().history)).toMatchObject([
      { tmdbId: '603', completed: true, watched: 920 },
    ]);
    // Started again from the beginning and watched to the end: past 90 % once more — folded into the play
    // held when within hours of it (the same evening), so still one.
    save(10);
    save(950);
    expect(Object.keys(store.getState().history)).toHaveLength(1);
    const show = { tmdbId: '1396', type: 'show' as const, title: 'Breaking Bad', year: 2008, poster: null };
    store.getState().saveProgress({
      meta: show,
      watched: 2800,
      duration: 3000,
      season: { id: '3572', number: 1, title: 'Season 1' },
      episode: { id: '62085', number: 1, title: 'Pilot' },
    });
    expect(playsOf(store.getState().history, 'show', '1396')).toMatchObject([
      { episode: { id: '62085', number: 1, title: 'Pilot' }, season: { id: '3572' } },
    ]);
    store.getState().removePlays({ type: 'show', tmdbId: '1396' });
    expect(playsOf(store.getState().history, 'show', '1396')).toEqual([]);
  });

  it('at the threshold the viewer chose (a preference), read when progress is saved', async () => {
    const { createLibraryStore } = await import('./library-store.ts');
    const { usePreferencesStore } = await import('../preferences-store.ts');
    const store = createLibraryStore();
    const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
    const save = (watched: number) => store.getState().saveProgress({ meta, watched, duration: 1000 });
    usePreferencesStore.getState().setPreferences({ watchedThreshold: 1 });
    try {
      save(950);
      expect(store.getState().history).toEqual({});
      usePreferencesStore.getState().setPreferences({ watchedThreshold: 0.7 });
      const dune = { ...meta, tmdbId: '438631', title: 'Dune' };
      store.getState().saveProgress({ meta: dune, watched: 720, duration: 1000 });
      expect(Object.values(store.getState().history)).toMatchObject([{ tmdbId: '438631', watched: 720 }]);
    } finally {
      usePreferencesStore.getState().setPreferences({ watchedThreshold: WATCHED_SHARE });
    }
  });
});
