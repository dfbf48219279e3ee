import { createCipheriv } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../base64.ts';
import { importDeviceKey } from '../device-key.ts';
import { decryptDeviceName, encryptDeviceName, readDeviceName } from './device-name.ts';
import { seedFromPassphrase } from './passphrase.ts';

const seed = seedFromPassphrase('awkward safe differ large subway junk gallery flight left glue fault glory');

describe('device names with the non-extractable key (decision 074) and with the seed', () => {
  it('a name WebCrypto encrypts decrypts with the pure implementation, and the other way round', async () => {
    const key = await importDeviceKey(seed);
    const byWebCrypto = await encryptDeviceName('Living room TV', key);
    const [iv, ct, tag] = byWebCrypto.split('.');
    expect(fromBase64(iv!)).toHaveLength(16);
    expect(fromBase64(ct!)).toHaveLength('Living room TV'.length);
    expect(fromBase64(tag!)).toHaveLength(16);
    expect(await decryptDeviceName(byWebCrypto, seed)).toBe('Living room TV');

    const byNoble = await encryptDeviceName('Küche 📺', seed);
    expect(await decryptDeviceName(byNoble, key)).toBe('Küche 📺');
  });

  it('reads a name written by another AES-GCM implementation (as the older clients write it)', async () => {
    const iv = Uint8Array.from({ length: 16 }, (_, i) => i * 7);
    const cipher = createCipheriv('aes-256-gcm', seed, iv);
    const ct = new Uint8Array(Buffer.concat([cipher.update('Phone', 'utf8'), cipher.final()]));
    const blob = [iv, ct, new Uint8Array(cipher.getAuthTag())].map(toBase64).join('.');
    expect(await readDeviceName(blob, await importDeviceKey(seed))).toBe('Phone');
    expect(await readDeviceName(blob, seed)).toBe('Phone');
  });

  it('another key, a tampered blob or no key reads as no name', async () => {
    const key = await importDeviceKey(seed);
    const blob = await encryptDeviceName('Laptop', key);
    expect(await readDeviceName(blob, await importDeviceKey(new Uint8Array(32)))).toBeNull();
    const [iv, ct, tag] = blob.split('.');
    const flipped = fromBase64(ct!);
    flipped[0] = flipped[0]! ^ 1;
    expect(await readDeviceName([iv, toBase64(flipped), tag].join('.'), key)).toBeNull();
    expect(await readDeviceName('garbage', key)).toBeNull();
    expect(await readDeviceName(blob, null)).toBeNull();
  });

  it('the imported key cannot be exported: a script holding it can use it, never read the seed', async () => {
    const key = await importDeviceKey(seed);
    expect(key.extractable).toBe(false);
    expect([...key.usages].sort()).toEqual(['decrypt', 'encrypt']);
    await expect(crypto.subtle.exportKey('raw', key)).rejects.toThrow();
    await expect(importDeviceKey(new Uint8Array(16))).rejects.toThrow();
  });
});
