import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { metadataEndpoints as e } from '@marquee/contract';
import { contractRoute as routeWithoutBudget } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { ImagesService } from './images.service.ts';
import type { MetadataService } from './metadata.service.ts';
import { matchTitles } from './title-match.ts';

export function registerMetadataRoutes(
  app: FastifyInstance,
  metadata: MetadataService,
  images: ImagesService,
  limits: RateLimits,
): void {
  // Every route below runs under one TMDB time budget for all the TMDB calls it makes (decision 082).
  const contractRoute: typeof routeWithoutBudget = (scope, endpoint, handler) =>
    routeWithoutBudget(scope, endpoint, (input, request, reply) =>
      metadata.withinBudget(() => handler(input, request, reply)),
    );
  contractRoute(app, e.search, async ({ query }) => ({
    results: await metadata.search(query.query, query.language),
  }));
  contractRoute(app, e.list, async ({ params, query }) => ({
    results: await metadata.list(params.type, params.list, query.language),
  }));
  contractRoute(app, e.genres, async ({ params, query }) => ({
    genres: await metadata.genres(params.type, query.language),
  }));
  contractRoute(app, e.discover, async ({ params, query }) => ({
    results: await metadata.discover(params.type, query.genre, query.page, query.language),
  }));
  contractRoute(app, e.details, async ({ params, query }) =>
    metadata.details(params.type, params.id, query.language, query.region),
  );
  contractRoute(app, e.season, async ({ params, query }) =>
    metadata.season(params.id, params.number, query.language),
  );
  contractRoute(app, e.findByImdb, async ({ params, query }) =>
    metadata.findByImdb(params.imdbId, query.language),
  );
  contractRoute(app, e.legacyJustWatch, async ({ params, query }) =>
    metadata.resolveJustWatch(params.type, params.id, query.language),
  );
  // Each title of the batch has a TMDB budget of its own (title-match.ts), not the request one for all.
  routeWithoutBudget(app, e.match, async ({ body, query }, request, reply) => {
    await limit(limits, reply, 'title_match', request.ip);
    return { results: await matchTitles(metadata, body.items, query.language) };
  });

  app.get(
    '/api/images/:size/*',
    { schema: { hide: true, params: z.object({ size: z.string(), '*': z.string() }) } },
    async (request, reply) => {
      const { size, '*': file } = request.params as { size: string; '*': string };
      const image = await images.get(size, file);
      return reply
        .header('content-type', image.contentType)
        .header('cache-control', 'public, max-age=604800, immutable')
        .send(image.body);
    },
  );
}
