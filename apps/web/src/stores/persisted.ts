import { create, type StateCreator, type StoreApi, type UseBoundStore } from 'zustand';
import { persist, type PersistStorage, type StorageValue } from 'zustand/middleware';
import { appStorage, STORAGE_PREFIX, type KeyValueStorage } from '../lib/storage.ts';
import { useMigrationStatus } from './migration-status.ts';

/**
 * Versioned local stores (docs/decisions/030): each store is one localStorage key `marquee:<name>`
 * holding `{state, version}` (zustand persist). Older data is migrated step by step; before each step
 * the data is backed up to `marquee:backup:v<N>:<name>`; a failed step resets the store to its default
 * and is reported (the UI says "Failed to migrate your data"). When we have nothing stored yet, data of
 * the older clients of this app family is read as version 0, so importing it is just migration 0 → 1.
 */
export interface VersionedSpec<D> {
  name: string;
  version: number;
  /** The default data of the latest version. */
  initial: () => D;
  /** `migrations[k]` turns data of version k-1 into version k. */
  migrations: Record<number, (data: any) => unknown>;
  /** The older clients' data as version 0, when we have nothing stored yet; null when there is none. */
  legacy?: (storage: KeyValueStorage) => unknown;
  /** Repairs what was read (missing fields, wrong types) into valid data of the latest version. */
  sanitize?: (data: any, initial: D) => D;
}

export const storageKey = (name: string) => `${STORAGE_PREFIX}${name}`;
export const backupKey = (version: number | string, name: string) =>
  `${STORAGE_PREFIX}backup:v${version}:${name}`;

export interface PersistedStoreControls {
  readonly name: string;
  readonly key: string;
  /** Whether hydrating will run a migration (or an import of the older clients' data). */
  needsMigration(): boolean;
  /** Reads the stored data (running migrations); synchronous with localStorage. */
  hydrate(): void;
  /** Adopts what another tab wrote, if anything changed since we last read or wrote. */
  refresh(): void;
}

export type PersistedStore<S> = UseBoundStore<StoreApi<S>> & { controls: PersistedStoreControls };

const registry: PersistedStoreControls[] = [];
export const persistedStores = (): readonly PersistedStoreControls[] => registry;

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function reportFailure(name: string, error: unknown): void {
  console.error(`[storage] migrating "${name}" failed; it was reset to its default`, error);
  useMigrationStatus.getState().reportFailure(name);
}

/**
 * What is stored under `marquee:<name>` as `{state, version}`, else the older clients' data as version 0;
 * null when there is neither. Unreadable data is backed up under `marquee:backup:unreadable:<name>` and removed.
 */
function readStored(spec: VersionedSpec<unknown>, s: KeyValueStorage): StorageValue<unknown> | null {
  const key = storageKey(spec.name);
  const raw = s.getItem(key);
  if (raw === null) {
    let old: unknown = null;
    try {
      old = spec.legacy?.(s) ?? null;
    } catch (error) {
      // Unreadable data of an older client: ours starts empty, theirs stays where it is.
      reportFailure(spec.name, error);
    }
    return old == null ? null : { state: old, version: 0 };
  }
  try {
    const parsed: unknown = JSON.parse(raw);
    if (!isRecord(parsed) || typeof parsed.version !== 'number' || !('state' in parsed))
      throw new Error('not a versioned store');
    return parsed as unknown as StorageValue<unknown>;
  } catch (error) {
    s.setItem(backupKey('unreadable', spec.name), raw);
    s.removeItem(key);
    reportFailure(spec.name, error);
    return null;
  }
}

/** Runs the migrations from version `from`, backing up before each step; on failure, the default data. */
export function migrateStored(
  spec: VersionedSpec<unknown>,
  persisted: unknown,
  from: number,
  s: KeyValueStorage,
) {
  try {
    if (from > spec.version) {
      s.setItem(backupKey(from, spec.name), JSON.stringify({ state: persisted, version: from }));
      throw new Error(`stored version ${from} is newer than ${spec.version}`);
    }
    let data = persisted;
    for (let v = from; v < spec.version; v++) {
      s.setItem(backupKey(v, spec.name), JSON.stringify({ state: data, version: v }));
      const step = spec.migrations[v + 1];
      if (!step) throw new Error(`no migration from version ${v} to ${v + 1}`);
      data = step(data);
    }
    return data;
  } catch (error) {
    reportFailure(spec.name, error);
    return spec.initial();
  }
}

/** Repairs migrated data into valid data of the latest version (the default when it cannot). */
export function sanitizeStored<D>(spec: VersionedSpec<D>, data: unknown): D {
  const initial = spec.initial();
  if (!isRecord(data)) return initial;
  try {
    return spec.sanitize ? spec.sanitize(data, initial) : ({ ...initial, ...data } as D);
  } catch (error) {
    reportFailure(spec.name, error);
    return initial;
  }
}

