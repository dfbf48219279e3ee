import { entries, promisifyRequest, type UseStore } from 'idb-keyval';
import { createIdbStore } from '../../lib/idb-store.ts';
import type { StoreApi } from 'zustand';
import { appStorage } from '../../lib/storage.ts';
import {
  loadVersioned,
  migrateStored,
  sanitizeStored,
  storageKey,
  versionedNeedsMigration,
  type VersionedSpec,
} from '../persisted.ts';
import {
  applyEntries,
  diffEntries,
  noChanges,
  OutboxOrder,
  toEntries,
  VERSION_ENTRY,
  type Entry,
  type EntryChanges,
} from './library-entries.ts';
import type { LibraryStoreData } from './library-store.ts';

/**
 * Where the library and its outbox are kept (docs/decisions/080): IndexedDB, one entry per bookmark,
 * title progress and pending change (library-entries.ts), so a save writes what changed, not the whole
 * library. Browsers without a usable IndexedDB keep today's single localStorage key. Today's data in
 * localStorage (and the older clients' data, through the store's migrations) moves into IndexedDB on the
 * first start; the localStorage copy is removed only once IndexedDB has it. Open tabs stay in step
 * through a BroadcastChannel carrying each write's entries.
 */
export const LIBRARY_DB = 'marquee';
export const LIBRARY_OBJECT_STORE = 'library';
export const LIBRARY_CHANNEL = 'marquee:library';
/** An IndexedDB that does not open within this is treated as unusable (a blocked or broken database). */
const OPEN_TIMEOUT_MS = 5_000;

/** The storage found at start, with what it holds. */
export type OpenedLibraryStorage =
  { kind: 'indexeddb'; db: UseStore; rows: Entry[] } | { kind: 'localStorage' };

export const localLibraryStorage = (): OpenedLibraryStorage => ({ kind: 'localStorage' });

/** Opens IndexedDB and reads every entry; localStorage when IndexedDB is missing or refuses to open. */
export async function openLibraryStorage(
  names: { db: string; store: string } = { db: LIBRARY_DB, store: LIBRARY_OBJECT_STORE },
): Promise<OpenedLibraryStorage> {
  if (typeof indexedDB === 'undefined') return localLibraryStorage();
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    const db = createIdbStore(names.db, names.store);
    const rows = await Promise.race([
      entries<string, unknown>(db),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error('IndexedDB did not open')), OPEN_TIMEOUT_MS);
      }),
    ]);
    return { kind: 'indexeddb', db, rows };
  } catch (error) {
    console.warn('[storage] IndexedDB is not usable; the library stays in localStorage', error);
    return localLibraryStorage();
  } finally {
    clearTimeout(timer);
  }
}

const versionIn = (rows: readonly Entry[]) => rows.find(([key]) => key === VERSION_ENTRY)?.[1];

/** Whether starting will migrate the library's data (or import the older clients'), not just move it. */
export function libraryNeedsMigration(opened: OpenedLibraryStorage, spec: VersionedSpec<LibraryStoreData>) {
  if (opened.kind === 'indexeddb' && opened.rows.length > 0) return versionIn(opened.rows) !== spec.version;
  return versionedNeedsMigration(spec as VersionedSpec<unknown>);
}

type Writer = (changes: EntryChanges, data: LibraryStoreData) => Promise<void>;

/** One transaction per write: the changed entries put, the removed ones deleted (all or none). */
const idbWriter =
  (db: UseStore): Writer =>
  (changes) =>
    db('readwrite', (store) => {
      for (const [key, value] of changes.puts) store.put(value, key);
      for (const key of changes.dels) store.delete(key);
      return promisifyRequest(store.transaction);
    });

/** Replaces everything stored with `rows` in one transaction. */
const idbReplaceAll = (db: UseStore, rows: readonly Entry[]) =>
  db('readwrite', (store) => {
    store.clear();
    for (const [key, value] of rows) store.put(value, key);
    return promisifyRequest(store.transaction);
  });

/** The fallback: the whole library as one versioned localStorage value, as before. */
const blobWriter =
  (spec: VersionedSpec<LibraryStoreData>): Writer =>
  async (_changes, data) => {
    try {
      appStorage().setItem(storageKey(spec.name), JSON.stringify({ state: data, version: spec.version }));
    } catch (error) {
      // Quota exceeded: the change still applies for this tab.
      console.error(`[storage] could not save "${spec.name}"`, error);
    }
  };

const isChanges = (v: unknown): v is EntryChanges =>
  typeof v === 'object' &&
  v !== null &&
  Array.isArray((v as EntryChanges).puts) &&
  Array.isArray((v as EntryChanges).dels);

