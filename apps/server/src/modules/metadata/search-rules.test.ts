import { describe, expect, it } from 'vitest';
import {
  SEARCH_CACHE_SWEEP_MS,
  SEARCH_CACHE_TTL_MS,
  foldForSearch,
  keepSearchable,
  postersFirst,
  searchCacheKey,
} from './search-rules.ts';

describe('keepSearchable', () => {
  it('keeps movies and shows and drops people, adult titles and unknown kinds', () => {
    const hits = [
      { id: 1, media_type: 'movie', adult: false },
      { id: 2, media_type: 'person' },
      { id: 3, media_type: 'tv' },
      { id: 4, media_type: 'movie', adult: true },
      { id: 5, media_type: 'tv', adult: true },
      { id: 6, media_type: 'collection' },
      { id: 7 },
    ];
    expect(keepSearchable(hits).map((h) => h.id)).toEqual([1, 3]);
  });

  it('does not change its input', () => {
    const hits = [{ id: 1, media_type: 'person' }];
    keepSearchable(hits);
    expect(hits).toHaveLength(1);
  });
});

describe('postersFirst', () => {
  it('moves results without a poster to the end and keeps the source order otherwise (stable)', () => {
    const items = [
      { id: 'a', poster: null },
      { id: 'b', poster: '/b.jpg' },
      { id: 'c', poster: null },
      { id: 'd', poster: '/d.jpg' },
      { id: 'e', poster: '/e.jpg' },
      { id: 'f', poster: '' },
    ];
    expect(postersFirst(items).map((i) => i.id)).toEqual(['b', 'd', 'e', 'a', 'c', 'f']);
  });

  it('keeps the order of a long list with equal keys (no engine-dependent reordering)', () => {
    const items = Array.from({ length: 200 }, (_, i) => ({
      id: i,
      poster: i % 3 === 0 ? null : `/p${i}.jpg`,
    }));
    const sorted = postersFirst(items);
    const withPoster = sorted.filter((i) => i.poster).map((i) => i.id);
    const without = sorted.filter((i) => !i.poster).map((i) => i.id);
    expect(withPoster).toEqual([...withPoster].sort((a, b) => a - b));
    expect(without).toEqual([...without].sort((a, b) => a - b));
    expect(sorted.slice(0, withPoster.length).every((i) => i.poster)).toBe(true);
  });
});

describe('foldForSearch', () => {
  it.each([
    ['Spider-Man', 'spiderman'],
    ['spiderman', 'spiderman'],
    ['Amélie', 'amelie'],
    ['AMELIE', 'amelie'],
    ['The Dark Knight', 'thedarkknight'],
    ['  the   dark knight ', 'thedarkknight'],
    ['Fast & Furious', 'fastandfurious'],
    ['WALL·E', 'walle'],
    ['Æon Flux', 'aeonflux'],
    ['Léon: The Professional', 'leontheprofessional'],
    ['Se7en', 'se7en'],
  ])('%j → %j', (text, folded) => {
    expect(foldForSearch(text)).toBe(folded);
  });

  it('makes the spellings a user types equal to the title', () => {
    expect(foldForSearch('spider man')).toBe(foldForSearch('Spider-Man'));
    expect(foldForSearch('amelie')).toBe(foldForSearch('Amélie'));
    expect(foldForSearch('aeon flux')).toBe(foldForSearch('Æon Flux'));
  });

  it('keeps the letters of other scripts, so a title is findable by its original name', () => {
    expect(foldForSearch('千と千尋の神隠し')).not.toBe('');
    expect(foldForSearch('Брат')).toBe('брат');
    expect(foldForSearch('  千と千尋の 神隠し ')).toBe(foldForSearch('千と千尋の神隠し'));
  });

  it('is empty for punctuation only', () => {
    expect(foldForSearch(' !?… - ')).toBe('');
  });
});

describe('search cache', () => {
  it('keys a query trimmed and case-folded', () => {
    expect(searchCacheKey('  Alien ')).toBe('alien');
    expect(searchCacheKey('ALIEN')).toBe(searchCacheKey('alien'));
    expect(searchCacheKey('alien 3')).not.toBe(searchCacheKey('alien'));
  });

  it('keeps answers 1 hour and sweeps every 2 minutes (the seed spec)', () => {
    expect(SEARCH_CACHE_TTL_MS).toBe(3_600_000);
    expect(SEARCH_CACHE_SWEEP_MS).toBe(120_000);
  });
});
