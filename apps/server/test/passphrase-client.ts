import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { ed25519 } from '@noble/curves/ed25519.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';

/**
 * A passphrase-account client that does exactly what the app family's web clients do
 * (the app family's sync API): PBKDF2-HMAC-SHA256(mnemonic as typed, "mnemonic", 2048, 32) → seed →
 * Ed25519 key pair and AES-256-GCM key; base64url keys and signatures; device names encrypted as
 * base64(iv).base64(ct).base64(tag) with a 16-byte IV.
 */
export interface PassphraseKeys {
  mnemonic: string;
  seed: Uint8Array;
  /** base64url, no padding, 43 chars */
  publicKey: string;
  sign(code: string): string;
  encryptDevice(name: string): string;
  decryptDevice(blob: string): string;
}

export const KNOWN_MNEMONIC = 'awkward safe differ large subway junk gallery flight left glue fault glory';
export const OTHER_MNEMONIC = 'right inject hazard canoe carry unfair cram physical chief nice real tribute';

/** The check the login form runs before deriving (derivation itself does not need it). */
export const isValidMnemonic = (mnemonic: string) => validateMnemonic(mnemonic, wordlist);

export function newMnemonic(): string {
  return generateMnemonic(wordlist); // 128 bits → 12 words, as the clients generate
}

export function deriveKeys(mnemonic: string): PassphraseKeys {
  const seed = pbkdf2(sha256, new TextEncoder().encode(mnemonic), new TextEncoder().encode('mnemonic'), {
    c: 2048,
    dkLen: 32,
  });
  const publicKeyBytes = ed25519.getPublicKey(seed);
  const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');
  return {
    mnemonic,
    seed,
    publicKey: b64url(publicKeyBytes),
    sign: (code) => b64url(ed25519.sign(new TextEncoder().encode(code), seed)),
    encryptDevice(name) {
      const iv = randomBytes(16);
      const cipher = createCipheriv('aes-256-gcm', seed, iv);
      const ct = Buffer.concat([cipher.update(name, 'utf8'), cipher.final()]);
      return [iv, ct, cipher.getAuthTag()].map((b) => b.toString('base64')).join('.');
    },
    decryptDevice(blob) {
      const [iv, ct, tag] = blob.split('.').map((p) => Buffer.from(p, 'base64'));
      if (!iv || !ct || !tag) throw new Error('not an encrypted device name');
      const decipher = createDecipheriv('aes-256-gcm', seed, iv);
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ct), decipher.final()]).toString('utf8');
    },
  };
}
