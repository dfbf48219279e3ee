import { describe, expect, it } from 'vitest';
import {
  applyOp,
  coalesce,
  describeOp,
  mergeServerState,
  type LibraryData,
  type OutboxOp,
} from './outbox.ts';

const meta = { title: 'Breaking Bad', year: 2008, poster: null };
const season = { id: 's1', number: 1, title: '' };
const ep = (n: number) => ({ id: `e${n}`, number: n, title: '' });
let seq = 0;
const op = <K extends OutboxOp['kind']>(o: Omit<Extract<OutboxOp, { kind: K }>, 'id'> & { kind: K }) =>
  ({ id: `op${++seq}`, ...o }) as unknown as OutboxOp;
const put = (at: number, episode: number, watched = 100) =>
  op({
    kind: 'progress-put',
    type: 'show',
    tmdbId: '1396',
    meta,
    watched,
    duration: 3000,
    season,
    episode: ep(episode),
    at,
  });
const empty = (): LibraryData => ({ bookmarks: {}, progress: {} });

describe('outbox coalescing', () => {
  it('a newer progress write for the same episode replaces the pending one; other episodes stay, order is kept', () => {
    const a = put(1, 1);
    const b = put(2, 2);
    const c = put(3, 1, 500);
    expect(coalesce(coalesce([a], b), c).map((o) => o.id)).toEqual([b.id, c.id]);
  });

  it('progress held while playing keeps the first write’s send time; an unheld write makes it due now', () => {
    const held = (at: number, sendAfter: number) => ({ ...put(at, 1, at * 10), sendAfter }) as OutboxOp;
    // Positions every 3 s replace each other but keep the first one's time: one send per 15 s.
    const merged = coalesce(coalesce([held(1, 15_000)], held(4, 18_000)), held(7, 21_000));
    expect(merged).toHaveLength(1);
    expect(merged[0]).toMatchObject({ watched: 70, sendAfter: 15_000 });
    // Pause (no hold): the latest position, due now.
    const paused = coalesce(merged, put(9, 1, 90));
    expect(paused).toHaveLength(1);
    expect(paused[0]).toMatchObject({ watched: 90 });
    expect(paused[0]!.sendAfter).toBeUndefined();
    // A held write replacing one that is due stays due.
    expect(coalesce(paused, held(12, 27_000))[0]!.sendAfter).toBeUndefined();
  });

  it('a movie and a show with one TMDB number are different titles', () => {
    const movie = op({
      kind: 'progress-put',
      type: 'movie',
      tmdbId: '1396',
      meta,
      watched: 1,
      duration: 9,
      at: 1,
    });
    const show = put(2, 1);
    expect(coalesce([movie], show)).toHaveLength(2);
  });

  it('a removal drops the pending writes it covers', () => {
    const out = coalesce(
      [put(1, 1), put(2, 2)],
      op({ kind: 'progress-remove', type: 'show', tmdbId: '1396', episodeId: 'e1', at: 3 }),
    );
    expect(out.map((o) => o.kind)).toEqual(['progress-put', 'progress-remove']);
    const all = coalesce(
      [put(1, 1), put(2, 2)],
      op({ kind: 'progress-remove', type: 'show', tmdbId: '1396', at: 3 }),
    );
    expect(all.map((o) => o.kind)).toEqual(['progress-remove']);
  });

  it('bookmark toggles of one title collapse to the last one', () => {
    const add = op({ kind: 'bookmark-add', type: 'movie', tmdbId: '603', meta, at: 1 });
    const remove = op({ kind: 'bookmark-remove', type: 'movie', tmdbId: '603', at: 2 });
    expect(coalesce([add], remove)).toEqual([remove]);
  });

  it('newer settings values replace pending ones field by field', () => {
    const first = op({
      kind: 'settings',
      settings: { applicationTheme: 'red', applicationLanguage: 'de' },
      at: 1,
    });
    const second = op({ kind: 'settings', settings: { applicationTheme: 'blue' }, at: 2 });
    const out = coalesce([first], second);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ settings: { applicationLanguage: 'de' } });
    expect(
      coalesce(out, op({ kind: 'settings', settings: { applicationLanguage: 'fr' }, at: 3 })).map(
        (o) => (o as any).settings,
      ),
    ).toEqual([{ applicationTheme: 'blue' }, { applicationLanguage: 'fr' }]);
  });
});

