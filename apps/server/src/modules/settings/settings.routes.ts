import type { FastifyInstance } from 'fastify';
import { syncEndpoints as e } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';
import { libraryOf } from '../library/library.ts';
import type { SettingsService } from './settings.service.ts';

export function registerSettingsRoutes(app: FastifyInstance, settings: SettingsService): void {
  contractRoute(app, e.settings, async (_input, request) => settings.get(libraryOf(request)));
  contractRoute(app, e.putSettings, async ({ body }, request) => settings.put(libraryOf(request), body));
}
