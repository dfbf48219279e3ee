import { describe, expect, it } from 'vitest';
import {
  MatchTier,
  SEARCH_CACHE_SWEEP_MS,
  SEARCH_CACHE_TTL_MS,
  editDistanceWithin,
  foldForSearch,
  keepSearchable,
  matchTier,
  maxTypos,
  postersFirst,
  prepareSearch,
  rankHits,
  searchCacheKey,
  searchWords,
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

  it('keeps answers 1 hour and sweeps every 2 minutes (decision 002)', () => {
    expect(SEARCH_CACHE_TTL_MS).toBe(3_600_000);
    expect(SEARCH_CACHE_SWEEP_MS).toBe(120_000);
  });
});

describe('searchWords', () => {
  it.each([
    ['Spider-Man: No Way Home', ['spider', 'man', 'no', 'way', 'home']],
    ['  The   Dark Knight ', ['the', 'dark', 'knight']],
    ['Fast & Furious', ['fast', 'and', 'furious']],
    ['WALL·E', ['walle']],
    ['Face/Off', ['face', 'off']],
    ['Mission: Impossible – Dead Reckoning', ['mission', 'impossible', 'dead', 'reckoning']],
    ['Amélie', ['amelie']],
    ['千と千尋の神隠し', ['千', 'と', '千', '尋', 'の', '神', '隠', 'し']],
    [' !?… - ', []],
  ])('%j → %j', (text, words) => {
    expect(searchWords(text)).toEqual(words);
  });

  it('joins to what foldForSearch gives', () => {
    for (const title of ['Spider-Man', 'Léon: The Professional', 'Se7en', 'Æon Flux', 'Брат'])
      expect(searchWords(title).join('')).toBe(foldForSearch(title));
  });
});

