import { describe, expect, it } from 'vitest';
import { buildPath } from './endpoint.ts';
import { metadataEndpoints } from './metadata.ts';

describe('buildPath', () => {
  it('fills every :name segment, URI-encoded', () => {
    expect(buildPath(metadataEndpoints.details.path, { type: 'movie', id: 603 })).toBe(
      '/api/media/movie/603',
    );
    expect(buildPath(metadataEndpoints.season.path, { id: '1399', number: 0 })).toBe(
      '/api/media/tv/1399/season/0',
    );
    expect(buildPath('/api/x/:q', { q: 'a b/c' })).toBe('/api/x/a%20b%2Fc');
  });

  it('refuses to build a path with a missing parameter', () => {
    expect(() => buildPath(metadataEndpoints.details.path, { type: 'movie' })).toThrow(/id/);
  });
});

describe('metadata endpoint inputs', () => {
  const search = metadataEndpoints.search.query!;

  it('accepts a search of 1 to 200 characters, trimmed', () => {
    expect(search.parse({ query: '  alien ' })).toEqual({ query: 'alien', language: 'en' });
    expect(search.parse({ query: 'alien', language: 'pt-BR' })).toEqual({
      query: 'alien',
      language: 'pt-BR',
    });
    expect(search.safeParse({ query: 'alien', language: 'pt' }).success).toBe(false);
    expect(search.safeParse({ query: 'a'.repeat(200) }).success).toBe(true);
  });

  it('refuses an empty, blank or over-long search', () => {
    expect(search.safeParse({ query: '' }).success).toBe(false);
    expect(search.safeParse({ query: '   ' }).success).toBe(false);
    expect(search.safeParse({ query: 'a'.repeat(201) }).success).toBe(false);
    expect(search.safeParse({}).success).toBe(false);
  });

  it('takes TMDB ids as digits only and IMDb ids as tt + digits', () => {
    const details = metadataEndpoints.details.params!;
    expect(details.safeParse({ type: 'movie', id: '603' }).success).toBe(true);
    expect(details.safeParse({ type: 'movie', id: '603abc' }).success).toBe(false);
    expect(details.safeParse({ type: 'show', id: '603' }).success).toBe(false);
    const find = metadataEndpoints.findByImdb.params!;
    expect(find.safeParse({ imdbId: 'tt0133093' }).success).toBe(true);
    expect(find.safeParse({ imdbId: '0133093' }).success).toBe(false);
  });

  it('defaults the discover page to 1 and bounds it to TMDB’s 1–500', () => {
    const discover = metadataEndpoints.discover.query!;
    expect(discover.parse({ genre: '28' })).toEqual({ genre: 28, page: 1, language: 'en' });
    expect(discover.safeParse({ genre: '28', page: '501' }).success).toBe(false);
    expect(discover.safeParse({ genre: 'action' }).success).toBe(false);
  });
});
