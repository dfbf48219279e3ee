import type { FastifyInstance } from 'fastify';
import { traktEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { libraryOf } from '../library/library.ts';
import type { TraktLinkService } from './trakt-link.service.ts';
import type { TraktScrobbler } from './trakt-scrobble.ts';

/** Linking Trakt, its status, "Sync now" and scrobbles, for the selected library (decision 101). */
export function registerTraktRoutes(
  app: FastifyInstance,
  trakt: { link: TraktLinkService; scrobbler: TraktScrobbler | undefined },
  limits: RateLimits,
): void {
  contractRoute(app, e.status, async (_input, request) => trakt.link.status(libraryOf(request)));
  contractRoute(app, e.link, async (_input, request, reply) => {
    await limit(limits, reply, 'trakt_link', authOf(request).userId);
    return trakt.link.link(libraryOf(request));
  });
  contractRoute(app, e.unlink, async (_input, request) => trakt.link.unlink(libraryOf(request)));
  contractRoute(app, e.sync, async (_input, request) => trakt.link.requestSync(libraryOf(request)));
  contractRoute(app, e.scrobble, async ({ body }, request, reply) => {
    await limit(limits, reply, 'trakt_scrobble', authOf(request).userId);
    return { forwarded: (await trakt.scrobbler?.forward(libraryOf(request), body)) ?? false };
  });
}