describe('editDistanceWithin', () => {
  it.each([
    ['godfathr', 'godfather', 1],
    ['godfahter', 'godfather', 1],
    ['spiderman', 'spiderman', 0],
    ['kitten', 'sitting', 3],
    ['', 'abc', 3],
    ['abc', '', 3],
  ])('%s ↔ %s is %i', (a, b, distance) => {
    expect(editDistanceWithin(a, b, 5)).toBe(distance);
    expect(editDistanceWithin(b, a, 5)).toBe(distance);
  });

  it('stops at max + 1', () => {
    expect(editDistanceWithin('kitten', 'sitting', 1)).toBe(2);
    expect(editDistanceWithin('abcdefgh', 'zyxwvuts', 2)).toBe(3);
    expect(editDistanceWithin('a', 'abcdef', 2)).toBe(3);
  });

  it('agrees with a plain edit distance within the bound (random words)', () => {
    // Levenshtein plus swaps of neighbours, the textbook way.
    const reference = (a: string, b: string) => {
      const d = Array.from({ length: a.length + 1 }, (_, i) =>
        Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
      );
      for (let i = 1; i <= a.length; i++)
        for (let j = 1; j <= b.length; j++) {
          d[i]![j] = Math.min(
            d[i - 1]![j]! + 1,
            d[i]![j - 1]! + 1,
            d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
          );
          if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
            d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
        }
      return d[a.length]![b.length]!;
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const word = () =>
      Array.from({ length: 1 + Math.floor(random() * 8) }, () => 'abcd'[Math.floor(random() * 4)]).join('');
    for (let n = 0; n < 2000; n++) {
      const [a, b] = [word(), word()];
      const max = Math.floor(random() * 4);
      expect(editDistanceWithin(a, b, max), `${a} ${b} ${max}`).toBe(Math.min(reference(a, b), max + 1));
    }
  });
});

describe('matchTier', () => {
  const tier = (query: string, ...names: string[]) =>
    matchTier(prepareSearch(query), names.map(prepareSearch));

  it('ranks exact before near before prefix before word before typo matches', () => {
    expect(tier('the godfather', 'The Godfather')).toBe(MatchTier.exact);
    expect(tier('godfather', 'The Godfather')).toBe(MatchTier.exact);
    expect(tier('spider man', 'Spider-Man')).toBe(MatchTier.exact);
    expect(tier('spider', 'Spider-Man')).toBe(MatchTier.near);
    expect(tier('spider', 'Spider-Man: No Way Home')).toBe(MatchTier.prefix);
    expect(tier('spider', 'The Amazing Spider-Man')).toBe(MatchTier.words);
    expect(tier('spiderman', 'The Amazing Spider-Man')).toBe(MatchTier.words);
    expect(tier('thrones', 'Game of Thrones')).toBe(MatchTier.words);
    expect(tier('knight dark', 'The Dark Knight')).toBe(MatchTier.words);
    expect(tier('godfathr', 'The Godfather')).toBe(MatchTier.typo);
    expect(tier('the godfahter', 'The Godfather')).toBe(MatchTier.typo);
    expect(tier('godfathr', 'Godfather of Harlem')).toBe(MatchTier.typoWords);
    expect(tier('godfathr part', 'The Godfather Part II')).toBe(MatchTier.typoWords);
    expect(MatchTier.exact < MatchTier.near).toBe(true);
    expect(MatchTier.near < MatchTier.prefix).toBe(true);
    expect(MatchTier.prefix < MatchTier.words).toBe(true);
    expect(MatchTier.words < MatchTier.typo).toBe(true);
    expect(MatchTier.typo < MatchTier.typoWords).toBe(true);
  });

  it("takes the best of a title's names", () => {
    expect(tier('les evades', 'The Shawshank Redemption', 'Les Évadés')).toBe(MatchTier.exact);
    expect(tier('amelie', 'Amélie', 'Le Fabuleux Destin d’Amélie Poulain')).toBe(MatchTier.exact);
  });

  it('does not match what differs by more typos than the word allows, nor words in the middle', () => {
    expect(tier('gdfthr', 'The Godfather')).toBeUndefined();
    expect(tier('man', 'Batman')).toBeUndefined();
    expect(tier('teh', 'The Thing')).toBeUndefined();
    expect(tier('zzqxv', 'The Godfather')).toBeUndefined();
    expect(tier('', 'The Godfather')).toBeUndefined();
  });

  it('tolerates 1 typo in words of 4 to 7 letters, 2 from 8, none below', () => {
    expect([3, 4, 7, 8, 20].map(maxTypos)).toEqual([0, 1, 1, 2, 2]);
    expect(tier('alein', 'Alien')).toBe(MatchTier.typo);
    expect(tier('aleinn', 'Alien')).toBeUndefined();
    expect(tier('insepton', 'Inception')).toBe(MatchTier.typo);
    expect(tier('alein nation', 'Alien Nation')).toBe(MatchTier.typo);
    expect(tier('incepshun', 'Inception')).toBeUndefined();
  });
});

describe('rankHits (TMDB answers)', () => {
  it('orders by tier, then posters first, then popularity, then the source order', () => {
    const hits = [
      { id: 1, title: 'Spider-Man: No Way Home', poster_path: '/a.jpg', popularity: 110 },
      { id: 2, title: 'Spider-Man', poster_path: '/b.jpg', popularity: 50 },
      { id: 3, title: 'Spider-Man 2', poster_path: null, popularity: 90 },
      { id: 4, name: 'Spidey and His Amazing Friends', poster_path: '/c.jpg', popularity: 80 },
      { id: 5, title: 'Itsy Bitsy', poster_path: '/d.jpg', popularity: 10 },
      { id: 6, title: 'Spider-Man 3', poster_path: '/e.jpg', popularity: 40 },
      { id: 7, title: 'Spider-Man 3', poster_path: '/f.jpg', popularity: 40 },
    ];
    expect(rankHits('spider', hits).map(({ hit, tier }) => [hit.id, tier])).toEqual([
      [2, MatchTier.near],
      [6, MatchTier.near],
      [7, MatchTier.near],
      [3, MatchTier.near],
      [1, MatchTier.prefix],
      [5, MatchTier.source],
      [4, MatchTier.typoWords],
    ]);
  });

  it('matches by the original title too, and copes with missing or null fields', () => {
    const hits = [
      { id: 1, title: 'Spirited Away', original_title: '千と千尋の神隠し', popularity: 90 },
      { id: 2, name: null, original_name: null, poster_path: null, popularity: null },
      { id: 3 },
    ];
    expect(rankHits('千と千尋の神隠し', hits).map(({ hit, tier }) => [hit.id, tier])).toEqual([
      [1, MatchTier.exact],
      [2, MatchTier.source],
      [3, MatchTier.source],
    ]);
  });
});
