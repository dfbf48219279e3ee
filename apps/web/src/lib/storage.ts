/**
 * Browser storage through one seam: tests swap in a memory storage, and a browser that refuses
 * localStorage (private mode, quota, disabled cookies) still runs, with data kept for the tab only.
 */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
  readonly length: number;
  key(index: number): string | null;
}

export function memoryStorage(initial: Record<string, string> = {}): KeyValueStorage {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
    get length() {
      return map.size;
    },
    key: (i) => [...map.keys()][i] ?? null,
  };
}

function browserStorage(): KeyValueStorage {
  try {
    const probe = '__marquee_probe__';
    window.localStorage.setItem(probe, probe);
    window.localStorage.removeItem(probe);
    return window.localStorage;
  } catch {
    return memoryStorage();
  }
}

let current: KeyValueStorage | undefined;

export function appStorage(): KeyValueStorage {
  current ??= browserStorage();
  return current;
}

/** For tests. */
export function setAppStorage(storage: KeyValueStorage): void {
  current = storage;
}

/** All of our keys share this prefix. */
export const STORAGE_PREFIX = 'marquee:';