export interface LibraryPersistence {
  /** Where writes go now (IndexedDB, or localStorage when IndexedDB is missing or failed). */
  readonly kind: () => OpenedLibraryStorage['kind'];
  /** Settles once the data read at start is in its storage (the move out of localStorage included). */
  readonly ready: Promise<void>;
  stop(): void;
}

/**
 * Loads the library from `opened` into `store` (synchronously: the rows were read while opening) and
 * then saves every change of the store's data, announcing it to the other tabs.
 */
export function persistLibrary<S extends LibraryStoreData>(
  store: StoreApi<S>,
  opened: OpenedLibraryStorage,
  spec: VersionedSpec<LibraryStoreData>,
  channelName = LIBRARY_CHANNEL,
): LibraryPersistence {
  const order = new OutboxOrder();
  const dataKeys = Object.keys(spec.initial()) as (keyof LibraryStoreData)[];
  const pick = (state: S) =>
    Object.fromEntries(dataKeys.map((k) => [k, state[k]])) as unknown as LibraryStoreData;
  let applying = false;
  const replace = (data: LibraryStoreData) => {
    applying = true;
    try {
      store.setState(data as Partial<S>);
    } finally {
      applying = false;
    }
  };

  // Listen before reading, so nothing another tab writes meanwhile is missed.
  const channel = typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(channelName);
  const early: EntryChanges[] = [];
  let loaded = false;
  let kind: OpenedLibraryStorage['kind'] = opened.kind;
  let writer: Writer = opened.kind === 'indexeddb' ? idbWriter(opened.db) : blobWriter(spec);
  const fallBack = (error: unknown) => {
    if (kind === 'localStorage') return;
    console.error('[storage] IndexedDB refused a write; the library is kept in localStorage', error);
    kind = 'localStorage';
    writer = blobWriter(spec);
    void writer({ puts: [], dels: [] }, pick(store.getState()));
  };
  const onRemote = (changes: EntryChanges) => {
    const data = applyEntries(pick(store.getState()), changes, order);
    replace(data);
    // One value for the whole library: it must hold this tab's changes and the other tab's.
    if (kind === 'localStorage') void writer({ puts: [], dels: [] }, data);
  };
  if (channel)
    channel.onmessage = (event: MessageEvent<unknown>) => {
      if (!isChanges(event.data)) return;
      if (loaded) onRemote(event.data);
      else early.push(event.data);
    };

  let ready: Promise<void> = Promise.resolve();
  const version = opened.kind === 'indexeddb' ? versionIn(opened.rows) : undefined;
  if (opened.kind === 'indexeddb' && version === spec.version) {
    replace(applyEntries(spec.initial(), { puts: opened.rows, dels: [] }, order));
  } else if (opened.kind === 'indexeddb' && opened.rows.length > 0) {
    // Stored by another version of the app: migrated (or reset and backed up, if newer), then rewritten.
    const stored = applyEntries(spec.initial(), { puts: opened.rows, dels: [] }, order);
    const from = typeof version === 'number' ? version : 0;
    const data = sanitizeStored(
      spec,
      migrateStored(spec as VersionedSpec<unknown>, stored, from, appStorage()),
    );
    replace(data);
    ready = idbReplaceAll(opened.db, toEntries(data, order, spec.version)).catch(fallBack);
  } else {
    // Nothing in IndexedDB (or no IndexedDB): today's localStorage data, or the older clients'.
    const migrating = versionedNeedsMigration(spec as VersionedSpec<unknown>);
    const data = loadVersioned(spec) ?? spec.initial();
    replace(data);
    if (opened.kind === 'localStorage') {
      // Migrated (or imported) data is saved at once, so it is not imported again.
      if (migrating) ready = writer({ puts: [], dels: [] }, data);
    } else {
      const key = storageKey(spec.name);
      ready = idbReplaceAll(opened.db, toEntries(data, order, spec.version))
        .then(() => appStorage().removeItem(key))
        .catch(fallBack);
    }
  }
  loaded = true;
  for (const changes of early.splice(0)) onRemote(changes);

  const unsubscribe = store.subscribe((state, prev) => {
    if (applying) return;
    const changes = diffEntries(pick(prev), pick(state), order);
    if (noChanges(changes)) return;
    void writer(changes, pick(state)).catch(fallBack);
    channel?.postMessage(changes);
  });

  return {
    kind: () => kind,
    ready,
    stop() {
      unsubscribe();
      channel?.close();
    },
  };
}
