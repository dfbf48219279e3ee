import type { FastifyInstance } from 'fastify';
import {
  historyEndpoints as e,
  WatchHistoryArrayItem,
  WatchHistoryImportItem,
  type WatchHistoryInput,
} from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { acceptImportBodies, importItems } from '../library/library-imports.ts';
import { answerLibraryRead } from '../library/library-reads.ts';
import { libraryOf } from '../library/library.ts';
import type { HistoryService } from './history.service.ts';

export function registerHistoryRoutes(
  app: FastifyInstance,
  history: HistoryService,
  limits: RateLimits,
): void {
  // The latest play of each title (p-stream's client) or, with limit/cursor/updatedSince, one page of changes.
  contractRoute(app, e.watchHistory, async ({ query }, request, reply) =>
    answerLibraryRead(request, reply, history.library, libraryOf(request), query),
  );
  // A static path: matched before `:tmdbId` (p-stream's own server took "import" for a title id).
  acceptImportBodies(app, e.importWatchHistory);
  contractRoute(app, e.importWatchHistory, async ({ body }, request, reply) => {
    const items = await importItems(body, e.importWatchHistory, WatchHistoryImportItem);
    await limit(limits, reply, 'history_import', authOf(request).userId);
    return history.record(libraryOf(request), items, true);
  });
  // One play under the path's id, or an array of plays each under its own id (p-stream sends both).
  acceptImportBodies(app, e.putWatchHistory);
  contractRoute(app, e.putWatchHistory, async ({ params, body }, request, reply) => {
    if (!Array.isArray(body))
      return history.record(
        libraryOf(request),
        [{ ...(body as WatchHistoryInput), tmdbId: params.tmdbId }],
        false,
      );
    if (body.length === 0)
      throw new AppError(400, 'validation_failed', 'An array of plays holds at least one');
    const plays = await importItems(body, e.putWatchHistory, WatchHistoryArrayItem);
    // Many plays at once is an import's work: counted as one.
    await limit(limits, reply, 'history_import', authOf(request).userId);
    return history.record(
      libraryOf(request),
      plays.map((play) => ({ ...play, tmdbId: play.tmdbId ?? params.tmdbId })),
      false,
    );
  });
  contractRoute(app, e.deleteWatchHistory, async ({ params, body }, request) =>
    history.remove(libraryOf(request), params.tmdbId, body ?? {}),
  );
}
