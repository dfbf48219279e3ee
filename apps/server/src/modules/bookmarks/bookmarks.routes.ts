import type { FastifyInstance } from 'fastify';
import { BookmarkImportItem, syncEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute, sendJson } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { acceptImportBodies, importItems } from '../library/library-imports.ts';
import { answerLibraryRead, jsonArrayOf } from '../library/library-reads.ts';
import { libraryOf } from '../library/library.ts';
import type { BookmarksService } from './bookmarks.service.ts';

export function registerBookmarkRoutes(
  app: FastifyInstance,
  bookmarks: BookmarksService,
  limits: RateLimits,
): void {
  // The whole list (existing clients) or, with limit/cursor/updatedSince, one page of changes (ours).
  contractRoute(app, e.bookmarks, async ({ query }, request, reply) =>
    answerLibraryRead(request, reply, bookmarks.library, libraryOf(request), query),
  );
  contractRoute(app, e.addBookmark, async ({ params, body }, request) =>
    bookmarks.add(libraryOf(request), {
      tmdbId: params.tmdbId,
      meta: body.meta,
      group: body.group,
      favoriteEpisodes: body.favoriteEpisodes,
      updatedAt: body.updatedAt,
    }),
  );
  acceptImportBodies(app, e.importBookmarks);
  contractRoute(app, e.importBookmarks, async ({ body }, request, reply) => {
    const items = await importItems(body, e.importBookmarks, BookmarkImportItem);
    const { userId } = authOf(request);
    await limit(limits, reply, 'bookmark_import', userId);
    return sendJson(reply, await jsonArrayOf(await bookmarks.import(libraryOf(request), items)));
  });
  contractRoute(app, e.deleteBookmark, async ({ params, query }, request) =>
    bookmarks.remove(libraryOf(request), params.tmdbId, query.type, query.updatedAt),
  );
}
