import type { FastifyInstance } from 'fastify';
import { membershipEndpoints as e } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import { authOf, requireSession, type SessionAuthenticator } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { LibraryIndexer } from '../sources/library-index.ts';
import { libraryStatusOf } from './library-status.ts';
import type { SelfTestService } from './self-test.service.ts';

/** The admin panel's API: admins of either account kind (the `admin` role). */
export async function registerAdminRoutes(
  app: FastifyInstance,
  deps: {
    selfTest: SelfTestService;
    authenticator: SessionAuthenticator;
    customers: CustomersService;
    /** The media library's indexer; absent without MEDIA_LIBRARY_DIR. */
    library?: LibraryIndexer | undefined;
  },
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
    contractRoute(scope, e.libraryStatus, async () => libraryStatusOf(deps.library));
    // A scan already running is not started again: the answer shows it running.
    contractRoute(scope, e.libraryScan, async () => {
      deps.library?.scanNow();
      return libraryStatusOf(deps.library);
    });
  });
}
