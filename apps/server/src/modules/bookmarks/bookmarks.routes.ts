import type { FastifyInstance } from 'fastify';
import { syncEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { libraryOf } from '../library/library.ts';
import type { BookmarksService } from './bookmarks.service.ts';

export function registerBookmarkRoutes(app: FastifyInstance, bookmarks: BookmarksService, limits: RateLimits): void {
  contractRoute(app, e.bookmarks, async (_input, request) => bookmarks.list(libraryOf(request)));
  contractRoute(app, e.addBookmark, async ({ params, body }, request) =>
    bookmarks.add(libraryOf(request), { tmdbId: params.tmdbId, meta: body.meta, updatedAt: body.updatedAt }),
  );
  contractRoute(app, e.importBookmarks, async ({ body }, request, reply) => {
    const { userId } = authOf(request);
    await limit(limits, reply, 'bookmark_import', userId);
    return bookmarks.import(libraryOf(request), body);
  });
  contractRoute(app, e.deleteBookmark, async ({ params, query }, request) =>
    bookmarks.remove(libraryOf(request), params.tmdbId, query.type, query.updatedAt),
  );
}
