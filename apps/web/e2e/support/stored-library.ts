import type { Page } from '@playwright/test';
import {
  applyEntries,
  OutboxOrder,
  toEntries,
  type Entry,
} from '../../src/stores/library/library-entries.ts';
import type { LibraryStoreData } from '../../src/stores/library/library-store.ts';

/**
 * The library as the app keeps it on the device: IndexedDB database `marquee`, object store `library`,
 * one entry per item (decision 080). Read and written here with the app's own entry format.
 */
const emptyLibrary = (): LibraryStoreData => ({
  bookmarks: {},
  progress: {},
  history: {},
  ratings: {},
  removals: { bookmarks: {}, progress: {}, history: {}, ratings: {} },
  groupOrder: [],
  outbox: [],
  profile: '',
  stash: {},
});

/** Every stored entry; none when the app has not created its database yet (this read never creates it). */
export async function storedEntries(page: Page): Promise<Entry[]> {
  return page.evaluate(
    () =>
      new Promise<[string, unknown][]>((resolve, reject) => {
        const request = indexedDB.open('marquee');
        // Not created by the app yet: creating it here would leave it without the app's object store.
        request.onupgradeneeded = () => request.transaction!.abort();
        request.onerror = () => resolve([]);
        request.onsuccess = () => {
          const db = request.result;
          if (!db.objectStoreNames.contains('library')) {
            db.close();
            resolve([]);
            return;
          }
          const tx = db.transaction('library');
          const keys = tx.objectStore('library').getAllKeys();
          const values = tx.objectStore('library').getAll();
          tx.oncomplete = () => {
            db.close();
            resolve(keys.result.map((key, i) => [String(key), values.result[i]]));
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
  );
}

/** The stored library (what the app reads at start). */
export async function storedLibrary(page: Page): Promise<LibraryStoreData> {
  return applyEntries(emptyLibrary(), { puts: await storedEntries(page), dels: [] }, new OutboxOrder());
}

/** Replaces the stored library (the page must have started the app once); the app reads it on reload. */
export async function replaceStoredLibrary(page: Page, data: Partial<LibraryStoreData>): Promise<void> {
  const rows = toEntries({ ...emptyLibrary(), ...data }, new OutboxOrder(), 1);
  await page.evaluate(
    (entries) =>
      new Promise<void>((resolve, reject) => {
        const request = indexedDB.open('marquee');
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const db = request.result;
          const tx = db.transaction('library', 'readwrite');
          const store = tx.objectStore('library');
          store.clear();
          for (const [key, value] of entries) store.put(value, key);
          tx.oncomplete = () => {
            db.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    rows,
  );
}
