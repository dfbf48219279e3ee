import type { FastifyInstance } from 'fastify';
import { syncEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { accountLibrary } from '../library/library.ts';
import type { SettingsService } from './settings.service.ts';

export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  contractRoute(app, e.settings, async (_input, request) => settings.get(accountLibrary(authOf(request).userId)));
  contractRoute(app, e.putSettings, async ({ body }, request) => settings.put(accountLibrary(authOf(request).userId), body));
}
