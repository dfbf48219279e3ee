import { ed25519 } from '@noble/curves/ed25519.js';
import { pbkdf2 } from '@noble/hashes/pbkdf2.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { generateMnemonic, validateMnemonic } from '@scure/bip39';
import { wordlist } from '@scure/bip39/wordlists/english.js';
import { toBase64Url } from '../base64.ts';

/*
 * Passphrase accounts exactly as the app family's clients do it:
 * a 12-word English BIP-39 mnemonic; seed = PBKDF2-HMAC-SHA256(mnemonic as typed, "mnemonic", 2048,
 * 32 bytes) — not the standard BIP-39 seed; the seed is both the Ed25519 private key and the AES key.
 * Loaded only by the sign-in pages and settings (it is the largest code of the account feature).
 */

/** 128 bits of entropy → 12 words. */
export const newPassphrase = () => generateMnemonic(wordlist);

/** The login form's check: 12 (or more) known words with a valid checksum. */
export const isValidPassphrase = (text: string) => validateMnemonic(text, wordlist);

/**
 * The passphrase as typed, in the form its words are checked in: lower case, single spaces, no space
 * at the ends (a phone capitalises the first word; a paste brings line breaks).
 */
export const normalizePassphrase = (typed: string) => typed.trim().toLowerCase().replace(/\s+/g, ' ');

export function seedFromPassphrase(passphrase: string): Uint8Array {
  const enc = new TextEncoder();
  return pbkdf2(sha256, enc.encode(passphrase), enc.encode('mnemonic'), { c: 2048, dkLen: 32 });
}

export interface SigningKeys {
  /** Raw 32-byte Ed25519 key, base64url without padding. */
  publicKey: string;
  /** Signs the UTF-8 bytes of a challenge code; base64url without padding. */
  sign(code: string): string;
}

export function keysFromSeed(seed: Uint8Array): SigningKeys {
  return {
    publicKey: toBase64Url(ed25519.getPublicKey(seed)),
    sign: (code) => toBase64Url(ed25519.sign(new TextEncoder().encode(code), seed)),
  };
}