/**
 * The stored data of `spec` as its latest version (migrating, or importing the older clients' data);
 * null when nothing is stored. For stores kept elsewhere that move their data out of localStorage.
 */
export function loadVersioned<D>(spec: VersionedSpec<D>, s: KeyValueStorage = appStorage()): D | null {
  const stored = readStored(spec as VersionedSpec<unknown>, s);
  if (!stored) return null;
  const version = stored.version ?? 0;
  const data =
    version === spec.version
      ? stored.state
      : migrateStored(spec as VersionedSpec<unknown>, stored.state, version, s);
  return sanitizeStored(spec, data);
}

/** Whether reading `spec`'s stored data will run a migration (or an import of the older clients' data). */
export function versionedNeedsMigration(spec: VersionedSpec<unknown>, s: KeyValueStorage = appStorage()) {
  const raw = s.getItem(storageKey(spec.name));
  if (raw === null) {
    if (!spec.legacy) return false;
    try {
      return spec.legacy(s) != null;
    } catch {
      return true;
    }
  }
  try {
    return (JSON.parse(raw) as { version?: unknown }).version !== spec.version;
  } catch {
    return true;
  }
}

/**
 * A zustand store persisted under `marquee:<name>`. `data` keys of the state (those of `initial()`) are
 * stored; actions are not. Every write first adopts what other tabs stored (see `refresh`), so two tabs
 * never clobber each other's changes; actions must therefore use the functional form of `set`.
 */
export function createPersistedStore<D extends object, S extends D>(
  spec: VersionedSpec<D>,
  creator: StateCreator<S, [], []>,
): PersistedStore<S> {
  const key = storageKey(spec.name);
  const dataKeys = Object.keys(spec.initial());
  let lastRaw: string | null | undefined;

  const storage: PersistStorage<unknown> = {
    getItem(name) {
      const s = appStorage();
      lastRaw = s.getItem(name);
      const stored = readStored(spec as VersionedSpec<unknown>, s);
      if (stored === null) lastRaw = s.getItem(name);
      return stored;
    },
    setItem(name, value) {
      const raw = JSON.stringify(value);
      try {
        appStorage().setItem(name, raw);
        lastRaw = raw;
      } catch (error) {
        // Quota exceeded: the change still applies for this tab.
        console.error(`[storage] could not save "${spec.name}"`, error);
      }
    },
    removeItem(name) {
      appStorage().removeItem(name);
      lastRaw = null;
    },
  };

  const migrate = (persisted: unknown, from: number): unknown =>
    migrateStored(spec as VersionedSpec<unknown>, persisted, from, appStorage());
  const sanitize = (data: unknown): D => sanitizeStored(spec, data);

  const useStore = create<S>()(
    persist(
      (set, get, api) =>
        creator(
          ((...args: Parameters<typeof set>) => {
            controls.refresh();
            (set as (...a: unknown[]) => void)(...args);
          }) as typeof set,
          get,
          api,
        ),
      {
        name: key,
        version: spec.version,
        storage,
        skipHydration: true,
        migrate,
        partialize: (state) =>
          Object.fromEntries(dataKeys.map((k) => [k, (state as Record<string, unknown>)[k]])),
        merge: (persisted, current) => ({ ...current, ...sanitize(persisted ?? spec.initial()) }),
      },
    ),
  );

  const controls: PersistedStoreControls = {
    name: spec.name,
    key,
    needsMigration: () => versionedNeedsMigration(spec as VersionedSpec<unknown>),
    hydrate() {
      void useStore.persist.rehydrate();
    },
    refresh() {
      if (lastRaw === undefined) return; // not hydrated yet
      if (appStorage().getItem(key) !== lastRaw) void useStore.persist.rehydrate();
    },
  };
  registry.push(controls);
  return Object.assign(useStore as unknown as UseBoundStore<StoreApi<S>>, { controls });
}

/** Hydrates every store (running migrations); call once at start, before rendering. */
export function hydrateStores(): void {
  for (const store of registry) store.hydrate();
}

/** Keeps open tabs in step: another tab's write arrives as a `storage` event. */
export function followOtherTabs(target: Window = window): () => void {
  const onStorage = (event: StorageEvent) => {
    if (event.key === null) {
      for (const store of registry) store.refresh();
      return;
    }
    registry.find((s) => s.key === event.key)?.refresh();
  };
  target.addEventListener('storage', onStorage);
  return () => target.removeEventListener('storage', onStorage);
}
