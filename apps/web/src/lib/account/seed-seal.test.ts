import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64Url } from '../base64.ts';
import { keyFingerprint, newLinkKey, openSeed, sealSeed } from './seed-seal.ts';

/* Decision 107: a passphrase account's seed travels sealed to the new device's one-time key. */

const seed = Uint8Array.from({ length: 32 }, (_, i) => i * 7);

describe('a sealed seed', () => {
  it('is in the contract’s shape, opens only with the new device’s key and the link’s code', () => {
    const device = newLinkKey();
    const sealed = sealSeed(seed, device.publicKey, '123456');
    // The contract's shape (SealedSeed): a 32-byte key, a 12-byte IV, the seed and its 16-byte tag.
    expect([sealed.publicKey, sealed.iv, sealed.ciphertext].map((part) => fromBase64(part).length)).toEqual([
      32, 12, 48,
    ]);
    expect(Object.values(sealed).every((part) => /^[A-Za-z0-9_-]+$/.test(part))).toBe(true);
    expect(openSeed(sealed, device, '123456')).toEqual(seed);
    expect(() => openSeed(sealed, newLinkKey(), '123456')).toThrow();
    expect(() => openSeed(sealed, device, '123457')).toThrow();
  });

  it('is refused when any byte of it was changed, and differs each time it is made', () => {
    const device = newLinkKey();
    const sealed = sealSeed(seed, device.publicKey, '123456');
    const flip = (text: string, at: number) => {
      const bytes = fromBase64(text);
      bytes[at] = bytes[at]! ^ 1;
      return toBase64Url(bytes);
    };
    for (const tampered of [
      { ...sealed, ciphertext: flip(sealed.ciphertext, 0) },
      { ...sealed, ciphertext: flip(sealed.ciphertext, 47) },
      { ...sealed, iv: flip(sealed.iv, 3) },
      { ...sealed, publicKey: newLinkKey().publicKey },
    ])
      expect(() => openSeed(tampered, device, '123456')).toThrow();
    expect(sealSeed(seed, device.publicKey, '123456').ciphertext).not.toBe(sealed.ciphertext);
  });

  it('names a key by a check both devices show: the same for the same key, another for another', () => {
    const key = newLinkKey().publicKey;
    expect(keyFingerprint(key)).toMatch(/^[0-9A-F]{2} [0-9A-F]{2} [0-9A-F]{2}$/);
    expect(keyFingerprint(key)).toBe(keyFingerprint(key));
    expect(keyFingerprint(newLinkKey().publicKey)).not.toBe(keyFingerprint(key));
  });
});
