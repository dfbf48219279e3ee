import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { catalogData } from '../../../test/fake-tmdb.ts';
import { Catalog } from './catalog/catalog.ts';
import { MetadataService } from './metadata.service.ts';
import { TmdbMultiPage, type TmdbApi } from './tmdb/tmdb.types.ts';

/*
 * The search rules on top of TMDB's answers (decision 081): TMDB's /search/multi answers (fixtures in the
 * documented shape, test/fixtures/tmdb) validated as TmdbClient validates them, then ranked by the service.
 */

const FIXTURES = path.join(import.meta.dirname, '../../../test/fixtures/tmdb');
const fixture = (name: string) =>
  TmdbMultiPage.parse(JSON.parse(readFileSync(path.join(FIXTURES, `${name}.json`), 'utf8')));
const EMPTY = fixture('search-multi-godfathr');

/** A TMDB source answering search/multi from fixtures by query (nothing found otherwise); it records queries. */
function tmdb(answers: Record<string, TmdbMultiPage>) {
  const queries: string[] = [];
  const api = {
    kind: 'tmdb' as const,
    async searchMulti(query: string) {
      queries.push(query);
      return answers[query] ?? EMPTY;
    },
  } as unknown as TmdbApi;
  return { api, queries };
}

const services: MetadataService[] = [];
function service(api: TmdbApi, spelling?: { correct(query: string): string | undefined }) {
  const created = new MetadataService({ api, ...(spelling ? { spelling } : {}) });
  services.push(created);
  return created;
}
afterEach(() => {
  for (const s of services.splice(0)) s.close();
});

describe('TMDB results ranked by the search rules', () => {
  const spider = fixture('search-multi-spider');

  it('puts Spider-Man (2002) first for "spider", before newer and more popular titles that only start with it', async () => {
    const { api } = tmdb({ spider });
    const results = await service(api).search('spider');
    expect(results.map((r) => r.title)).toEqual([
      // near: the query is most of the title (a leading "The" aside), then by popularity
      'Spider-Man',
      'Spiders 3D',
      "The Spider's Web",
      // prefix, posters first, then popularity
      'Spider-Man: Brand New Day',
      'Spider-Man: No Way Home',
      'Spider-Man: Beyond the Spider-Verse',
      // a word of the title starts with the query
      'Along Came a Spider Again',
      // a word within one typo ("spidey")
      'Spidey and His Amazing Friends',
    ]);
    // TMDB listed them by popularity: Spider-Man came 8th of 11.
    expect(spider.results.findIndex((r) => r.id === 557)).toBe(7);
  });

  it('drops people, collections and adult titles, and reads null or empty dates as no date', async () => {
    const { api } = tmdb({ spider });
    const results = await service(api).search('spider');
    const ids = results.map((r) => r.id);
    expect(ids).not.toContain('1136406'); // Tom Holland, a person
    expect(ids).not.toContain('531241'); // a collection
    expect(ids).not.toContain('1000127'); // adult
    expect(results.find((r) => r.id === '1000126')).toMatchObject({ year: null, releaseDate: null });
    expect(results.find((r) => r.id === '1000125')).toMatchObject({
      type: 'tv',
      year: null,
      releaseDate: null,
    });
    expect(results.find((r) => r.id === '911916')).toMatchObject({ poster: null, year: 2027 });
  });

  it('finds "The Godfather" for "godfathr": TMDB finds nothing, the catalog corrects the query', async () => {
    const { api, queries } = tmdb({ 'The Godfather': fixture('search-multi-godfather') });
    const catalog = new Catalog(catalogData());
    const results = await service(api, catalog).search('godfathr');
    expect(queries).toEqual(['godfathr', 'The Godfather']);
    expect(results.map((r) => r.title)).toEqual([
      'The Godfather',
      'The Godfather Part II',
      'Making The Godfather',
      'Godfather of Harlem',
    ]);
  });

  it('asks TMDB once when it finds enough, and does not correct a query without typos', async () => {
    const { api, queries } = tmdb({ spider });
    let asked = 0;
    const results = await service(api, {
      correct: () => {
        asked += 1;
        return 'Spider-Man';
      },
    }).search('spider');
    expect(results[0]?.title).toBe('Spider-Man');
    expect(queries).toEqual(['spider']);
    expect(asked).toBe(0);
  });

  it('answers what TMDB found when there is no correction, or no catalog to ask', async () => {
    const { api, queries } = tmdb({});
    expect(await service(api).search('godfathr')).toEqual([]);
    const catalog = new Catalog(catalogData());
    expect(await service(api, catalog).search('zzqxv')).toEqual([]);
    expect(queries).toEqual(['godfathr', 'zzqxv']);
  });
});

describe('embedded catalog search', () => {
  const ids = async (query: string) =>
    (await service(new Catalog(catalogData())).search(query)).map((r) => `${r.type}:${r.id}`);

  it('finds The Godfather for "godfathr", "godfahter" and "the godfathr"', async () => {
    for (const query of ['godfathr', 'godfahter', 'the godfathr', 'GODFATHR']) {
      expect((await ids(query))[0], query).toBe('movie:238');
    }
  });

  it('puts Spider-Man (2002) first for "spider", ahead of more popular sequels and 2026 releases', async () => {
    const found = await ids('spider');
    expect(found[0]).toBe('movie:557');
    const brandNewDay = catalogData().movies.find((m) => m.id === 969681);
    const spiderMan = catalogData().movies.find((m) => m.id === 557);
    expect(brandNewDay!.popularity).toBeGreaterThan(spiderMan!.popularity);
    expect(found).toContain('movie:969681');
  });

  it('finds "breaking bad" typed with a typo in either word', async () => {
    expect((await ids('breakng bad'))[0]).toBe('tv:1396');
    expect((await ids('braking bad'))[0]).toBe('tv:1396');
    // Words under 4 letters are taken as typed: no typo allowed.
    expect(await ids('breaking bda')).not.toContain('tv:1396');
  });

  it('finds a Japanese title by a word inside it (no spaces between its words)', async () => {
    const spirited = catalogData().movies.find((m) => m.original_title === '千と千尋の神隠し');
    expect(spirited).toBeDefined();
    expect(await ids('神隠し')).toContain(`movie:${spirited!.id}`);
  });
});
