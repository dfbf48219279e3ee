import type { FastifyInstance } from 'fastify';
import { RatingImportItem, ratingsEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute, sendEmpty } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { acceptImportBodies, importItems } from '../library/library-imports.ts';
import { etagMatches, isPageRead, libraryEtag } from '../library/library-reads.ts';
import { libraryOf } from '../library/library.ts';
import type { RatingsService } from './ratings.service.ts';

/** The viewer's ratings (decision 103), in the library scope (X-Profile-Id picks a household profile's). */
export function registerRatingsRoutes(
  app: FastifyInstance,
  ratings: RatingsService,
  limits: RateLimits,
): void {
  // p-stream's list of the live ratings or, with limit/cursor/updatedSince, one page of changes
  // (removals included).
  contractRoute(app, e.ratings, async ({ query }, request, reply) => {
    const lib = libraryOf(request);
    if (query.cursor === undefined) {
      const etag = libraryEtag(lib, 'ratings', await ratings.library.version(lib));
      if (etagMatches(request.headers['if-none-match'], etag))
        return sendEmpty(reply.code(304).header('etag', etag));
    }
    if (isPageRead(query)) {
      const page = await ratings.library.page(lib, query);
      reply.header('etag', libraryEtag(lib, 'ratings', Number(page.version)));
      return page;
    }
    const version = await ratings.library.version(lib);
    const list = await ratings.familyList(lib);
    reply.header('etag', libraryEtag(lib, 'ratings', version));
    return { userId: lib.userId, ratings: list };
  });
  // p-stream's rating: one title, 0 removes it.
  contractRoute(app, e.postRating, async ({ body }, request) => {
    const lib = libraryOf(request);
    const type = body.type === 'movie' ? 'movie' : 'show';
    const value = Math.round(body.rating);
    const rating = { tmdb_id: body.tmdb_id, type: type === 'movie' ? 'movie' : 'tv', rating: value } as const;
    if (value === 0) await ratings.remove(lib, String(body.tmdb_id), type, undefined);
    else
      await ratings.put(lib, {
        tmdbId: String(body.tmdb_id),
        type,
        meta: { title: '', year: null, type },
        rating: value,
      });
    return { userId: lib.userId, rating };
  });
  // A static path: matched before `:tmdbId`.
  acceptImportBodies(app, e.importRatings);
  contractRoute(app, e.importRatings, async ({ body }, request, reply) => {
    const items = await importItems(body, e.importRatings, RatingImportItem);
    await limit(limits, reply, 'rating_import', authOf(request).userId);
    return ratings.import(libraryOf(request), items);
  });
  contractRoute(app, e.putRating, async ({ params, body }, request) =>
    ratings.put(libraryOf(request), { ...body, tmdbId: params.tmdbId }),
  );
  contractRoute(app, e.deleteRating, async ({ params, body }, request) =>
    ratings.remove(libraryOf(request), params.tmdbId, body?.type, body?.updatedAt),
  );
}
