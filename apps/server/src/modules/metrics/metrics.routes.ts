import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { Metrics } from './metrics.types.ts';

const sameSecret = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/**
 * Prometheus exposition, client-reported scrape and captcha results (bare `true` answers, as clients expect).
 * `GET /metrics` needs `Authorization: Bearer <token>`; without a token it is refused, unless the operator
 * opened it (METRICS_PUBLIC) because nothing else can reach the port (decision 073). `metrics` is undefined
 * when nobody may read them: nothing is counted then.
 */
export function registerMetricsRoutes(
  app: FastifyInstance,
  metrics: Metrics | undefined,
  limits: RateLimits,
  token: string | undefined,
): void {
  if (metrics) {
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(
        request.method,
        request.routeOptions.url ?? '<unmatched>',
        reply.statusCode,
        reply.elapsedTime / 1000,
      );
    });
  } else {
    app.log.info('GET /metrics is refused until METRICS_TOKEN is set');
  }
  app.get('/metrics', { schema: { hide: true }, logLevel: 'warn' }, async (request, reply) => {
    if (!metrics || (token && !sameSecret(request.headers.authorization ?? '', `Bearer ${token}`))) {
      throw new AppError(401, 'unauthorized', 'Metrics need the metrics token (METRICS_TOKEN)');
    }
    const { contentType, body } = await metrics.exposition();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });

  contractRoute(app, e.providerMetrics, async ({ body }, request, reply) => {
    await limit(limits, reply, 'provider_metrics', request.ip, body.items.length);
    metrics?.recordProviders(body, request.headers.origin);
    return true as const;
  });
  contractRoute(app, e.captchaMetrics, async ({ body }, request, reply) => {
    await limit(limits, reply, 'captcha_solves', request.ip);
    metrics?.recordCaptchaSolve(body.success);
    return true as const;
  });
}
