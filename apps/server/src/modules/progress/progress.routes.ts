import type { FastifyInstance } from 'fastify';
import { syncEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { libraryOf } from '../library/library.ts';
import type { ProgressService } from './progress.service.ts';

export function registerProgressRoutes(app: FastifyInstance, progress: ProgressService, limits: RateLimits): void {
  contractRoute(app, e.progress, async (_input, request) => progress.list(libraryOf(request)));
  // The limit is checked before anything is written (the older server checked it after).
  contractRoute(app, e.importProgress, async ({ body }, request, reply) => {
    const { userId } = authOf(request);
    await limit(limits, reply, 'progress_import', userId);
    return progress.import(libraryOf(request), body);
  });
  // The path's id is the key; clients also send it in the body (ignored).
  contractRoute(app, e.putProgress, async ({ params, body }, request) =>
    progress.put(libraryOf(request), { ...body, tmdbId: params.tmdbId }),
  );
  contractRoute(app, e.deleteProgress, async ({ params, body }, request) =>
    progress.remove(libraryOf(request), params.tmdbId, body ?? {}),
  );
}
