import type { FastifyInstance } from 'fastify';
import { syncEndpoints as e } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';
import { libraryOf } from '../library/library.ts';
import type { GroupOrderService } from './group-order.service.ts';

/** p-stream's group order: `GET` and `PUT` (a bare array of names) of the selected library. */
export function registerGroupOrderRoutes(app: FastifyInstance, orders: GroupOrderService): void {
  contractRoute(app, e.groupOrder, async (_input, request) => orders.get(libraryOf(request)));
  contractRoute(app, e.putGroupOrder, async ({ body }, request) => orders.put(libraryOf(request), body));
}
