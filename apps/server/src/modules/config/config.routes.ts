import type { FastifyInstance } from 'fastify';
import { configEndpoints, type RuntimeConfig } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';

export function registerConfigRoutes(app: FastifyInstance, getRuntimeConfig: () => RuntimeConfig): void {
  // Revalidated on every use (the ETag makes that a 304 while the configuration is unchanged).
  contractRoute(app, configEndpoints.runtimeConfig, async (_input, _request, reply) => {
    reply.header('cache-control', 'no-cache');
    return getRuntimeConfig();
  });
}
