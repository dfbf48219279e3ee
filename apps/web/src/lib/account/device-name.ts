import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { fromBase64, toBase64 } from './base64.ts';

/*
 * The device name of a session is the only thing a passphrase account encrypts (sync-api-compat §2.5):
 * AES-256-GCM, key = the 32-byte seed, random 16-byte IV, 128-bit tag, sent as
 * base64(iv).base64(ciphertext).base64(tag). A pure implementation, because WebCrypto is missing on
 * plain-http instances reached by IP address (no secure context).
 */

const TAG_BYTES = 16;

export function encryptDeviceName(name: string, seed: Uint8Array): string {
  if (seed.length !== 32) throw new Error('the key must be 32 bytes');
  const iv = randomBytes(16);
  const sealed = gcm(seed, iv).encrypt(new TextEncoder().encode(name));
  const ct = sealed.subarray(0, sealed.length - TAG_BYTES);
  const tag = sealed.subarray(sealed.length - TAG_BYTES);
  return [iv, ct, tag].map(toBase64).join('.');
}

/** Throws when the blob is malformed or was not encrypted with this seed. */
export function decryptDeviceName(blob: string, seed: Uint8Array): string {
  const parts = blob.split('.');
  if (parts.length !== 3) throw new Error('not an encrypted device name');
  const [iv, ct, tag] = parts.map(fromBase64) as [Uint8Array, Uint8Array, Uint8Array];
  const sealed = new Uint8Array(ct.length + tag.length);
  sealed.set(ct);
  sealed.set(tag, ct.length);
  return new TextDecoder().decode(gcm(seed, iv).decrypt(sealed));
}

/** The readable device name of an account, or null when it cannot be decrypted. */
export function readDeviceName(blob: string, seedBase64: string): string | null {
  try {
    return decryptDeviceName(blob, fromBase64(seedBase64));
  } catch {
    return null;
  }
}
