import type { FastifyInstance } from 'fastify';
import { ProgressImportItem, syncEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute, sendJson } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { acceptImportBodies, importItems } from '../library/library-imports.ts';
import { answerLibraryRead, jsonArrayOf } from '../library/library-reads.ts';
import { libraryOf } from '../library/library.ts';
import type { ProgressService } from './progress.service.ts';

export function registerProgressRoutes(
  app: FastifyInstance,
  progress: ProgressService,
  limits: RateLimits,
): void {
  // The whole list (existing clients) or, with limit/cursor/updatedSince, one page of changes (ours).
  contractRoute(app, e.progress, async ({ query }, request, reply) =>
    answerLibraryRead(request, reply, progress.library, libraryOf(request), query),
  );
  acceptImportBodies(app, e.importProgress);
  // The limit is checked before anything is written (the older server checked it after).
  contractRoute(app, e.importProgress, async ({ body }, request, reply) => {
    const items = await importItems(body, e.importProgress, ProgressImportItem);
    const { userId } = authOf(request);
    await limit(limits, reply, 'progress_import', userId);
    return sendJson(reply, await jsonArrayOf(await progress.import(libraryOf(request), items)));
  });
  // The path's id is the key; clients also send it in the body (ignored).
  contractRoute(app, e.putProgress, async ({ params, body }, request) =>
    progress.put(libraryOf(request), { ...body, tmdbId: params.tmdbId }),
  );
  // A static path, matched before `:tmdbId` (p-stream's own server took "cleanup" for a title id).
  contractRoute(app, e.cleanupProgress, async (_input, request) => progress.cleanup(libraryOf(request)));
  contractRoute(app, e.deleteProgress, async ({ params, body }, request) =>
    progress.remove(libraryOf(request), params.tmdbId, body ?? {}),
  );
}
