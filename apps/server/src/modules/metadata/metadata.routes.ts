import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { metadataEndpoints as e, type ContentLimit, type MatchResult } from '@marquee/contract';
import { contractRoute as routeWithoutBudget } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { ContentLimits } from './content-limits.ts';
import type { ImagesService } from './images.service.ts';
import type { MetadataService } from './metadata.service.ts';
import { matchTitles } from './title-match.ts';

export function registerMetadataRoutes(
  app: FastifyInstance,
  metadata: MetadataService,
  images: ImagesService,
  limits: RateLimits,
  /** The limit of the kids' profile a request comes from (its session's), or null (decision 106). */
  viewerLimit: (request: FastifyRequest) => Promise<ContentLimit | null> = async () => null,
): void {
  const kids = new ContentLimits(metadata);
  // Every route below runs under one TMDB time budget for all the TMDB calls it makes (decision 082).
  const contractRoute: typeof routeWithoutBudget = (scope, endpoint, handler) =>
    routeWithoutBudget(scope, endpoint, (input, request, reply) =>
      metadata.withinBudget(() => handler(input, request, reply)),
    );
  contractRoute(app, e.search, async ({ query }, request) => ({
    results: await kids.keep(await viewerLimit(request), await metadata.search(query.query, query.language)),
  }));
  contractRoute(app, e.list, async ({ params, query }, request) => ({
    results: await kids.keep(
      await viewerLimit(request),
      await metadata.list(params.type, params.list, query.language),
    ),
  }));
  contractRoute(app, e.genres, async ({ params, query }) => ({
    genres: await metadata.genres(params.type, query.language),
  }));
  contractRoute(app, e.discover, async ({ params, query }, request) => ({
    results: await kids.keep(
      await viewerLimit(request),
      await metadata.discover(params.type, query.genre, query.page, query.language),
    ),
  }));
  contractRoute(app, e.details, async ({ params, query }, request) => {
    const limit = await viewerLimit(request);
    await kids.assertAllowed(limit, params.type, params.id);
    const details = await metadata.details(params.type, params.id, query.language, query.region);
    return limit ? { ...details, recommendations: await kids.keep(limit, details.recommendations) } : details;
  });
  contractRoute(app, e.season, async ({ params, query }, request) => {
    await kids.assertAllowed(await viewerLimit(request), 'tv', params.id);
    return metadata.season(params.id, params.number, query.language);
  });
  contractRoute(app, e.findByImdb, async ({ params, query }, request) => {
    const found = await metadata.findByImdb(params.imdbId, query.language);
    await kids.assertAllowed(await viewerLimit(request), found.type, found.id);
    return found;
  });
  contractRoute(app, e.legacyJustWatch, async ({ params, query }, request) => {
    const found = await metadata.resolveJustWatch(params.type, params.id, query.language);
    await kids.assertAllowed(await viewerLimit(request), found.type, found.id);
    return found;
  });
  // Each title of the batch has a TMDB budget of its own (title-match.ts), not the request one for all.
  routeWithoutBudget(app, e.match, async ({ body, query }, request, reply) => {
    await limit(limits, reply, 'title_match', request.ip);
    const viewer = await viewerLimit(request);
    const results = await matchTitles(metadata, body.items, query.language);
    return {
      results: viewer ? await Promise.all(results.map((r) => withinLimit(kids, viewer, r))) : results,
    };
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

/** A match for a kids' profile: candidates over its limit left out; a match over it is no match. */
async function withinLimit(
  kids: ContentLimits,
  limit: ContentLimit,
  result: MatchResult,
): Promise<MatchResult> {
  const candidates = await kids.keep(limit, result.candidates);
  if (!result.match || (await kids.keep(limit, [result.match])).length === 1)
    return { ...result, candidates };
  return {
    ...result,
    status: 'unmatched',
    match: null,
    candidates: [],
    episodes: result.episodes.map(() => null),
  };
}
