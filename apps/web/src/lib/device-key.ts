import { clear, del, get, set } from 'idb-keyval';
import { toBase64 } from './base64.ts';
import { createIdbStore } from './idb-store.ts';

/*
 * Where a passphrase account keeps the key of its device names (docs/decisions/074). The seed is the
 * account itself (the Ed25519 private key): after sign-in it is only needed as the AES-256-GCM key of
 * the device names (the app family's sync API). Where the page has WebCrypto and IndexedDB, that key is
 * imported as a non-extractable CryptoKey and kept in IndexedDB (a structured clone keeps it
 * non-extractable), and no seed is stored in localStorage: a script injected into the page can use the
 * key while it runs, but never read the seed. Plain-http instances reached by address have no
 * WebCrypto (no secure context): there the seed stays in localStorage, as the older clients keep it.
 * Moving a seed found stored at start is a migration of the account store (stores/account-seed.ts).
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

/**
 * How the account stores its seed: `{seed: ''}` plus the IndexedDB marker, or the seed itself (the
 * `seed` and `deviceKey` fields of the account store's `Account`).
 */
export interface SeedPlace {
  seed: string;
  deviceKey?: 'indexeddb';
}

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
