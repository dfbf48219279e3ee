import { describe, expect, it } from 'vitest';
import { generateCatalog } from '../../../../test/generated-catalog.ts';
import { MatchTier, matchTier, prepareSearch, searchWords, typosWanted } from '../search-rules.ts';
import { Catalog, type CatalogData, type CatalogMovie } from './catalog.ts';
import { TitleSearchIndex, type IndexHit } from './search-index.ts';

/** Every title checked one by one: what the index must answer, only slower. */
function scan(titles: readonly (readonly string[])[], query: string, limit: number): IndexHit[] {
  const q = prepareSearch(query);
  if (!q.compact) return [];
  const hits = titles
    .map((names, entry) => ({ entry, tier: matchTier(q, names.map(prepareSearch)) }))
    .filter((hit): hit is IndexHit => hit.tier !== undefined);
  const better = hits.filter((hit) => hit.tier < MatchTier.typo).length;
  return hits
    .filter((hit) => hit.tier < MatchTier.typo || typosWanted(better))
    .sort((a, b) => a.tier - b.tier || a.entry - b.entry)
    .slice(0, limit);
}

let nextId = 1;
const movie = (title: string, popularity: number, release_date: string): CatalogMovie => ({
  id: nextId++,
  title,
  original_title: title,
  original_language: 'en',
  release_date,
  genre_ids: [],
  overview: '',
  runtime: 100,
  imdb_id: null,
  popularity,
  vote_average: 7,
  vote_count: 100,
  adult: false,
});
const titlesOf = async (data: CatalogData, query: string) =>
  ((await new Catalog(data).searchMulti(query)).results as { title?: string; name?: string }[]).map(
    (r) => r.title ?? r.name,
  );

describe('catalog search ranking', () => {
  it('finds The Godfather first for "godfathr"', async () => {
    const data = {
      movies: [
        movie('The Godfather', 40, '1972-03-14'),
        movie('Godfather of the Bride', 90, '2025-05-01'),
        movie('Fathers', 120, '2024-01-01'),
      ],
      shows: [],
    };
    // The whole title within typos before a more popular title with a word within typos.
    expect(await titlesOf(data, 'godfathr')).toEqual(['The Godfather', 'Godfather of the Bride']);
    expect(await titlesOf(data, 'the godfathr')).toEqual(['The Godfather', 'Godfather of the Bride']);
    expect((await titlesOf(data, 'godfather'))[0]).toBe('The Godfather');
  });

  it('puts Spider-Man (popular, older) before obscure newer titles containing "spider"', async () => {
    const data = {
      movies: [
        movie('Spider-Man', 50, '2002-05-01'),
        movie('The Spider Queen of Nowhere Valley', 3, '2026-02-01'),
        movie('Spiderwick Rises Again Tonight', 2, '2026-03-01'),
        movie('Along Came a Spider', 4, '2025-11-01'),
        movie('Spider-Man: Brand New Day', 450, '2026-07-29'),
      ],
      shows: [],
    };
    expect(await titlesOf(data, 'spider')).toEqual([
      'Spider-Man', // near: "spider" is most of it
      'Spider-Man: Brand New Day', // prefix, the most popular
      'The Spider Queen of Nowhere Valley', // prefix (without "The")
      'Spiderwick Rises Again Tonight', // prefix, the least popular
      'Along Came a Spider', // a word starts with it
    ]);
  });

  it('ranks exact before prefix before word before typo matches, whatever their popularity', async () => {
    const data = {
      movies: [
        movie('Alien', 1, '1979-05-25'),
        movie('Aliens', 5, '1986-07-18'),
        movie('Alien Romulus Extended Edition', 10, '2024-08-16'),
        movie('Romulus and the Alien Queen', 100, '2024-01-01'),
        movie('Alein Nation', 1000, '2023-01-01'),
      ],
      shows: [],
    };
    // Typo matches only where the query finds little: misspelt, "alein" finds the films with "alien".
    expect(await titlesOf(data, 'alein')).toEqual([
      'Alein Nation',
      'Alien',
      'Romulus and the Alien Queen',
      'Alien Romulus Extended Edition',
    ]);
    data.movies.push(movie('Alien Vs Predator', 3, '2004-08-13'));
    expect(await titlesOf(data, 'alien')).toEqual([
      'Alien',
      'Aliens',
      'Alien Romulus Extended Edition',
      'Alien Vs Predator',
      'Romulus and the Alien Queen',
    ]);
  });

  it('a short or common word does not pull in titles it merely resembles or starts a word of', async () => {
    const data = {
      movies: [
        movie('Dune', 50, '2021-09-15'),
        movie('Dune: Part Two', 60, '2024-02-27'),
        movie('Dune', 5, '1984-12-14'),
        movie('June', 40, '2015-01-01'),
        movie('The Dude', 30, '2018-01-01'),
        movie('Up', 70, '2009-05-28'),
        movie('Upgrade', 20, '2018-06-01'),
        movie('Pop Up', 10, '2020-01-01'),
        movie('Supper Club', 8, '2021-01-01'),
      ],
      shows: [],
    };
    expect(await titlesOf(data, 'dune')).toEqual(['Dune', 'Dune', 'Dune: Part Two']);
    // "up": the film, titles starting with it, and titles with the word — not words starting with it.
    expect(await titlesOf(data, 'up')).toEqual(['Up', 'Upgrade', 'Pop Up']);
  });

  it('returns nothing for an empty or unmatched query', async () => {
    const data = { movies: [movie('Alien', 1, '1979-05-25')], shows: [] };
    expect(await titlesOf(data, '   ')).toEqual([]);
    expect(await titlesOf(data, '!!!')).toEqual([]);
    expect(await titlesOf(data, 'zzqxv')).toEqual([]);
  });
});

