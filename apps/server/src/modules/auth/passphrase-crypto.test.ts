import { describe, expect, it } from 'vitest';
import { deriveKeys, KNOWN_MNEMONIC } from '../../../test/passphrase-client.ts';
import { canonicalPublicKey, decodeBase64Url, verifyChallengeSignature } from './passphrase-crypto.ts';

const keys = deriveKeys(KNOWN_MNEMONIC);
const code = '6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f';

describe('passphrase crypto', () => {
  it('verifies the reference signature over the exact code bytes', () => {
    expect(verifyChallengeSignature(keys.publicKey, code, keys.sign(code))).toBe(true);
    expect(verifyChallengeSignature(keys.publicKey, code.toUpperCase(), keys.sign(code))).toBe(false);
    expect(verifyChallengeSignature(keys.publicKey, `${code} `, keys.sign(code))).toBe(false);
  });

  it('accepts the spellings Node accepts (padding, +/) but maps them to one canonical key', () => {
    const padded = `${keys.publicKey}=`;
    const standard = Buffer.from(keys.publicKey, 'base64url').toString('base64');
    expect(canonicalPublicKey(padded)).toBe(keys.publicKey);
    expect(canonicalPublicKey(standard)).toBe(keys.publicKey);
    expect(verifyChallengeSignature(standard, code, `${keys.sign(code)}==`)).toBe(true);
  });

  it('rejects wrong lengths and characters instead of skipping them', () => {
    expect(decodeBase64Url(keys.publicKey.slice(1), 32)).toBeNull();
    expect(decodeBase64Url(`${keys.publicKey}A`, 32)).toBeNull();
    expect(decodeBase64Url(`${keys.publicKey.slice(0, 20)}!${keys.publicKey.slice(21)}`, 32)).toBeNull();
    expect(decodeBase64Url('', 32)).toBeNull();
    expect(verifyChallengeSignature(keys.publicKey, code, keys.sign(code).slice(2))).toBe(false);
    expect(verifyChallengeSignature('x', code, keys.sign(code))).toBe(false);
    const flipped = Buffer.from(keys.sign(code), 'base64url');
    flipped[10] = flipped[10]! ^ 1;
    expect(verifyChallengeSignature(keys.publicKey, code, flipped.toString('base64url'))).toBe(false);
  });

  it('refuses a malleated signature (S + L): RFC 8032 requires S below the group order', () => {
    const L = 2n ** 252n + 27742317777372353535851937790883648493n;
    const sig = Buffer.from(keys.sign(code), 'base64url');
    const s = sig.subarray(32).reduceRight((acc, byte) => (acc << 8n) | BigInt(byte), 0n) + L;
    const malleated = Buffer.concat([
      sig.subarray(0, 32),
      Buffer.from(Array.from({ length: 32 }, (_, i) => Number((s >> BigInt(8 * i)) & 0xffn))),
    ]);
    expect(verifyChallengeSignature(keys.publicKey, code, malleated.toString('base64url'))).toBe(false);
  });
});
