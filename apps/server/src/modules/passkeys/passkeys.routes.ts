import type { FastifyInstance, FastifyRequest } from 'fastify';
import { passkeyEndpoints as e } from '@marquee/contract';
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { authOf } from '../../plugins/auth.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, withRetryAfter, type RateLimits } from '../../plugins/rate-limit.ts';
import type { PasskeysService, RelyingParty } from './passkeys.service.ts';

/**
 * The site a passkey belongs to: PUBLIC_URL when the operator set it, else the address the request came
 * to (behind a proxy, as TRUST_PROXY lets the server read it). The browser binds every passkey to it.
 */
export function relyingPartyOf(publicUrl: string | undefined): (request: FastifyRequest) => RelyingParty {
  const fixed = publicUrl ? new URL(publicUrl) : null;
  return (request) =>
    fixed
      ? { rpID: fixed.hostname, origin: fixed.origin }
      : { rpID: request.hostname, origin: `${request.protocol}://${request.host}` };
}

// The contract's shapes are the WebAuthn JSON forms without the extension outputs, which are not sent.
const asRegistration = (r: unknown) =>
  ({ clientExtensionResults: {}, ...(r as object) }) as RegistrationResponseJSON;
const asAssertion = (r: unknown) =>
  ({ clientExtensionResults: {}, ...(r as object) }) as AuthenticationResponseJSON;

/** Signing in with a passkey: public, limited per client address before any work. */
export function registerPasskeyPublicRoutes(
  app: FastifyInstance,
  passkeys: PasskeysService,
  limits: RateLimits,
  rp: (request: FastifyRequest) => RelyingParty,
): void {
  contractRoute(app, e.loginOptions, async (_input, request, reply) => {
    await limit(limits, reply, 'passkey_options', request.ip);
    reply.header('cache-control', 'no-store');
    return { options: await passkeys.loginOptions(rp(request)) };
  });
  contractRoute(app, e.login, async ({ body }, request, reply) => {
    await limit(limits, reply, 'passkey_login', request.ip);
    reply.header('cache-control', 'no-store');
    return passkeys.login(
      rp(request),
      { response: asAssertion(body.response), device: body.device },
      request.headers['user-agent'] ?? '',
    );
  });
}

/** The account's passkeys, inside the bearer-session scope. */
export function registerPasskeyRoutes(
  app: FastifyInstance,
  passkeys: PasskeysService,
  rp: (request: FastifyRequest) => RelyingParty,
): void {
  contractRoute(app, e.registerOptions, async (_input, request) => ({
    options: await passkeys.registerOptions(authOf(request), rp(request)),
  }));
  contractRoute(app, e.register, async ({ body }, request, reply) =>
    withRetryAfter(reply, () =>
      passkeys.register(authOf(request), rp(request), { ...body, response: asRegistration(body.response) }),
    ),
  );
  contractRoute(app, e.list, async (_input, request) => passkeys.list(authOf(request)));
  contractRoute(app, e.remove, async ({ params }, request) =>
    passkeys.remove(authOf(request), params.passkeyId),
  );
}
