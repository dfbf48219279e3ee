import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e } from '@marquee/contract';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import type { UsersService } from './users.service.ts';

/** Registered inside the bearer-session scope: every route here has a caller, and `:uid` is the caller. */
export function registerUserRoutes(app: FastifyInstance, users: UsersService): void {
  contractRoute(app, e.me, async (_input, request) => users.me(authOf(request)));
  // Existing clients' "delete account" sends this GET (a client bug); it must answer 200.
  contractRoute(app, e.getUser, async (_input, request) => ({ user: await users.get(authOf(request)) }));
  contractRoute(app, e.patchUser, async ({ body }, request) =>
    users.update(authOf(request), { profile: body.profile, nickname: body.nickname }),
  );
  contractRoute(app, e.deleteUser, async (_input, request) => users.delete(authOf(request)));
  contractRoute(app, e.userSessions, async (_input, request) => users.sessionsOf(authOf(request)));
  contractRoute(app, e.deleteOtherSessions, async (_input, request) =>
    users.deleteOtherSessions(authOf(request)),
  );
  contractRoute(app, e.patchSession, async ({ params, body }, request) =>
    users.renameSession(authOf(request), params.sid, body.deviceName),
  );
  contractRoute(app, e.deleteSession, async ({ params }, request) =>
    users.deleteSession(authOf(request), params.sid),
  );
}
