import { sha1 } from '@noble/hashes/legacy.js';
import { sha256, sha512 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import type { HexHash } from './altcha.ts';

/** Pure SHA (WebCrypto is unavailable outside secure contexts, and a promise per try would be slow). */
export const altchaHash: HexHash = (algorithm, text) => {
  const fn = algorithm === 'SHA-1' ? sha1 : algorithm === 'SHA-512' ? sha512 : sha256;
  return bytesToHex(fn(utf8ToBytes(text)));
};
