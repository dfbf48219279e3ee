import type { FastifyInstance } from 'fastify';
import { membershipEndpoints as e } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf, requireSession, type SessionAuthenticator } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { SelfTestService } from './self-test.service.ts';

/** The admin panel's API: admins of either account kind (the `admin` role). */
export async function registerAdminRoutes(
  app: FastifyInstance,
  deps: { selfTest: SelfTestService; authenticator: SessionAuthenticator; customers: CustomersService },
): Promise<void> {
  await app.register(async (scope) => {
    requireSession(scope, deps.authenticator);
    scope.addHook('preHandler', async (request) => {
      if (!(await deps.customers.isAdmin(authOf(request).userId)))
        throw new AppError(403, 'forbidden', 'Only admins can do this');
    });
    contractRoute(scope, e.selfTest, async (_input, request) =>
      deps.selfTest.run(`${request.protocol}://${request.host}`),
    );
  });
}
