import { gcm } from '@noble/ciphers/aes.js';
import { randomBytes } from '@noble/ciphers/utils.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { sha256 } from '@noble/hashes/sha2.js';
import type { WrappedSeed } from '@marquee/contract';
import { PASSKEY_PRF_LABEL, PASSKEY_WRAP_INFO } from '@marquee/contract/values';
import { fromBase64, toBase64Url } from '../base64.ts';

/*
 * A passphrase account's seed wrapped by a passkey (decision 109): the authenticator's WebAuthn PRF output
 * for the fixed input `prfInput()` is a secret only it can make again; HKDF-SHA256 of it keys AES-256-GCM,
 * with the credential id as additional data so a wrapped seed opens only with the passkey it was made for.
 * The credential id itself is no secret and never keys anything.
 */

const SEED_BYTES = 32;
const encoder = new TextEncoder();

/** The PRF input every Marquee passkey is asked for: SHA-256 of PASSKEY_PRF_LABEL. */
export const prfInput = (): Uint8Array => sha256(encoder.encode(PASSKEY_PRF_LABEL));

const wrapKey = (prfOutput: Uint8Array): Uint8Array => {
  if (prfOutput.length < 32) throw new Error('A PRF output is 32 bytes');
  return hkdf(sha256, prfOutput, new Uint8Array(0), encoder.encode(PASSKEY_WRAP_INFO), 32);
};

export function wrapSeed(seed: Uint8Array, prfOutput: Uint8Array, credentialId: string): WrappedSeed {
  if (seed.length !== SEED_BYTES) throw new Error('A seed is 32 bytes');
  const iv = randomBytes(12);
  const ciphertext = gcm(wrapKey(prfOutput), iv, fromBase64(credentialId)).encrypt(seed);
  return { iv: toBase64Url(iv), ciphertext: toBase64Url(ciphertext) };
}

/** The seed, or an error when this PRF output and passkey did not wrap it (or it was changed). */
export function unwrapSeed(wrapped: WrappedSeed, prfOutput: Uint8Array, credentialId: string): Uint8Array {
  const seed = gcm(wrapKey(prfOutput), fromBase64(wrapped.iv), fromBase64(credentialId)).decrypt(
    fromBase64(wrapped.ciphertext),
  );
  if (seed.length !== SEED_BYTES) throw new Error('A seed is 32 bytes');
  return seed;
}
