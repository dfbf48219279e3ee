import type { FastifyInstance, FastifyRequest } from 'fastify';
import { segmentEndpoints as e } from '@marquee/contract';
import { authOf, presentedToken, requireSession, type SessionAuthenticator } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { SegmentsService } from './segments.service.ts';

export interface SegmentRouteDeps {
  auth: SessionAuthenticator;
  limits: RateLimits;
}

/** The signed-in caller of a route open to anyone, or null (no token, or one that opens no session). */
async function viewerOf(request: FastifyRequest, auth: SessionAuthenticator): Promise<string | null> {
  let token: string | undefined;
  try {
    token = presentedToken(request);
  } catch {
    return null;
  }
  return token
    ? ((await auth.authenticate(token, request.headers['user-agent'] ?? ''))?.userId ?? null)
    : null;
}

/**
 * The segments of a library video (decision 111): read under the video's access token by whoever may
 * play it; marked and unmarked by signed-in viewers (a kids' profile is refused by the kids' guard, the
 * contract not opening these routes to kids), each mark counted against the viewer's `segment_marks`
 * bucket before any work.
 */
export async function registerSegmentRoutes(
  app: FastifyInstance,
  segments: SegmentsService,
  deps: SegmentRouteDeps,
): Promise<void> {
  contractRoute(app, e.segments, async ({ params }, request, reply) => {
    reply.header('cache-control', 'private, no-cache');
    return segments.segments(params.access, params.fileId, await viewerOf(request, deps.auth));
  });
  await app.register(async (scope) => {
    requireSession(scope, deps.auth);
    contractRoute(scope, e.markSegment, async ({ params, body }, request, reply) => {
      const { userId } = authOf(request);
      await limit(deps.limits, reply, 'segment_marks', userId);
      reply.header('cache-control', 'no-store');
      return segments.mark(userId, params.access, params.fileId, params.type, body);
    });
    contractRoute(scope, e.unmarkSegment, async ({ params }, request, reply) => {
      const { userId } = authOf(request);
      await limit(deps.limits, reply, 'segment_marks', userId);
      reply.header('cache-control', 'no-store');
      return segments.unmark(userId, params.access, params.fileId, params.type);
    });
  });
}
