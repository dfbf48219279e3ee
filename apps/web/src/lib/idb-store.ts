import { promisifyRequest, type UseStore } from 'idb-keyval';

/**
 * idb-keyval's `createStore` (one database, one object store), except that its connection gives way when
 * another tab or page deletes or upgrades the database (`versionchange`): it closes, and the next call
 * opens the database again. idb-keyval's own keeps its connection for ever, so a deletion elsewhere would
 * wait until this page is closed.
 */
export function createIdbStore(dbName: string, storeName: string): UseStore {
  let db: Promise<IDBDatabase> | undefined;
  const open = () =>
    (db ??= (async () => {
      const request = indexedDB.open(dbName);
      request.onupgradeneeded = () => request.result.createObjectStore(storeName);
      const opened = await promisifyRequest(request);
      opened.onversionchange = () => {
        opened.close();
        db = undefined;
      };
      return opened;
    })().catch((error: unknown) => {
      db = undefined;
      throw error;
    }));
  return (txMode, callback) =>
    open().then((opened) => callback(opened.transaction(storeName, txMode).objectStore(storeName)));
}
