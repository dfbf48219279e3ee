import { fromBase64 } from '../lib/base64.ts';
import { keepSeed, keyStore } from '../lib/device-key.ts';
import { appStorage, type KeyValueStorage } from '../lib/storage.ts';
import { useAccountStore } from './account-store.ts';

/*
 * The move of a stored seed into IndexedDB (docs/decisions/074): a migration of the account store's
 * stored data, like its versions and the older clients' import (persisted.ts). Loaded by initStores only
 * when the stored account still holds its seed.
 */

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
