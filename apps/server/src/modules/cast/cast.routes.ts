import type { FastifyInstance, FastifyRequest } from 'fastify';
import { buildPath, CAST_CAPTION_MAX_BYTES, castEndpoints as e, castPaths } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { CastCaptionsService } from './cast-captions.service.ts';

export interface CastRouteDeps {
  limits: RateLimits;
  /** PUBLIC_URL: the address the receiver reaches this instance at; else the request's. */
  publicUrl: string | undefined;
  now: () => number;
}

/**
 * A caption's body as JSON: its WebVTT with line ends (and any quote or backslash) escaped, at most twice
 * the caption's bytes. Past that Fastify answers 413; the service bounds the caption itself.
 */
const UPLOAD_BODY_LIMIT = 2 * CAST_CAPTION_MAX_BYTES + 1024;

const originOf = (request: FastifyRequest, publicUrl: string | undefined) =>
  (publicUrl ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

/**
 * The caption relay for casting (decision 113): anyone may upload (signed-out viewers cast too), counted
 * per address before any work; the caption is read back as `text/vtt` by the Chromecast's receiver, an
 * other origin, hence `Access-Control-Allow-Origin: *` on its answers (refusals included).
 */
export function registerCastRoutes(
  app: FastifyInstance,
  captions: CastCaptionsService,
  deps: CastRouteDeps,
): void {
  contractRoute(
    app,
    e.uploadCaption,
    async ({ body }, request, reply) => {
      await limit(deps.limits, reply, 'cast_caption_upload', request.ip);
      const hosted = await captions.host(body.vtt);
      reply.header('cache-control', 'no-store');
      const path = buildPath(castPaths.caption, { id: hosted.id });
      return { url: `${originOf(request, deps.publicUrl)}${path}`, expiresAt: hosted.expiresAt };
    },
    { bodyLimit: UPLOAD_BODY_LIMIT },
  );

  app.get(castPaths.caption, { schema: { hide: true } }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    await limit(deps.limits, reply, 'cast_caption_read', request.ip);
    const caption = await captions.read((request.params as { id: string }).id);
    const seconds = Math.max(0, Math.floor((caption.expiresAt - deps.now()) / 1000));
    return reply
      .type('text/vtt; charset=utf-8')
      .header('cache-control', `private, max-age=${seconds}`)
      .send(caption.vtt);
  });
}
