import 'fake-indexeddb/auto';
import { get, set } from 'idb-keyval';
import { expect, it } from 'vitest';
import { createIdbStore } from './idb-store.ts';

const deleteDatabase = (name: string) =>
  new Promise<void>((resolve, reject) => {
    const request = indexedDB.deleteDatabase(name);
    request.onsuccess = () => resolve();
    request.onerror = () => reject(request.error);
    // A connection that does not give way keeps the deletion waiting: the test fails rather than hangs.
    request.onblocked = () => reject(new Error('the deletion is blocked by an open connection'));
  });

it('gives way to a deletion elsewhere, and opens the database again on the next call', async () => {
  const store = createIdbStore('idb-store-test', 'things');
  await set('a', 1, store);
  expect(await get('a', store)).toBe(1);
  await deleteDatabase('idb-store-test');
  expect(await get('a', store)).toBeUndefined();
  await set('b', 2, store);
  expect(await get('b', store)).toBe(2);
});
