import { createPublicKey, verify } from 'node:crypto';

/*
 * The server side of the passphrase protocol: clients derive an Ed25519 key from their passphrase and
 * sign the UTF-8 bytes of the challenge code exactly as we issued it. Keys and signatures arrive as
 * base64url without padding; like the older server we also accept padding and the +/ alphabet, but we
 * decode strictly (no skipped characters) and identify an account by the key bytes, not the spelling.
 */

const BASE64ISH = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Strict base64/base64url → bytes of the expected length, or null. */
export function decodeBase64Url(text: string, expectedBytes: number): Uint8Array | null {
  if (!BASE64ISH.test(text)) return null;
  const bare = text.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  if (bare.length !== Math.ceil((expectedBytes * 4) / 3)) return null;
  const bytes = Buffer.from(bare, 'base64url');
  return bytes.length === expectedBytes ? new Uint8Array(bytes) : null;
}

export const toBase64Url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

/** The one spelling we store: base64url without padding of the 32 key bytes; null if not a key. */
export function canonicalPublicKey(text: string): string | null {
  const bytes = decodeBase64Url(text, 32);
  return bytes ? toBase64Url(bytes) : null;
}

/** DER prefix of an Ed25519 SubjectPublicKeyInfo (RFC 8410): the 32 key bytes follow it. */
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');

/** RFC 8032 verification (OpenSSL's, strict: no ZIP-215 leniency) of `signature` over the UTF-8 bytes of `message`. */
export function verifyChallengeSignature(publicKey: string, message: string, signature: string): boolean {
  const key = decodeBase64Url(publicKey, 32);
  const sig = decodeBase64Url(signature, 64);
  if (!key || !sig) return false;
  try {
    const publicKeyObject = createPublicKey({
      key: Buffer.concat([ED25519_SPKI_PREFIX, key]),
      format: 'der',
      type: 'spki',
    });
    return verify(null, Buffer.from(message, 'utf8'), publicKeyObject, sig);
  } catch {
    return false;
  }
}