describe('TitleSearchIndex', () => {
  const data = generateCatalog(3000, 42);
  const titles = [...data.movies, ...data.shows]
    .map((t) => ({
      popularity: t.popularity,
      names: 'title' in t ? [t.title, t.original_title] : [t.name, t.original_name],
    }))
    .sort((a, b) => b.popularity - a.popularity)
    .map((t) => t.names);
  const index = new TitleSearchIndex(titles);

  it('answers what checking every title answers (queries made from the titles, with typos)', () => {
    let seed = 3;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const typo = (word: string) => {
      const at = Math.floor(random() * word.length);
      const edits = [
        () => word.slice(0, at) + word.slice(at + 1),
        () => word.slice(0, at) + 'x' + word.slice(at),
        () => word.slice(0, at) + 'q' + word.slice(at + 1),
        () => word.slice(0, at) + (word[at + 1] ?? '') + (word[at] ?? '') + word.slice(at + 2),
      ];
      return edits[Math.floor(random() * edits.length)]!();
    };
    const queries = new Set(['the', 't', 'a', 'x', 'ka', 'spider', 'the spider', 'night dark', 'zzqxv']);
    while (queries.size < 300) {
      const words = searchWords(titles[Math.floor(random() * titles.length)]![0]!);
      const kind = Math.floor(random() * 6);
      const start = Math.floor(random() * words.length);
      if (kind === 0) queries.add(words.join(' ').slice(0, 1 + Math.floor(random() * 12)));
      else if (kind === 1) queries.add(words[start]!);
      else if (kind === 2) queries.add(words.slice(start, start + 2).join(''));
      else if (kind === 3)
        queries.add(words.map((w) => (w.length >= 4 && random() < 0.5 ? typo(w) : w)).join(' '));
      else if (kind === 4) queries.add(typo(words[start]!));
      else queries.add(words.slice(start).reverse().join(' '));
    }
    for (const query of queries) expect(index.search(query, 20), query).toEqual(scan(titles, query, 20));
  });

  it('finds every tier in the generated catalog', () => {
    const tiers = new Set<MatchTier>();
    const [first] = searchWords(titles[0]![0]!);
    for (const query of [titles[0]![0]!, first!, 'the dark', 'dark', 'knight', 'nihgt', 'spidr', 'spider']) {
      for (const hit of index.search(query, 50)) tiers.add(hit.tier);
    }
    expect([...tiers].sort()).toEqual([
      MatchTier.exact,
      MatchTier.near,
      MatchTier.prefix,
      MatchTier.words,
      MatchTier.typo,
      MatchTier.typoWords,
    ]);
  });
});
