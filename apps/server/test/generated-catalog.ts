import type { CatalogData, CatalogMovie, CatalogShow } from '../src/modules/metadata/catalog/catalog.ts';

/**
 * A made-up catalog of any size, the same for the same seed: titles built from common title words and
 * invented names (a vocabulary that grows with the catalog, as real titles' does), sequel numbers, leading
 * articles, an original title in another "language" for one in five, popularity spread like TMDB's (a few
 * very popular titles, a long tail). For the search benchmark (bench/catalog-search.ts) and index tests.
 */
export function generateCatalog(size: number, seed = 1): CatalogData {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  // Zipf-like: early items far more often than late ones.
  const common = <T>(items: readonly T[]) => items[Math.floor(items.length * random() ** 3)] as T;
  const names = Array.from({ length: Math.max(200, Math.round(size / 8)) }, () => inventedWord(random));
  const name = () => capitalise(common(names));
  const patterns: (() => string)[] = [
    () => `The ${capitalise(common(ADJECTIVES))} ${capitalise(common(NOUNS))}`,
    () => `${capitalise(common(NOUNS))} of the ${capitalise(common(NOUNS))}`,
    () => name(),
    () => `${name()}: ${capitalise(common(ADJECTIVES))} ${capitalise(common(NOUNS))}`,
    () => `${name()} ${pick(['2', '3', 'II', 'Returns', 'Rising', 'Forever'])}`,
    () => `A ${capitalise(common(NOUNS))} in ${name()}`,
    () => `${capitalise(common(ADJECTIVES))} ${name()}`,
    () => `${name()} and the ${capitalise(common(NOUNS))}`,
  ];
  const movies: CatalogMovie[] = [];
  const shows: CatalogShow[] = [];
  const genres = [[18], [28, 12], [35], [27, 53], [16, 10751]];
  for (let i = 0; i < size; i++) {
    const title = pick(patterns)();
    const original = random() < 0.2 ? `${capitalise(inventedWord(random))} ${inventedWord(random)}` : title;
    const popularity = Math.round((0.6 + 800 * random() ** 12) * 10) / 10;
    const year = 1930 + Math.floor(random() * 97);
    const date = `${year}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-15`;
    const id = 1_000_000 + i;
    if (random() < 0.1) {
      shows.push({
        id,
        name: title,
        original_name: original,
        original_language: 'en',
        first_air_date: date,
        genre_ids: pick(genres),
        overview: '',
        imdb_id: null,
        popularity,
        vote_average: 7,
        vote_count: 100,
        adult: false,
        origin_country: ['US'],
        seasons: [],
      });
    } else {
      movies.push({
        id,
        title,
        original_title: original,
        original_language: 'en',
        release_date: date,
        genre_ids: pick(genres),
        overview: '',
        runtime: 100,
        imdb_id: null,
        popularity,
        vote_average: 7,
        vote_count: 100,
        adult: false,
      });
    }
  }
  return { movies, shows };
}

const ADJECTIVES = [
  'dark',
  'last',
  'lost',
  'great',
  'little',
  'secret',
  'final',
  'golden',
  'silent',
  'red',
  'black',
  'new',
  'hidden',
  'broken',
  'wild',
  'deadly',
  'amazing',
  'eternal',
  'frozen',
  'forgotten',
  'fallen',
  'burning',
  'endless',
  'strange',
  'perfect',
  'savage',
  'quiet',
  'crimson',
  'distant',
  'hollow',
];
const NOUNS = [
  'night',
  'love',
  'man',
  'world',
  'city',
  'king',
  'war',
  'star',
  'heart',
  'house',
  'road',
  'river',
  'game',
  'knight',
  'shadow',
  'girl',
  'ghost',
  'storm',
  'island',
  'dream',
  'empire',
  'kingdom',
  'spider',
  'dragon',
  'family',
  'summer',
  'winter',
  'blood',
  'moon',
  'sea',
  'fire',
  'mountain',
  'journey',
  'legacy',
  'prince',
  'garden',
  'machine',
  'mirror',
  'planet',
  'witness',
  'hunter',
  'stranger',
  'father',
  'mother',
  'children',
];
const SYLLABLES = [
  'ka',
  'ri',
  'mo',
  'lan',
  'dor',
  'vi',
  'sel',
  'tra',
  'en',
  'zu',
  'mar',
  'is',
  'of',
  'bel',
  'cor',
  'ny',
  'ash',
  'wen',
  'tho',
  'gra',
];

function inventedWord(random: () => number): string {
  const parts = 2 + Math.floor(random() * 3);
  let word = '';
  for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
  return word;
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
