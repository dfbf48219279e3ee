import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import type { Account } from '../../stores/account-store.ts';
import { fromBase64, toBase64 } from '../base64.ts';
import { loadDeviceKey } from '../device-key.ts';

/*
 * The device name of a session is the only thing a passphrase account encrypts (the app family's sync API):
 * AES-256-GCM, key = the 32-byte seed, random 16-byte IV, 128-bit tag, sent as
 * base64(iv).base64(ciphertext).base64(tag). With the non-extractable key kept in IndexedDB
 * (decision 074) WebCrypto does it; with the seed itself, a pure implementation, because WebCrypto is
 * missing on plain-http instances reached by IP address (no secure context). Both write the same blobs.
 */

/** The seed's 32 bytes, or the non-extractable AES-GCM key imported from them. */
export type DeviceNameKey = Uint8Array | CryptoKey;

const TAG_BYTES = 16;
const gcmParams = (iv: Uint8Array): AesGcmParams => ({
  name: 'AES-GCM',
  iv: new Uint8Array(iv),
  tagLength: TAG_BYTES * 8,
});

export async function encryptDeviceName(name: string, key: DeviceNameKey): Promise<string> {
  if (key instanceof Uint8Array && key.length !== 32) throw new Error('the key must be 32 bytes');
  const iv = randomBytes(16);
  const plain = new TextEncoder().encode(name);
  const sealed =
    key instanceof Uint8Array
      ? gcm(key, iv).encrypt(plain)
      : new Uint8Array(await crypto.subtle.encrypt(gcmParams(iv), key, plain));
  const ct = sealed.subarray(0, sealed.length - TAG_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  return [iv, ct, tag].map(toBase64).join('.');
}

/** Throws when the blob is malformed or was not encrypted with this key. */
export async function decryptDeviceName(blob: string, key: DeviceNameKey): Promise<string> {
  const parts = blob.split('.');
  if (parts.length !== 3) throw new Error('not an encrypted device name');
  const [iv, ct, tag] = parts.map(fromBase64) as [Uint8Array, Uint8Array, Uint8Array];
  const sealed = new Uint8Array(ct.length + tag.length);
  sealed.set(ct);
  sealed.set(tag, ct.length);
  const plain =
    key instanceof Uint8Array
      ? gcm(key, iv).decrypt(sealed)
      : new Uint8Array(await crypto.subtle.decrypt(gcmParams(iv), key, sealed));
  return new TextDecoder().decode(plain);
}

/** The readable device name, or null when it cannot be decrypted (or there is no key). */
export async function readDeviceName(blob: string, key: DeviceNameKey | null): Promise<string | null> {
  if (!key) return null;
  try {
    return await decryptDeviceName(blob, key);
  } catch {
    return null;
  }
}

/**
 * The device-name key of a passphrase account: its seed where it is stored, else its key in
 * IndexedDB; null for email accounts and when the key is gone.
 */
export async function accountDeviceKey(
  account: Pick<Account, 'userId' | 'seed' | 'deviceKey'>,
): Promise<DeviceNameKey | null> {
  if (account.seed) {
    try {
      return fromBase64(account.seed);
    } catch {
      return null;
    }
  }
  return account.deviceKey === 'indexeddb' ? loadDeviceKey(account.userId) : null;
}
