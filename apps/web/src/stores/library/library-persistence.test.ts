import 'fake-indexeddb/auto';
import { createStore as idbStore, entries, type UseStore } from 'idb-keyval';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage, setAppStorage, type KeyValueStorage } from '../../lib/storage.ts';
import { useMigrationStatus } from '../migration-status.ts';
import { backupKey } from '../persisted.ts';
import { diffEntries, OutboxOrder } from './library-entries.ts';
import {
  libraryNeedsMigration,
  openLibraryStorage,
  persistLibrary,
  type LibraryPersistence,
} from './library-persistence.ts';
import { createLibraryStore, librarySpec, setOutboxRecording, type LibraryState } from './library-store.ts';
import { ratingOf } from './ratings-view.ts';

const matrix = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
const pulp = { tmdbId: '680', type: 'movie' as const, title: 'Pulp Fiction', year: 1994, poster: null };
const heat = { tmdbId: '949', type: 'movie' as const, title: 'Heat', year: 1995, poster: null };
const breakingBad = {
  tmdbId: '1396',
  type: 'show' as const,
  title: 'Breaking Bad',
  year: 2008,
  poster: null,
};

let seq = 0;
let names: { db: string; store: string };
let channel: string;
let storage: KeyValueStorage;
const running: LibraryPersistence[] = [];

beforeEach(() => {
  seq += 1;
  names = { db: `marquee-test-${seq}`, store: 'library' };
  channel = `marquee:library:test-${seq}`;
  storage = memoryStorage();
  setAppStorage(storage);
  setOutboxRecording(() => true);
  useMigrationStatus.setState({ failed: [], dismissed: false });
});
afterEach(() => {
  for (const p of running.splice(0)) p.stop();
});

/** A tab: its own library store, persisted to the shared database and channel. */
async function openTab() {
  const store = createLibraryStore();
  const opened = await openLibraryStorage(names);
  const persistence = persistLibrary(store, opened, librarySpec, channel);
  running.push(persistence);
  await persistence.ready;
  return { store, persistence, opened };
}

const stored = async () => new Map(await entries<string, unknown>(idbStore(names.db, names.store)));

/** Waits until every write queued so far is committed (a transaction opened now runs after them). */
const settled = () => entries(idbStore(names.db, names.store));

const legacyLibrary = () =>
  JSON.stringify({
    state: {
      bookmarks: { '603': { ...matrix, updatedAt: 1_700_000_000_000 } },
      updateQueue: [],
    },
    version: 0,
  });

