import type { FastifyInstance } from 'fastify';
import { customerEndpoints as e, PROFILE_HEADER, PROFILE_TOKEN_HEADER } from '@marquee/contract';
import { authOf, presentedToken } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, withRetryAfter, type RateLimits } from '../../plugins/rate-limit.ts';
import type { CustomersService } from './customers.service.ts';
import type { KidsProfiles } from './kids-profiles.ts';
import type { ProfileLocks } from './profile-locks.ts';

/**
 * Sign-up and sign-in with email: public, rate-limited per client IP before any work; failed sign-ins
 * slow the failing address down (CustomersService.login, decision 070), never the account's owner.
 */
export function registerCustomerPublicRoutes(
  app: FastifyInstance,
  customers: CustomersService,
  limits: RateLimits,
): void {
  contractRoute(app, e.register, async ({ body }, request, reply) => {
    await limit(limits, reply, 'customer_register', request.ip);
    const user = await customers.register(body, request.ip);
    return { user, message: 'Account created', error: false as const };
  });
  contractRoute(app, e.login, async ({ body }, request, reply) => {
    await limit(limits, reply, 'customer_login', request.ip);
    return withRetryAfter(reply, () =>
      customers.login(body, request.headers['user-agent'] ?? '', request.ip),
    );
  });
}

/** Registered inside the bearer-session scope: `:uid` is the caller (plugins/auth.ts). */
export function registerCustomerRoutes(
  app: FastifyInstance,
  customers: CustomersService,
  locks: ProfileLocks,
  kids: KidsProfiles,
): void {
  contractRoute(app, e.me, async (_input, request) => ({
    user: await customers.get(authOf(request)),
    access_token: presentedToken(request) ?? '',
  }));
  contractRoute(app, e.update, async ({ body }, request) => ({
    user: await customers.update(authOf(request), body, request.headers[PROFILE_TOKEN_HEADER]),
  }));
  contractRoute(app, e.password, async ({ body }, request) => ({
    user: await customers.changePassword(authOf(request), body),
    message: 'Password changed',
    error: false as const,
  }));
  contractRoute(app, e.createProfile, async ({ body }, request) =>
    customers.createProfile(authOf(request), body),
  );
  contractRoute(app, e.patchProfile, async ({ params, body }, request) =>
    customers.patchProfile(authOf(request), params.profileId, body, request.headers[PROFILE_TOKEN_HEADER]),
  );
  contractRoute(app, e.deleteProfile, async ({ params }, request) => ({
    user: await customers.deleteProfile(
      authOf(request),
      params.profileId,
      request.headers[PROFILE_TOKEN_HEADER],
    ),
  }));
  contractRoute(app, e.setProfilePin, async ({ body }, request, reply) => {
    const auth = authOf(request);
    await withRetryAfter(reply, () => locks.setPin(auth, body));
    return { user: await customers.get(auth) };
  });
  contractRoute(app, e.unlockProfile, async ({ body }, request, reply) =>
    withRetryAfter(reply, () => locks.unlock(authOf(request), body)),
  );
  contractRoute(app, e.enterProfile, async ({ body }, request) =>
    kids.enter(authOf(request), body.profileId, request.headers[PROFILE_TOKEN_HEADER]),
  );
}

/**
 * Sync routes read and write the library the X-Profile-Id header selects (decision 040), once it is
 * open on this device when it has a PIN (X-Profile-Token, decision 104). Runs after the session hook,
 * so the profile is checked against the authenticated caller.
 */
export function selectProfileLibrary(scope: FastifyInstance, customers: CustomersService): void {
  scope.addHook('onRequest', async (request) => {
    const auth = authOf(request);
    const headers = request.headers;
    auth.profileId = (
      await customers.openLibraryFor(auth, headers[PROFILE_HEADER], headers[PROFILE_TOKEN_HEADER])
    ).profileId;
  });
}
