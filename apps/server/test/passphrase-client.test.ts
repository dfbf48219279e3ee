import { describe, expect, it } from 'vitest';
import {
  deriveKeys,
  isValidMnemonic,
  KNOWN_MNEMONIC,
  newMnemonic,
  OTHER_MNEMONIC,
} from './passphrase-client.ts';

// Test vectors from the app family's sync API (computed with Node crypto and node-forge).
describe('passphrase test client', () => {
  it('derives the seed, public key and signature of the reference vectors', () => {
    const keys = deriveKeys(KNOWN_MNEMONIC);
    expect(Buffer.from(keys.seed).toString('hex')).toBe(
      '1eb78db5b60b38b53a92e8e24af48d4d84bf00d64c39814c1b26acb5af47322a',
    );
    expect(keys.publicKey).toBe('9icC8Nazxbe-I7xnJgSBc5sWSIkRChBlSOWULWtnxkA');
    expect(keys.sign('6f1c2b8e-1d2a-4c3b-9e4f-5a6b7c8d9e0f')).toBe(
      'hLdbjm9sgkbWEXWVEWPMuAEjDqQ1MQvTOnyxTbofBoJQ9oLN_3mIgxLye2dC6UCIFc-v1180YvnKVeAR1UhYBg',
    );
    expect(deriveKeys(OTHER_MNEMONIC).publicKey).toBe('-19nUfoc65psrSbaC5u4_a4RWhDuoDal4bBbskTbSOY');
  });

  it('encodes keys and signatures as unpadded base64url and generates 12-word passphrases', () => {
    const mnemonic = newMnemonic();
    expect(mnemonic.split(' ')).toHaveLength(12);
    expect(isValidMnemonic(mnemonic)).toBe(true);
    expect(isValidMnemonic(KNOWN_MNEMONIC)).toBe(true);
    const keys = deriveKeys(mnemonic);
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(keys.sign('x')).toMatch(/^[A-Za-z0-9_-]{86}$/);
  });

  it('encrypts device names as base64(iv).base64(ct).base64(tag) with a 16-byte IV, readable only with the seed', () => {
    const keys = deriveKeys(KNOWN_MNEMONIC);
    const blob = keys.encryptDevice('Living room TV');
    const [iv, ct, tag] = blob.split('.');
    expect(Buffer.from(iv!, 'base64')).toHaveLength(16);
    expect(Buffer.from(ct!, 'base64')).toHaveLength('Living room TV'.length);
    expect(Buffer.from(tag!, 'base64')).toHaveLength(16);
    expect(keys.decryptDevice(blob)).toBe('Living room TV');
    expect(() => deriveKeys(OTHER_MNEMONIC).decryptDevice(blob)).toThrow();
  });
});
