import { LRUCache } from 'lru-cache';
import { AppError } from '../../errors.ts';
import { renderBackdrop, renderPoster } from './posters.ts';
import type { TmdbApi } from './tmdb/tmdb.types.ts';
import { yearOf } from '@marquee/contract';
import { BACKDROP_SIZE, LOGO_SIZE, POSTER_SIZE, PROFILE_SIZE, STILL_SIZE } from './title-details.ts';

export interface Image {
  body: Buffer;
  contentType: string;
}

/**
 * Exactly the sizes the server hands out: posters (w342, and w500 as the app family's clients
 * ask), backdrops (w1280), cast photos (w185), episode stills (w300) and provider logos (w92). Anything
 * else is refused, so the proxy cannot be used to pull originals of any size through us.
 */
export const ALLOWED_SIZES: ReadonlySet<string> = new Set([
  POSTER_SIZE,
  'w500',
  BACKDROP_SIZE,
  PROFILE_SIZE,
  STILL_SIZE,
  LOGO_SIZE,
]);

/**
 * Serves every image the web app shows from our own origin: posters drawn for catalog titles, and
 * TMDB images fetched once from the image host and kept in memory (bounded by bytes).
 */
export class ImagesService {
  private readonly cache = new LRUCache<string, Image>({
    maxSize: 64 * 1024 * 1024,
    sizeCalculation: (img) => img.body.length || 1,
  });

  constructor(
    private readonly api: TmdbApi,
    private readonly imageHost: string,
    private readonly fetchImpl: typeof fetch = globalThis.fetch,
  ) {}

  async get(size: string, file: string): Promise<Image> {
    if (!ALLOWED_SIZES.has(size)) throw new AppError(400, 'bad_request', `Unknown image size "${size}"`);
    const catalog = /^catalog\/(movie|tv)-(\d{1,10})(-backdrop)?\.svg$/.exec(file);
    if (catalog) return this.catalogArt(catalog[1] as 'movie' | 'tv', Number(catalog[2]), !!catalog[3]);
    if (this.api.kind !== 'tmdb' || !/^[A-Za-z0-9_-]{1,64}\.(jpg|png|svg)$/.test(file)) {
      throw new AppError(404, 'not_found', 'No such image');
    }
    const key = `${size}/${file}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    let response: Response;
    try {
      response = await this.fetchImpl(`${this.imageHost.replace(/\/+$/, '')}/${key}`, {
        signal: AbortSignal.timeout(10_000),
      });
    } catch (error) {
      throw new AppError(503, 'metadata_unavailable', 'The image host cannot be reached', { cause: error });
    }
    if (!response.ok)
      throw new AppError(
        response.status === 404 ? 404 : 502,
        response.status === 404 ? 'not_found' : 'metadata_bad_answer',
        'Image not available',
      );
    const image = {
      body: Buffer.from(await response.arrayBuffer()),
      contentType: response.headers.get('content-type') ?? 'image/jpeg',
    };
    this.cache.set(key, image);
    return image;
  }

  /** A catalog title's poster or backdrop, drawn from its title, year and genres (see posters.ts). */
  private async catalogArt(kind: 'movie' | 'tv', id: number, backdrop: boolean): Promise<Image> {
    const key = `catalog/${kind}-${id}${backdrop ? '-backdrop' : ''}`;
    const hit = this.cache.get(key);
    if (hit) return hit;
    // English titles: the artwork is one image for every language, as its cache headers promise.
    const { title, date, genres } =
      kind === 'movie'
        ? await this.api.movie(id).then((m) => ({ title: m.title, date: m.release_date, genres: m.genres }))
        : await this.api.tv(id).then((s) => ({ title: s.name, date: s.first_air_date, genres: s.genres }));
    const input = { title, year: yearOf(date), kind, genres: (genres ?? []).map((g) => g.id) };
    const image = {
      body: Buffer.from(backdrop ? renderBackdrop(input) : renderPoster(input)),
      contentType: 'image/svg+xml; charset=utf-8',
    };
    this.cache.set(key, image);
    return image;
  }
}
