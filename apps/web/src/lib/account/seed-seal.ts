import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { x25519 } from '@noble/curves/ed25519.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { SealedSeed } from '@marquee/contract';
import { DEVICE_LINK_SEAL_INFO } from '@marquee/contract/values';
import { fromBase64, toBase64Url } from '../base64.ts';

/*
 * A passphrase account's seed, carried from a signed-in device to a new one through the server without
 * the server seeing it (decision 107): the new device makes a one-time X25519 key and shows a fingerprint
 * of it; the approving device makes one too, derives an AES-256-GCM key with HKDF-SHA256 from the two
 * (salted with the link's code) and seals the seed with it; only the new device can open it.
 */

export interface LinkKey {
  /** base64url of the 32-byte X25519 public key, sent with the link. */
  publicKey: string;
  secretKey: Uint8Array;
}

const SEED_BYTES = 32;
const encoder = new TextEncoder();

export function newLinkKey(): LinkKey {
  const { secretKey, publicKey } = x25519.keygen();
  return { publicKey: toBase64Url(publicKey), secretKey };
}

function boxKey(secretKey: Uint8Array, peerPublicKey: string, code: string): Uint8Array {
  const shared = x25519.getSharedSecret(secretKey, fromBase64(peerPublicKey));
  return hkdf(sha256, shared, encoder.encode(code), encoder.encode(DEVICE_LINK_SEAL_INFO), 32);
}

/** The approving device: the seed sealed to the new device's key, for this link's code only. */
export function sealSeed(seed: Uint8Array, devicePublicKey: string, code: string): SealedSeed {
  if (seed.length !== SEED_BYTES) throw new Error('A seed is 32 bytes');
  const mine = x25519.keygen();
  const iv = randomBytes(12);
  const ciphertext = gcm(boxKey(mine.secretKey, devicePublicKey, code), iv).encrypt(seed);
  return { publicKey: toBase64Url(mine.publicKey), iv: toBase64Url(iv), ciphertext: toBase64Url(ciphertext) };
}

/** The new device: the seed, or an error when the box was not sealed to this key and code (or was changed). */
export function openSeed(sealed: SealedSeed, key: LinkKey, code: string): Uint8Array {
  const seed = gcm(boxKey(key.secretKey, sealed.publicKey, code), fromBase64(sealed.iv)).decrypt(
    fromBase64(sealed.ciphertext),
  );
  if (seed.length !== SEED_BYTES) throw new Error('A seed is 32 bytes');
  return seed;
}

/**
 * What both devices show of the new device's key, for the viewer to compare: a server that swapped the
 * key for its own would show a different one. 24 bits of its SHA-256, as three groups of two hex digits.
 */
export function keyFingerprint(publicKey: string): string {
  const digest = sha256(fromBase64(publicKey));
  return Array.from(digest.slice(0, 3), (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(' ');
}
