import { describe, expect, it } from 'vitest';
import {
  decodeMediaKey,
  encodeMediaKey,
  mediaPath,
  parseLegacyMediaKey,
  slugify,
  toMediaType,
  toTmdbType,
} from './media-keys.ts';

describe('slugify', () => {
  it.each([
    ['The Matrix', 'the-matrix'],
    ['Spider-Man: No Way Home', 'spider-man-no-way-home'],
    ['Amélie', 'amelie'],
    ['Léon: The Professional', 'leon-the-professional'],
    ['Fast & Furious', 'fast-and-furious'],
    ['WALL·E', 'wall-e'],
    ['  ...And Justice for All!  ', 'and-justice-for-all'],
    ['Æon Flux', 'aeon-flux'],
    ['Straße', 'strasse'],
    ['Søren', 'soren'],
  ])('%j → %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it('only ever yields lower-case ASCII letters, digits and single inner dashes', () => {
    for (const title of [
      'Crouching Tiger, Hidden Dragon',
      '2001: A Space Odyssey',
      'Ponyo — 崖の上のポニョ',
      '!!!',
      'M*A*S*H',
    ]) {
      expect(slugify(title)).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
    }
  });

  it('is empty for a title without any Latin letter or digit', () => {
    expect(slugify('千と千尋の神隠し')).toBe('');
  });
});

describe('media keys', () => {
  it('encodes tmdb-{type}-{id}-{slug}', () => {
    expect(encodeMediaKey('movie', 603, 'The Matrix')).toBe('tmdb-movie-603-the-matrix');
    expect(encodeMediaKey('tv', '1399', 'Game of Thrones')).toBe('tmdb-tv-1399-game-of-thrones');
  });

  it('leaves the slug out when there is no title or the title has no Latin letters', () => {
    expect(encodeMediaKey('movie', 603)).toBe('tmdb-movie-603');
    expect(encodeMediaKey('movie', 129, '千と千尋の神隠し')).toBe('tmdb-movie-129');
  });

  it('decodes type and id and ignores the slug, whatever it says', () => {
    expect(decodeMediaKey('tmdb-movie-603-the-matrix')).toEqual({ type: 'movie', id: '603' });
    expect(decodeMediaKey('tmdb-movie-603')).toEqual({ type: 'movie', id: '603' });
    expect(decodeMediaKey('tmdb-tv-1399-Game of Thrones (raw title)')).toEqual({ type: 'tv', id: '1399' });
  });

  it('round-trips every encoded key', () => {
    for (const [type, id, title] of [
      ['movie', '27205', 'Inception'],
      ['tv', '1396', 'Breaking Bad'],
      ['movie', '194', 'Amélie'],
    ] as const) {
      expect(decodeMediaKey(encodeMediaKey(type, id, title))).toEqual({ type, id });
    }
  });

  it.each([
    'tmdb-show-1399-game-of-thrones',
    'tmdb-series-1399',
    'tmdb-movie-',
    'tmdb-movie-abc',
    'tmdb-movie-603the-matrix',
    'tmdb-movie-12345678901',
    'movie-603',
    'JW-movie-123',
    '',
  ])('rejects %j', (key) => {
    expect(decodeMediaKey(key)).toBeNull();
  });

  it('maps between TMDB types and library types', () => {
    expect(toMediaType('movie')).toBe('movie');
    expect(toMediaType('tv')).toBe('show');
    expect(toTmdbType('show')).toBe('tv');
    expect(toTmdbType('movie')).toBe('movie');
  });
});

describe('legacy media keys', () => {
  it('recognises tmdb-show keys (renamed to tv), with or without a slug', () => {
    expect(parseLegacyMediaKey('tmdb-show-1399-game-of-thrones')).toEqual({ kind: 'tmdb-show', id: '1399' });
    expect(parseLegacyMediaKey('tmdb-show-1399')).toEqual({ kind: 'tmdb-show', id: '1399' });
  });

  it('recognises JustWatch keys with their JustWatch type', () => {
    expect(parseLegacyMediaKey('JW-movie-10396')).toEqual({
      kind: 'justwatch',
      jwType: 'movie',
      id: '10396',
    });
    expect(parseLegacyMediaKey('JW-show-4567-some-title')).toEqual({
      kind: 'justwatch',
      jwType: 'show',
      id: '4567',
    });
  });

  it('leaves current keys and garbage alone', () => {
    expect(parseLegacyMediaKey('tmdb-movie-603-the-matrix')).toBeNull();
    expect(parseLegacyMediaKey('tmdb-tv-1399')).toBeNull();
    expect(parseLegacyMediaKey('tmdb-show-abc')).toBeNull();
    expect(parseLegacyMediaKey('hello')).toBeNull();
  });
});

describe('mediaPath', () => {
  it('builds /media/{key} with optional season and episode ids', () => {
    expect(mediaPath('tmdb-movie-603-the-matrix')).toBe('/media/tmdb-movie-603-the-matrix');
    expect(mediaPath('tmdb-tv-1399-game-of-thrones', 3624)).toBe('/media/tmdb-tv-1399-game-of-thrones/3624');
    expect(mediaPath('tmdb-tv-1399-game-of-thrones', '3624', '63056')).toBe(
      '/media/tmdb-tv-1399-game-of-thrones/3624/63056',
    );
  });

  it('escapes a key that is not URL-safe', () => {
    expect(mediaPath('tmdb-tv-1399-a b/c')).toBe('/media/tmdb-tv-1399-a%20b%2Fc');
  });
});
