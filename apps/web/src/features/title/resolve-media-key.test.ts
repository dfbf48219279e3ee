import { describe, expect, it } from 'vitest';
import { resolveMediaKey } from './resolve-media-key.ts';

describe('media route keys', () => {
  it('uses current keys as they are', () => {
    expect(resolveMediaKey('tmdb-movie-603-the-matrix')).toEqual({
      kind: 'current',
      parts: { type: 'movie', id: '603' },
    });
    expect(resolveMediaKey('tmdb-tv-1396')).toEqual({ kind: 'current', parts: { type: 'tv', id: '1396' } });
  });
  it('redirects old tmdb-show keys to tmdb-tv, keeping the slug', () => {
    expect(resolveMediaKey('tmdb-show-1396-breaking-bad')).toEqual({
      kind: 'redirect',
      key: 'tmdb-tv-1396-breaking-bad',
    });
  });
  it('sends old JustWatch keys to the legacy lookup', () => {
    expect(resolveMediaKey('JW-movie-12345')).toEqual({ kind: 'justwatch', jwType: 'movie', id: '12345' });
  });
  it('rejects anything else', () => {
    expect(resolveMediaKey('tmdb-person-5')).toEqual({ kind: 'invalid' });
    expect(resolveMediaKey('')).toEqual({ kind: 'invalid' });
  });
});
