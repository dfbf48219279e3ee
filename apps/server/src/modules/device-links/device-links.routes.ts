import type { FastifyInstance } from 'fastify';
import { deviceLinkEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, withRetryAfter, type RateLimits } from '../../plugins/rate-limit.ts';
import type { DeviceLinksService } from './device-links.service.ts';

/** The new device's side: public, limited per client address before any work. */
export function registerDeviceLinkPublicRoutes(
  app: FastifyInstance,
  links: DeviceLinksService,
  limits: RateLimits,
): void {
  contractRoute(app, e.create, async ({ body }, request, reply) => {
    await limit(limits, reply, 'device_link_create', request.ip);
    reply.header('cache-control', 'no-store');
    return links.create(body, request.headers['user-agent'] ?? '', `${request.protocol}://${request.host}`);
  });
  contractRoute(app, e.poll, async ({ params, body }, request, reply) => {
    await limit(limits, reply, 'device_link_poll', request.ip);
    reply.header('cache-control', 'no-store');
    return links.poll(params.linkId, body.pollToken);
  });
}

/** The approving side, inside the bearer-session scope. */
export function registerDeviceLinkRoutes(app: FastifyInstance, links: DeviceLinksService): void {
  contractRoute(app, e.byCode, async ({ params }, request, reply) =>
    withRetryAfter(reply, () => links.byCode(authOf(request), params.code)),
  );
  contractRoute(app, e.approve, async ({ params, body }, request, reply) =>
    withRetryAfter(reply, () => links.approve(authOf(request), params.code, body)),
  );
}