describe('applying changes (last writer wins by change time)', () => {
  it('builds a show entry from episode writes; the entry time is the latest episode', () => {
    const d = [put(10, 1), put(20, 2)].reduce(applyOp, empty());
    const entry = d.progress['show:1396']!;
    expect(Object.keys(entry.episodes)).toEqual(['e1', 'e2']);
    expect(entry.updatedAt).toBe(20);
    expect(entry.seasons.s1).toEqual(season);
  });

  it('an older write does not overwrite a newer one', () => {
    const d = [put(20, 1, 900), put(10, 1, 100)].reduce(applyOp, empty());
    expect(d.progress['show:1396']!.episodes.e1!.progress.watched).toBe(900);
  });

  it('a removal removes only what was changed at or before it', () => {
    const d = [
      put(10, 1),
      put(30, 2),
      op({ kind: 'progress-remove', type: 'show', tmdbId: '1396', at: 20 }),
    ].reduce(applyOp, empty());
    expect(Object.keys(d.progress['show:1396']!.episodes)).toEqual(['e2']);
    const gone = [put(10, 1), op({ kind: 'progress-remove', type: 'show', tmdbId: '1396', at: 20 })].reduce(
      applyOp,
      empty(),
    );
    expect(gone.progress['show:1396']).toBeUndefined();
  });

  it('bookmark add and remove follow change times', () => {
    const add = op({ kind: 'bookmark-add', type: 'movie', tmdbId: '603', meta, at: 10 });
    const oldRemove = op({ kind: 'bookmark-remove', type: 'movie', tmdbId: '603', at: 5 });
    expect([add, oldRemove].reduce(applyOp, empty()).bookmarks['movie:603']).toBeDefined();
    const newRemove = op({ kind: 'bookmark-remove', type: 'movie', tmdbId: '603', at: 15 });
    expect([add, newRemove].reduce(applyOp, empty()).bookmarks['movie:603']).toBeUndefined();
  });
});

describe('restore merge', () => {
  const server: LibraryData = {
    bookmarks: {
      'movie:603': {
        tmdbId: '603',
        type: 'movie',
        title: 'The Matrix',
        year: 1999,
        poster: null,
        updatedAt: 100,
      },
    },
    progress: {},
  };

  it('local := server, then pending changes that are not older than the server’s item', () => {
    const pendingNewer = op({ kind: 'bookmark-remove', type: 'movie', tmdbId: '603', at: 150 });
    expect(mergeServerState(server, [pendingNewer]).bookmarks).toEqual({});
    const pendingOlder = op({ kind: 'bookmark-remove', type: 'movie', tmdbId: '603', at: 50 });
    expect(mergeServerState(server, [pendingOlder]).bookmarks['movie:603']).toBeDefined();
    const pendingAdd = op({ kind: 'bookmark-add', type: 'show', tmdbId: '1396', meta, at: 10 });
    expect(Object.keys(mergeServerState(server, [pendingAdd]).bookmarks).sort()).toEqual([
      'movie:603',
      'show:1396',
    ]);
  });

  it('never replaces blindly: what is not pending comes from the server', () => {
    expect(mergeServerState(server, [])).toEqual(server);
  });
});

describe('named lists and favourite episodes (decision 097)', () => {
  const addShow = (at: number, lists: { groups?: string[]; favoriteEpisodes?: string[] } = {}) =>
    op({ kind: 'bookmark-add', type: 'show', tmdbId: '1396', meta, at, ...lists });

  it('a re-add that leaves the lists out keeps them, each on its own; a write with them replaces them', () => {
    let data = applyOp(empty(), addShow(1, { groups: ['Drama'], favoriteEpisodes: ['e1'] }));
    data = applyOp(data, addShow(2));
    expect(data.bookmarks['show:1396']).toMatchObject({
      updatedAt: 2,
      groups: ['Drama'],
      favoriteEpisodes: ['e1'],
    });
    data = applyOp(data, addShow(3, { groups: [] }));
    expect(data.bookmarks['show:1396']).toMatchObject({ groups: [], favoriteEpisodes: ['e1'] });
    // An older write loses as a whole, lists included.
    expect(applyOp(data, addShow(0, { groups: ['Old'] }))).toBe(data);
  });

  it('a bookmark brought back after its removal starts without lists', () => {
    let data = applyOp(empty(), addShow(1, { groups: ['Drama'] }));
    data = applyOp(data, op({ kind: 'bookmark-remove', type: 'show', tmdbId: '1396', at: 2 }));
    data = applyOp(data, addShow(3));
    expect(data.bookmarks['show:1396']).not.toHaveProperty('groups');
  });

  it('the order of lists: the newest pending one of a profile replaces the older; it applies over the server’s', () => {
    const a = op({ kind: 'group-order', order: ['A'], at: 1 });
    const kid = op({ kind: 'group-order', order: ['K'], at: 2, profile: 'kid' });
    const b = op({ kind: 'group-order', order: ['B', 'A'], at: 3 });
    expect(coalesce(coalesce([a], kid), b).map((o) => o.id)).toEqual([kid.id, b.id]);
    expect(mergeServerState({ ...empty(), groupOrder: ['S'] }, [b]).groupOrder).toEqual(['B', 'A']);
    expect(applyOp(empty(), a)).toEqual({ ...empty(), groupOrder: ['A'] });
  });

  it('a refused order of lists is described as such (its label is in every catalog)', () => {
    expect(describeOp(op({ kind: 'group-order', order: [], at: 1 }))).toEqual({
      kind: 'group-order',
      title: null,
    });
  });
});
