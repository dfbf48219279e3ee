import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64Url } from '../base64.ts';
import { prfInput, unwrapSeed, wrapSeed } from './passkey-seed.ts';

/* Decision 109: a passphrase account's seed is wrapped by the passkey's PRF output, bound to its credential. */

const seed = Uint8Array.from({ length: 32 }, (_, i) => 255 - i);
const prf = Uint8Array.from({ length: 32 }, (_, i) => i * 3);
const credentialId = toBase64Url(Uint8Array.from({ length: 16 }, (_, i) => i + 1));

const flip = (text: string, at: number) => {
  const bytes = fromBase64(text);
  bytes[at] = bytes[at]! ^ 1;
  return toBase64Url(bytes);
};

describe('a passkey-wrapped seed', () => {
  it('opens with the same PRF output and passkey, and holds no clear seed', () => {
    const wrapped = wrapSeed(seed, prf, credentialId);
    expect(fromBase64(wrapped.iv)).toHaveLength(12);
    expect(fromBase64(wrapped.ciphertext)).toHaveLength(48);
    expect(Buffer.from(fromBase64(wrapped.ciphertext)).includes(Buffer.from(seed.subarray(0, 8)))).toBe(
      false,
    );
    expect(unwrapSeed(wrapped, prf, credentialId)).toEqual(seed);
  });

  it('does not open with another PRF output, for another passkey, or when changed', () => {
    const wrapped = wrapSeed(seed, prf, credentialId);
    const otherPrf = prf.map((byte) => byte ^ 0x80);
    const otherCredential = toBase64Url(Uint8Array.from({ length: 16 }, (_, i) => i + 2));
    expect(() => unwrapSeed(wrapped, otherPrf, credentialId)).toThrow();
    expect(() => unwrapSeed(wrapped, prf, otherCredential)).toThrow();
    expect(() => unwrapSeed({ ...wrapped, iv: flip(wrapped.iv, 0) }, prf, credentialId)).toThrow();
    expect(() =>
      unwrapSeed({ ...wrapped, ciphertext: flip(wrapped.ciphertext, 40) }, prf, credentialId),
    ).toThrow();
  });

  it('is made fresh each time, refuses a short PRF output, and asks every passkey the same PRF input', () => {
    expect(wrapSeed(seed, prf, credentialId).iv).not.toBe(wrapSeed(seed, prf, credentialId).iv);
    expect(() => wrapSeed(seed, prf.subarray(0, 16), credentialId)).toThrow();
    expect(prfInput()).toEqual(prfInput());
    expect(prfInput()).toHaveLength(32);
  });
});
