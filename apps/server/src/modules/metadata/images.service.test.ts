import { describe, expect, it } from 'vitest';
import { Catalog, type CatalogMovie } from './catalog/catalog.ts';
import { ImagesService } from './images.service.ts';

const film = (id: number, title: string, genre_ids: number[]): CatalogMovie => ({
  id,
  title,
  original_title: title,
  original_language: 'en',
  release_date: '1999-03-31',
  genre_ids,
  overview: '',
  runtime: 120,
  imdb_id: null,
  popularity: 1,
  vote_average: 7,
  vote_count: 100,
  adult: false,
});

const images = () =>
  new ImagesService(
    new Catalog({ movies: [film(1, 'Night Shift', [27]), film(2, 'Night Shift', [35])], shows: [] }),
    'http://images.invalid',
    () => Promise.reject(new Error('the catalog needs no network')),
  );

const skyOf = (svg: string) => /<linearGradient id="\w+sky".*?<\/linearGradient>/.exec(svg)?.[0];

describe('ImagesService: catalog artwork', () => {
  it("draws a catalog title's poster from its genres, without the network", async () => {
    const service = images();
    const horror = (await service.get('w342', 'catalog/movie-1.svg')).body.toString();
    const comedy = (await service.get('w342', 'catalog/movie-2.svg')).body.toString();
    expect(horror).toContain('aria-label="Night Shift"');
    expect(comedy).toContain('aria-label="Night Shift"');
    expect(skyOf(horror)).not.toBe(skyOf(comedy));
  });

  it('draws the backdrop of a catalog title at 1280×720 with the same colours', async () => {
    const service = images();
    const backdrop = await service.get('w1280', 'catalog/movie-1-backdrop.svg');
    expect(backdrop.contentType).toMatch(/^image\/svg\+xml/);
    const svg = backdrop.body.toString();
    expect(svg).toMatch(/^<svg [^>]*width="1280" height="720"/);
    expect(skyOf(svg)).toBe(skyOf((await service.get('w342', 'catalog/movie-1.svg')).body.toString()));
  });
});
