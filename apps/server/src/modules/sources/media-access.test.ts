import { describe, expect, it } from 'vitest';
import { mediaUrlExpiry } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { ANYONE, MediaUrlSigner } from './media-access.ts';

const HOUR = 60 * 60_000;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
let now = Date.UTC(2026, 0, 15, 12);
const signer = new MediaUrlSigner('key-of-this-instance', { ttlMs: 4 * HOUR, now: () => now });
const matrix = { type: 'movie' as const, tmdbId: '603' };

const codeOf = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (error) {
    return error instanceof AppError ? `${error.status} ${error.code}` : String(error);
  }
};

describe('MediaUrlSigner', () => {
  it('signs a grant for a scope and reads it back until it expires', () => {
    const grant = signer.grant('user-1', matrix);
    expect(grant).toEqual({ viewer: 'user-1', type: 'movie', tmdbId: '603', expiresAt: now + 4 * HOUR });
    const token = signer.sign('library:abc', grant);
    expect(token).toMatch(/^[0-9a-z]+\.m603\.user-1\.[A-Za-z0-9_-]{22}$/);
    expect(signer.verify('library:abc', token)).toEqual(grant);
    now += 4 * HOUR - 1000;
    expect(signer.verify('library:abc', token)).toEqual(grant);
    now += 1000;
    expect(codeOf(() => signer.verify('library:abc', token))).toBe('403 media_url_expired');
  });

  it('refuses a token for other files, of another viewer or title, tampered, or signed with another key', () => {
    const grant = signer.grant('user-1', matrix);
    const token = signer.sign('library:abc', grant);
    const [expiry, title, viewer, signature] = token.split('.') as [string, string, string, string];
    const other = new MediaUrlSigner('another-key', { ttlMs: HOUR, now: () => now });
    const respelled = `${signature.slice(0, -1)}${BASE64URL[BASE64URL.indexOf(signature.at(-1)!) + 1]}`;
    expect(Buffer.from(respelled, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
    for (const [scope, candidate] of [
      ['library:abd', token],
      ['sample', token],
      ['library:abc', `${expiry}.${title}.user-2.${signature}`],
      ['library:abc', `${expiry}.${title}.~.${signature}`],
      ['library:abc', `${expiry}.m604.${viewer}.${signature}`],
      ['library:abc', `${expiry}.s603.${viewer}.${signature}`],
      ['library:abc', `${(parseInt(expiry, 36) + 3600).toString(36)}.${title}.${viewer}.${signature}`],
      [
        'library:abc',
        `${expiry}.${title}.${viewer}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`,
      ],
      // The same 128 bits spelled otherwise (a padding bit of the last character set): only ours is valid.
      ['library:abc', `${expiry}.${title}.${viewer}.${respelled}`],
      ['library:abc', other.sign('library:abc', grant)],
      ['library:abc', ''],
      ['library:abc', 'mp4'],
      ['library:abc', `${expiry}.${title}.${viewer}`],
    ] as const) {
      expect(
        codeOf(() => signer.verify(scope, candidate)),
        `${scope} ${candidate}`,
      ).toBe('403 media_url_invalid');
    }
  });

  it('writes the expiry where the player reads it (mediaUrlExpiry)', () => {
    const grant = signer.grant(ANYONE, matrix);
    const url = `https://watch.example/api/sources/sample/${signer.sign('sample', grant)}/hls/master.m3u8`;
    expect(mediaUrlExpiry(url)).toBe(grant.expiresAt);
    expect(mediaUrlExpiry('https://cdn.example/movie.mp4')).toBeNull();
    expect(signer.secondsLeft(grant)).toBe(4 * 3600);
  });
});
