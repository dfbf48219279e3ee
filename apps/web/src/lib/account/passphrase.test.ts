import { describe, expect, it } from 'vitest';
import { fromBase64, toBase64 } from '../base64.ts';
import { decryptDeviceName, encryptDeviceName, readDeviceName } from './device-name.ts';
import {
  isValidPassphrase,
  keysFromSeed,
  newPassphrase,
  normalizePassphrase,
  seedFromPassphrase,
} from './passphrase.ts';

const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

describe('passphrase crypto (test vectors of the sync API of the app family)', () => {
  it('derives the seed, the public key and the signature the app family computes', () => {
    const seed = seedFromPassphrase(
      'awkward safe differ large subway junk gallery flight left glue fault glory',
    );
    expect(hex(seed)).toBe('1eb78db5b60b38b53a92e8e24af48d4d84bf00d64c39814c1b26acb5af47322a');
    const keys = keysFromSeed(seed);
    expect(keys.publicKey).toBe('9icC8Nazxbe-I7xnJgSBc5sWSIkRChBlSOWULWtnxkA');
    expect(keys.sign('6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f')).toBe(
      'hLdbjm9sgkbWEXWVEWPMuAEjDqQ1MQvTOnyxTbofBoJQ9oLN_3mIgxLye2dC6UCIFc-v1180YvnKVeAR1UhYBg',
    );
    expect(
      keysFromSeed(
        seedFromPassphrase('right inject hazard canoe carry unfair cram physical chief nice real tribute'),
      ).publicKey,
    ).toBe('-19nUfoc65psrSbaC5u4_a4RWhDuoDal4bBbskTbSOY');
  });

  it('generates 12 valid words and rejects a wrong checksum or an incomplete phrase', () => {
    const words = newPassphrase().split(' ');
    expect(words).toHaveLength(12);
    expect(isValidPassphrase(words.join(' '))).toBe(true);
    expect(isValidPassphrase(words.slice(0, 11).join(' '))).toBe(false);
    expect(
      isValidPassphrase('awkward safe differ large subway junk gallery flight left glue fault fault'),
    ).toBe(false);
  });

  it('encrypts the device name as base64(iv).base64(ct).base64(tag) with a 16-byte IV, and back', async () => {
    const seed = seedFromPassphrase(
      'awkward safe differ large subway junk gallery flight left glue fault glory',
    );
    const blob = await encryptDeviceName('Living room TV', seed);
    const [iv, ct, tag] = blob.split('.');
    expect(fromBase64(iv!)).toHaveLength(16);
    expect(fromBase64(tag!)).toHaveLength(16);
    expect(fromBase64(ct!)).toHaveLength('Living room TV'.length);
    expect(await decryptDeviceName(blob, seed)).toBe('Living room TV');
    expect(await readDeviceName(blob, fromBase64(toBase64(seed)))).toBe('Living room TV');
    // Another key, or a tampered blob, does not decrypt.
    expect(await readDeviceName(blob, new Uint8Array(32))).toBeNull();
    expect(await readDeviceName('garbage', seed)).toBeNull();
  });
});

describe('a passphrase as people type it', () => {
  const words = 'awkward safe differ large subway junk gallery flight left glue fault glory';
  it('is the same passphrase with a capital first word, doubled spaces or a line break', () => {
    for (const typed of [
      'Awkward safe differ large subway junk gallery flight left glue fault glory',
      '  awkward  safe differ large subway junk gallery flight left glue fault glory ',
      'AWKWARD SAFE DIFFER LARGE\nSUBWAY JUNK GALLERY FLIGHT LEFT GLUE FAULT GLORY',
      '\tawkward\tsafe differ large subway junk gallery flight left glue fault glory\r\n',
      'awkward safe differ\u00a0large subway junk gallery flight left glue fault Glory',
    ]) {
      expect(normalizePassphrase(typed)).toBe(words);
      expect(isValidPassphrase(normalizePassphrase(typed))).toBe(true);
    }
  });
  it('still refuses a wrong word', () => {
    expect(isValidPassphrase(normalizePassphrase(words.replace('glory', 'glorious')))).toBe(false);
  });
});
