import type { FastifyInstance } from 'fastify';
import { RatingImportItem, ratingsEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { acceptImportBodies, importItems } from '../library/library-imports.ts';
import { answerPageRead, libraryEtag } from '../library/library-reads.ts';
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
    const answered = await answerPageRead(request, reply, ratings.library, lib, query);
    if (answered) return answered;
    // The version first: a rating written meanwhile makes the next conditional read a full one.
    const version = await ratings.library.version(lib);
    reply.header('etag', libraryEtag(lib, 'ratings', version));
    return { userId: lib.userId, ratings: await ratings.familyList(lib) };
  });
  // p-stream's rating: one title, 0 removes it.
  contractRoute(app, e.postRating, async ({ body }, request) => {
    const lib = libraryOf(request);
    return { userId: lib.userId, rating: await ratings.rateAsFamily(lib, body) };
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
