import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage, setAppStorage, type KeyValueStorage } from '../lib/storage.ts';
import { useMigrationStatus } from './migration-status.ts';
import { backupKey, createPersistedStore, storageKey } from './persisted.ts';

interface Data {
  items: string[];
  count: number;
}

let seq = 0;
/** A store of version 3 whose migrations turn v0 `{list}` → v1 `{items}` → v2 `{items, n}` → v3 `{items, count}`. */
function makeStore(opts: { failAt?: number; legacy?: (s: KeyValueStorage) => unknown } = {}) {
  const name = `test-${++seq}`;
  const step = (v: number, fn: (d: any) => unknown) => (d: any) => {
    if (opts.failAt === v) throw new Error(`boom at ${v}`);
    return fn(d);
  };
  const store = createPersistedStore<Data, Data & { add(item: string): void }>(
    {
      name,
      version: 3,
      initial: () => ({ items: [], count: 0 }),
      migrations: {
        1: step(1, (d) => ({ items: d.list })),
        2: step(2, (d) => ({ items: d.items, n: d.items.length })),
        3: step(3, (d) => ({ items: d.items, count: d.n })),
      },
      ...(opts.legacy ? { legacy: opts.legacy } : {}),
    },
    (set) => ({
      items: [],
      count: 0,
      add: (item) => set((s) => ({ items: [...s.items, item], count: s.count + 1 })),
    }),
  );
  return { store, name, key: storageKey(name) };
}

let storage: KeyValueStorage;
beforeEach(() => {
  storage = memoryStorage();
  setAppStorage(storage);
  useMigrationStatus.setState({ failed: [], dismissed: false });
});

describe('versioned stores', () => {
  it('starts from the default and writes {state, version} on the first change', () => {
    const { store, key } = makeStore();
    expect(store.controls.needsMigration()).toBe(false);
    store.controls.hydrate();
    expect(store.getState().items).toEqual([]);
    expect(storage.getItem(key)).toBeNull();
    store.getState().add('a');
    expect(JSON.parse(storage.getItem(key)!)).toEqual({ state: { items: ['a'], count: 1 }, version: 3 });
  });

  it('migrates step by step, backing up the data before each step', () => {
    const { store, key, name } = makeStore();
    storage.setItem(key, JSON.stringify({ state: { list: ['x', 'y'] }, version: 0 }));
    expect(store.controls.needsMigration()).toBe(true);
    store.controls.hydrate();
    expect(store.getState()).toMatchObject({ items: ['x', 'y'], count: 2 });
    expect(JSON.parse(storage.getItem(key)!)).toEqual({ state: { items: ['x', 'y'], count: 2 }, version: 3 });
    expect(JSON.parse(storage.getItem(backupKey(0, name))!)).toEqual({
      state: { list: ['x', 'y'] },
      version: 0,
    });
    expect(JSON.parse(storage.getItem(backupKey(1, name))!)).toEqual({
      state: { items: ['x', 'y'] },
      version: 1,
    });
    expect(JSON.parse(storage.getItem(backupKey(2, name))!)).toEqual({
      state: { items: ['x', 'y'], n: 2 },
      version: 2,
    });
    expect(useMigrationStatus.getState().failed).toEqual([]);
    expect(store.controls.needsMigration()).toBe(false);
  });

  it('a failing migration resets the store to its default, keeps the backups and reports the failure', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store, key, name } = makeStore({ failAt: 2 });
    storage.setItem(key, JSON.stringify({ state: { list: ['x'] }, version: 0 }));
    store.controls.hydrate();
    expect(store.getState()).toMatchObject({ items: [], count: 0 });
    expect(JSON.parse(storage.getItem(key)!)).toEqual({ state: { items: [], count: 0 }, version: 3 });
    expect(JSON.parse(storage.getItem(backupKey(0, name))!).state).toEqual({ list: ['x'] });
    expect(JSON.parse(storage.getItem(backupKey(1, name))!).state).toEqual({ items: ['x'] });
    expect(useMigrationStatus.getState().failed).toEqual([name]);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('unreadable JSON is backed up, the store starts fresh and the failure is reported', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store, key, name } = makeStore();
    storage.setItem(key, '{not json');
    store.controls.hydrate();
    expect(store.getState().items).toEqual([]);
    expect(storage.getItem(backupKey('unreadable', name))).toBe('{not json');
    expect(useMigrationStatus.getState().failed).toEqual([name]);
    error.mockRestore();
  });

  it('a newer stored version than this build understands is backed up and reset, not misread', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { store, key, name } = makeStore();
    storage.setItem(key, JSON.stringify({ state: { weird: true }, version: 9 }));
    store.controls.hydrate();
    expect(store.getState().items).toEqual([]);
    expect(JSON.parse(storage.getItem(backupKey(9, name))!)).toEqual({ state: { weird: true }, version: 9 });
    expect(useMigrationStatus.getState().failed).toEqual([name]);
    error.mockRestore();
  });

  it('reads the older clients’ data as version 0 when nothing of ours is stored, leaving theirs in place', () => {
    const { store, key } = makeStore({
      legacy: (s) => (s.getItem('__old') ? { list: JSON.parse(s.getItem('__old')!) } : null),
    });
    storage.setItem('__old', '["a","b"]');
    expect(store.controls.needsMigration()).toBe(true);
    store.controls.hydrate();
    expect(store.getState().items).toEqual(['a', 'b']);
    expect(storage.getItem('__old')).toBe('["a","b"]');
    expect(JSON.parse(storage.getItem(key)!).version).toBe(3);
    // Once ours exists, theirs is not read again.
    store.getState().add('c');
    storage.setItem('__old', '["zzz"]');
    store.controls.hydrate();
    expect(store.getState().items).toEqual(['a', 'b', 'c']);
  });

  it('adopts what another tab stored before writing, so tabs do not clobber each other', () => {
    const { store, key } = makeStore();
    store.controls.hydrate();
    store.getState().add('mine');
    // Another tab writes its own change.
    storage.setItem(key, JSON.stringify({ state: { items: ['mine', 'theirs'], count: 2 }, version: 3 }));
    store.getState().add('mine-again');
    expect(store.getState().items).toEqual(['mine', 'theirs', 'mine-again']);
    expect(JSON.parse(storage.getItem(key)!).state.items).toEqual(['mine', 'theirs', 'mine-again']);
  });

  it('refresh adopts another tab’s write (the storage event path)', () => {
    const { store, key } = makeStore();
    store.controls.hydrate();
    storage.setItem(key, JSON.stringify({ state: { items: ['other'], count: 1 }, version: 3 }));
    store.controls.refresh();
    expect(store.getState().items).toEqual(['other']);
  });
});
