import type { FastifyInstance } from 'fastify';
import { configEndpoints, type RuntimeConfig } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';

export function registerConfigRoutes(app: FastifyInstance, getRuntimeConfig: () => RuntimeConfig): void {
  contractRoute(app, configEndpoints.runtimeConfig, async () => getRuntimeConfig());
}
