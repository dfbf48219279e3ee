import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { CAST_CAPTION_TTL_MS } from '@marquee/contract';
import type { Config } from '../../config.ts';
import type { RateLimits } from '../../plugins/rate-limit.ts';
import { ProcessCaptionRelayStore, RedisCaptionRelayStore } from './caption-relay-store.ts';
import { CastCaptionsService } from './cast-captions.service.ts';
import { registerCastRoutes } from './cast.routes.ts';

export interface CastContext {
  config: Pick<Config, 'REDIS_URL' | 'REDIS_PREFIX' | 'PUBLIC_URL'>;
  now: () => Date;
  redis: Redis | undefined;
  limits: RateLimits;
}

/**
 * Casting (decision 113): the caption relay, in Redis when configured (any process answers the
 * receiver), else in this process.
 */
export function registerCast(server: FastifyInstance, ctx: CastContext): CastCaptionsService {
  const shared = ctx.redis && ctx.config.REDIS_URL ? ctx.redis : undefined;
  const store = shared
    ? new RedisCaptionRelayStore(shared, ctx.config.REDIS_PREFIX)
    : new ProcessCaptionRelayStore(CAST_CAPTION_TTL_MS);
  const now = () => ctx.now().getTime();
  const captions = new CastCaptionsService({ store, now });
  registerCastRoutes(server, captions, { limits: ctx.limits, publicUrl: ctx.config.PUBLIC_URL, now });
  return captions;
}