describe('the library in IndexedDB', () => {
  it('moves today’s localStorage library into IndexedDB, one entry per item, and only then removes it', async () => {
    const now = Date.now();
    const blob = {
      state: {
        bookmarks: { 'movie:603': { ...matrix, updatedAt: now } },
        progress: {
          'movie:680': { ...pulp, updatedAt: now, progress: { watched: 60, duration: 9000 }, episodes: {} },
        },
        removals: { bookmarks: { 'movie:1': now - 5 }, progress: {} },
        outbox: [
          { id: 'a', kind: 'bookmark-add', type: 'movie', tmdbId: '603', meta: matrix, at: now },
          { id: 'b', kind: 'bookmark-remove', type: 'movie', tmdbId: '1', at: now - 5 },
        ],
        profile: '',
        stash: {},
      },
      version: 1,
    };
    storage.setItem('marquee:library', JSON.stringify(blob));

    const store = createLibraryStore();
    const opened = await openLibraryStorage(names);
    expect(opened.kind).toBe('indexeddb');
    expect(libraryNeedsMigration(opened, librarySpec)).toBe(false); // a move, not a migration
    const persistence = persistLibrary(store, opened, librarySpec, channel);
    running.push(persistence);
    // Read at once; the localStorage copy stays until IndexedDB has the data.
    expect(store.getState().bookmarks['movie:603']?.title).toBe('The Matrix');
    expect(storage.getItem('marquee:library')).not.toBeNull();
    await persistence.ready;
    expect(storage.getItem('marquee:library')).toBeNull();

    const rows = await stored();
    expect([...rows.keys()].sort()).toEqual([
      'b:movie:603',
      'groupOrder',
      'o:a',
      'o:b',
      'p:movie:680',
      'profile',
      'rb:movie:1',
      'version',
    ]);
    expect(rows.get('version')).toBe(1);

    // The next start reads it back, the outbox in its order.
    const again = await openTab();
    expect(again.store.getState().outbox.map((op) => op.id)).toEqual(['a', 'b']);
    expect(again.store.getState().progress['movie:680']?.progress).toEqual({ watched: 60, duration: 9000 });
    expect(again.store.getState().removals.bookmarks).toEqual({ 'movie:1': now - 5 });
  });

  it('imports the older clients’ data straight into IndexedDB, leaving theirs in place', async () => {
    storage.setItem('__MW::bookmarks', legacyLibrary());
    const opened = await openLibraryStorage(names);
    expect(libraryNeedsMigration(opened, librarySpec)).toBe(true);
    const store = createLibraryStore();
    const persistence = persistLibrary(store, opened, librarySpec, channel);
    running.push(persistence);
    await persistence.ready;
    expect(Object.keys(store.getState().bookmarks)).toEqual(['movie:603']);
    expect((await stored()).has('b:movie:603')).toBe(true);
    expect(storage.getItem('__MW::bookmarks')).toBe(legacyLibrary());
    expect(storage.getItem(backupKey(0, 'library'))).toContain('The Matrix');
    // Imported once: the next start reads IndexedDB, with nothing left to migrate.
    expect(libraryNeedsMigration(await openLibraryStorage(names), librarySpec)).toBe(false);
  });

  it('a save writes the entries it changed, not the library', async () => {
    const tab = await openTab();
    for (let i = 0; i < 200; i++) tab.store.getState().addBookmark({ ...matrix, tmdbId: String(i) });
    const order = new OutboxOrder();
    const before = tab.store.getState();
    before.saveProgress({ meta: pulp, watched: 30, duration: 9000 }, { hold: true });
    const first = tab.store.getState();
    first.saveProgress({ meta: pulp, watched: 33, duration: 9000 }, { hold: true });
    const second = tab.store.getState();

    const added = diffEntries(before, first, order);
    expect(added.puts.map(([k]) => k).sort()).toEqual(['o:' + first.outbox.at(-1)!.id, 'p:movie:680']);
    expect(added.dels).toEqual([]);
    // The newer position replaces the held one: one progress entry, one op in, one op out.
    const replaced = diffEntries(first, second, order);
    expect(replaced.puts.map(([k]) => k).sort()).toEqual(['o:' + second.outbox.at(-1)!.id, 'p:movie:680']);
    expect(replaced.dels).toEqual(['o:' + first.outbox.at(-1)!.id]);

    await settled();
    const rows = await stored();
    expect(rows.get('p:movie:680')).toMatchObject({ progress: { watched: 33, duration: 9000 } });
    expect([...rows.keys()].filter((k) => k.startsWith('o:'))).toHaveLength(201);
  });

  it('named lists, favourite episodes and the order of lists are kept across a reload', async () => {
    const tab = await openTab();
    tab.store.getState().setBookmarkLists(matrix, ['Sci-fi', 'Weekend']);
    tab.store.getState().toggleFavoriteEpisode(breakingBad, 'e1');
    tab.store.getState().setGroupOrder(['Weekend', 'Empty', 'Sci-fi']);
    await settled();
    expect((await stored()).get('groupOrder')).toEqual(['Weekend', 'Empty', 'Sci-fi']);

    const again = await openTab();
    const state = again.store.getState();
    expect(state.groupOrder).toEqual(['Weekend', 'Empty', 'Sci-fi']);
    expect(state.bookmarks['movie:603']?.groups).toEqual(['Sci-fi', 'Weekend']);
    expect(state.bookmarks['show:1396']?.favoriteEpisodes).toEqual(['e1']);
  });

  it('ratings and their removals are entries of their own (r:, rr:), kept across a reload', async () => {
    const tab = await openTab();
    tab.store.getState().rate(matrix, 8);
    tab.store.getState().rate(heat, 6, { ratedAt: Date.UTC(2020, 0, 1) });
    tab.store.getState().unrate('movie', '949');
    await settled();
    const rows = await stored();
    expect(rows.get('r:movie:603')).toMatchObject({ tmdbId: '603', rating: 8, title: 'The Matrix' });
    expect(rows.has('r:movie:949')).toBe(false);
    expect(typeof rows.get('rr:movie:949')).toBe('number');
    const ops = [...rows.entries()]
      .filter(([k]) => k.startsWith('o:'))
      .map(([, v]) => (v as { op: { kind: string } }).op.kind);
    expect(ops.sort()).toEqual(['rating-put', 'rating-remove']);

    const again = await openTab();
    const state = again.store.getState();
    expect(state.ratings).toEqual(tab.store.getState().ratings);
    expect(state.removals.ratings).toEqual({
      'movie:949': tab.store.getState().removals.ratings!['movie:949'],
    });
    expect(state.outbox.map((op) => op.kind)).toEqual(['rating-put', 'rating-remove']);
    // An older, late rating of the removed title stays out after the reload too.
    again.store.getState().mergeServer({
      bookmarks: {},
      progress: {},
      ratings: { 'movie:949': { ...heat, rating: 2, ratedAt: 1, updatedAt: 1 } },
    });
    expect(again.store.getState().ratings['movie:949']).toBeUndefined();
  });

  it('a stored rating that is not usable is never shown: not a record, left out; a bad value, hidden', async () => {
    const tab = await openTab();
    tab.store.getState().rate(matrix, 8);
    await settled();
    const db = idbStore(names.db, names.store);
    await db('readwrite', (s) => {
      s.put(
        { tmdbId: '1', type: 'movie', title: 'Broken', rating: 42, ratedAt: 1, updatedAt: 1 },
        'r:movie:1',
      );
      s.put('nonsense', 'r:movie:2');
      return new Promise((resolve) => (s.transaction.oncomplete = resolve));
    });
    const again = await openTab();
    expect(Object.keys(again.store.getState().ratings).sort()).toEqual(['movie:1', 'movie:603']);
    expect(ratingOf(again.store.getState(), 'movie', '1')).toBeUndefined();
    expect(ratingOf(again.store.getState(), 'movie', '603')!.rating).toBe(8);
  });

  it('logging out empties the stored library', async () => {
    const tab = await openTab();
    tab.store.getState().addBookmark(matrix);
    tab.store.getState().clear();
    await settled();
    expect([...(await stored()).keys()].sort()).toEqual(['groupOrder', 'profile', 'version']);
    const again = await openTab();
    expect(again.store.getState().bookmarks).toEqual({});
  });

  it('open tabs stay in step: each sees the other’s changes, and changes made at once in both are kept', async () => {
    const a = await openTab();
    const b = await openTab();
    a.store.getState().addBookmark(matrix);
    await vi.waitFor(() => expect(b.store.getState().bookmarks['movie:603']).toBeDefined());
    expect(b.store.getState().outbox.map((op) => op.kind)).toEqual(['bookmark-add']);

    // Both tabs change the library before hearing from the other.
    a.store.getState().addBookmark(pulp);
    b.store.getState().addBookmark(heat);
    for (const tab of [a, b])
      await vi.waitFor(() =>
        expect(Object.keys(tab.store.getState().bookmarks).sort()).toEqual([
          'movie:603',
          'movie:680',
          'movie:949',
        ]),
      );
    expect(a.store.getState().outbox.map((op) => op.id)).toEqual(
      b.store.getState().outbox.map((op) => op.id),
    );

    // The sync engine of one tab acknowledges an op: it leaves the other tab's outbox too.
    const first = a.store.getState().outbox[0]!;
    a.store.getState().removeOp(first.id);
    await vi.waitFor(() => expect(b.store.getState().outbox.map((op) => op.id)).not.toContain(first.id));

    await settled();
    const reopened = await openTab();
    expect(Object.keys(reopened.store.getState().bookmarks).sort()).toEqual([
      'movie:603',
      'movie:680',
      'movie:949',
    ]);
    expect(reopened.store.getState().outbox).toHaveLength(2);
  });

  it('when IndexedDB refuses writes, the library stays in localStorage and nothing is lost', async () => {
    storage.setItem(
      'marquee:library',
      JSON.stringify({
        state: { ...librarySpec.initial(), bookmarks: { 'movie:603': { ...matrix, updatedAt: 1 } } },
        version: 1,
      }),
    );
    const refusing: UseStore = () => Promise.reject(new DOMException('full', 'QuotaExceededError'));
    const store = createLibraryStore();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const persistence = persistLibrary(
      store,
      { kind: 'indexeddb', db: refusing, rows: [] },
      librarySpec,
      channel,
    );
    running.push(persistence);
    await persistence.ready;
    expect(persistence.kind()).toBe('localStorage');
    store.getState().addBookmark(pulp);
    const kept = JSON.parse(storage.getItem('marquee:library')!) as {
      state: Pick<LibraryState, 'bookmarks'>;
    };
    expect(Object.keys(kept.state.bookmarks).sort()).toEqual(['movie:603', 'movie:680']);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });

  it('data of a newer version of the app is backed up and reset, and the user is told', async () => {
    const db = idbStore(names.db, names.store);
    await db('readwrite', (s) => {
      s.put(7, 'version');
      s.put({ shape: 'unknown' }, 'b:movie:603');
      return new Promise((resolve) => (s.transaction.oncomplete = resolve));
    });
    const opened = await openLibraryStorage(names);
    expect(libraryNeedsMigration(opened, librarySpec)).toBe(true);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const store = createLibraryStore();
    const persistence = persistLibrary(store, opened, librarySpec, channel);
    running.push(persistence);
    await persistence.ready;
    errors.mockRestore();
    expect(useMigrationStatus.getState().failed).toEqual(['library']);
    expect(storage.getItem(backupKey(7, 'library'))).toContain('unknown');
    expect(store.getState().bookmarks).toEqual({});
    expect((await stored()).get('version')).toBe(1);
  });
});
