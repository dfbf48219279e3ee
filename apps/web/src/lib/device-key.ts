import { clear, del, get, set } from 'idb-keyval';
import { createIdbStore } from '../idb-store.ts';
import { useAccountStore, type Account } from '../../stores/account-store.ts';
import { appStorage, type KeyValueStorage } from '../storage.ts';
import { fromBase64, toBase64 } from './base64.ts';

/*
 * Where a passphrase account keeps the key of its device names (docs/decisions/074). The seed is the
 * account itself (the Ed25519 private key): after sign-in it is only needed as the AES-256-GCM key of
 * the device names (the app family's sync API). Where the page has WebCrypto and IndexedDB, that key is
 * imported as a non-extractable CryptoKey and kept in IndexedDB (a structured clone keeps it
 * non-extractable), and no seed is stored in localStorage: a script injected into the page can use the
 * key while it runs, but never read the seed. Plain-http instances reached by address have no
 * WebCrypto (no secure context): there the seed stays in localStorage, as the older clients keep it.
 */

/** The keys of the signed-in account, by user id. */
export interface KeyStore {
  get(id: string): Promise<CryptoKey | undefined>;
  put(id: string, key: CryptoKey): Promise<void>;
  delete(id: string): Promise<void>;
  clear(): Promise<void>;
}

/** One database with one object store (idb-keyval: each call one transaction, resolved once committed). */
export function indexedDbKeyStore(): KeyStore {
  const db = createIdbStore('marquee:keys', 'keys');
  return {
    get: (id) => get<CryptoKey>(id, db),
    put: (id, key) => set(id, key, db),
    delete: (id) => del(id, db),
    clear: () => clear(db),
  };
}

let current: KeyStore | null | undefined;

/** The platform's key store, or null where WebCrypto (secure contexts only) or IndexedDB is missing. */
export function keyStore(): KeyStore | null {
  if (current === undefined) {
    current = globalThis.crypto?.subtle && typeof indexedDB !== 'undefined' ? indexedDbKeyStore() : null;
  }
  return current;
}

/** For tests. */
export function setKeyStore(store: KeyStore | null): void {
  current = store;
}

/** The seed as a non-extractable AES-GCM key (encrypt and decrypt only). */
export async function importDeviceKey(seed: Uint8Array): Promise<CryptoKey> {
  if (seed.length !== 32) throw new Error('the key must be 32 bytes');
  return crypto.subtle.importKey('raw', new Uint8Array(seed), 'AES-GCM', false, ['encrypt', 'decrypt']);
}

/** How the account stores its seed: `{seed: ''}` plus the IndexedDB marker, or the seed itself. */
export type SeedPlace = Pick<Account, 'seed' | 'deviceKey'>;

/**
 * At sign-in, before the account is stored: the key goes into IndexedDB (replacing any left there)
 * where the platform allows; otherwise (or when that fails) the seed is kept in localStorage.
 */
export async function keepSeed(userId: string, seed: Uint8Array): Promise<SeedPlace> {
  const store = keyStore();
  if (store && seed.length === 32) {
    try {
      const key = await importDeviceKey(seed);
      await store.clear();
      await store.put(userId, key);
      return { seed: '', deviceKey: 'indexeddb' };
    } catch (error) {
      console.warn(
        '[account] the device key could not be kept in IndexedDB; the seed stays in localStorage',
        error,
      );
    }
  }
  return { seed: toBase64(seed) };
}

/** The account's key in IndexedDB; null when there is none (storage cleared, another browser profile). */
export async function loadDeviceKey(userId: string): Promise<CryptoKey | null> {
  try {
    return (await keyStore()?.get(userId)) ?? null;
  } catch {
    return null;
  }
}

/** Sign-out: no key stays behind. */
export async function forgetDeviceKeys(): Promise<void> {
  try {
    await keyStore()?.clear();
  } catch (error) {
    console.warn('[account] the device key could not be removed from IndexedDB', error);
  }
}

/**
 * Blanks the seed in every other value of localStorage that holds it (the older clients' key, the
 * backups of the account store's migrations). The account store itself is written by its action.
 */
function blankSeed(storage: KeyValueStorage, seed: string): void {
  const keys: string[] = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key !== null && key !== useAccountStore.controls.key) keys.push(key);
  }
  for (const key of keys) {
    const value = storage.getItem(key);
    if (value?.includes(seed)) storage.setItem(key, value.split(seed).join(''));
  }
}

/**
 * Start-up: an account stored with its seed (by an earlier Marquee, or the older clients' `__MW::auth`
 * imported as version 0) gets its key into IndexedDB, then the seed is removed from localStorage —
 * from our store, the older clients' key and the backups of its migration. Nothing changes where the
 * platform does not allow it or the seed is not a 32-byte key.
 */
export async function moveSeedToKeyStore(): Promise<void> {
  const before = useAccountStore.getState().account;
  if (!before || before.kind === 'email' || !before.seed || !keyStore()) return;
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(before.seed);
  } catch {
    return;
  }
  if (bytes.length !== 32) return;
  const place = await keepSeed(before.userId, bytes);
  if (!place.deviceKey) return;
  // Another tab may have signed out or in meanwhile: only the same account loses its seed.
  useAccountStore.controls.refresh();
  const now = useAccountStore.getState().account;
  if (now?.userId !== before.userId) {
    await keyStore()
      ?.delete(before.userId)
      .catch(() => undefined);
    return;
  }
  if (now.seed === before.seed) useAccountStore.getState().updateAccount(place);
  blankSeed(appStorage(), before.seed);
}
