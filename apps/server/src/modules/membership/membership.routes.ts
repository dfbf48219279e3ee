import type { FastifyInstance, FastifyRequest } from 'fastify';
import { customerPaths, membershipEndpoints as e } from '@marquee/contract';
import { AppError } from '../../errors.ts';
import {
  authenticateRequest,
  authOf,
  requireSession,
  type SessionAuthenticator,
} from '../../plugins/auth.ts';
import { contractRoute, sendNotFound } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { CustomersService } from '../customers/customers.service.ts';
import type { KidsProfiles } from '../customers/kids-profiles.ts';
import type { MembershipService } from './membership.service.ts';
import type { PromosService } from './promos.service.ts';

const originOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

/**
 * True when the client wants a page rather than data: `text/html` accepted with a higher quality than
 * `application/json` (browser navigations send text/html first; fetch sends JSON or *∕*).
 */
export function prefersHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  let html = 0;
  let json = 0;
  for (const part of accept.split(',')) {
    const [type, ...params] = part.trim().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    const quality = Number.isFinite(q) ? q : 0;
    const mediaType = type?.trim().toLowerCase();
    if (mediaType === 'text/html' || mediaType === 'application/xhtml+xml') html = Math.max(html, quality);
    if (mediaType === 'application/json') json = Math.max(json, quality);
  }
  return html > 0 && html > json;
}

async function requireAdmin(request: FastifyRequest, customers: CustomersService): Promise<string> {
  const { userId } = authOf(request);
  if (!(await customers.isAdmin(userId))) throw new AppError(403, 'forbidden', 'Only admins can do this');
  return userId;
}

export interface MembershipRoutesContext {
  membership: MembershipService;
  promos: PromosService;
  customers: CustomersService;
  authenticator: SessionAuthenticator;
  limits: RateLimits;
  /** Kids' profiles (decision 106): /promos checks its caller in the handler, after their guard. */
  kids: Pick<KidsProfiles, 'assertAllowed'>;
}

export async function registerMembershipRoutes(
  app: FastifyInstance,
  ctx: MembershipRoutesContext,
): Promise<void> {
  const { membership, promos, customers, authenticator, limits } = ctx;

  // ---- public ----
  contractRoute(app, e.plans, async () => ({ plans: membership.plans }));
  contractRoute(app, e.cryptoList, async () => ({ crypto_list: await membership.cryptoList() }));
  contractRoute(app, e.cryptoListAlias, async () => ({ crypto_list: await membership.cryptoList() }));

  // /promos is also a page of the web app: a browser navigation gets the app (the not-found handler
  // serves it), API calls get the list. The check comes before authentication for that reason.
  contractRoute(app, e.promos, async (_input, request, reply) => {
    if (prefersHtml(request)) return sendNotFound(reply);
    await authenticateRequest(request, authenticator);
    await ctx.kids.assertAllowed(request);
    await requireAdmin(request, customers);
    return { codes: await promos.list() };
  });

  // ---- signed in ----
  await app.register(async (scope) => {
    requireSession(scope, authenticator);
    const subscribe = async (
      body: Parameters<MembershipService['subscribe']>[1],
      request: FastifyRequest,
      reply: Parameters<typeof limit>[1],
    ) => {
      const auth = authOf(request);
      await limit(limits, reply, 'payment_request', auth.userId);
      return membership.subscribe(auth, body, originOf(request));
    };
    contractRoute(scope, e.subscribe, async ({ body }, request, reply) => subscribe(body, request, reply));
    contractRoute(scope, e.subscribeAlias, async ({ body }, request, reply) =>
      subscribe(body, request, reply),
    );
    contractRoute(scope, e.membership, async (_input, request) =>
      membership.membershipOf(authOf(request).userId),
    );
    contractRoute(scope, e.payment, async ({ params }, request) =>
      membership.paymentOf(authOf(request).userId, params.paymentId),
    );

    contractRoute(scope, e.createPromo, async ({ body }, request) => {
      const adminId = await requireAdmin(request, customers);
      const created = await promos.create(adminId, body?.rate);
      return { codes: await promos.list(), created };
    });
    contractRoute(scope, e.adminPayments, async ({ query }, request) => {
      await requireAdmin(request, customers);
      return { payments: await membership.paymentsForAdmin(query) };
    });
    contractRoute(scope, e.checkPromo, async ({ params }, request, reply) => {
      const { userId } = authOf(request);
      await limit(limits, reply, 'promo_check', userId);
      return promos.check(userId, params.code);
    });

    if (membership.gatewayKind === 'simulated') {
      contractRoute(scope, e.simulatePaid, async ({ params }, request) => {
        const { userId } = authOf(request);
        const payment = await membership.paymentForSimulation(userId, params.paymentId);
        const { body, headers } = membership.simulatedCallback(payment);
        const sent = await app.inject({
          method: 'POST',
          url: customerPaths.gatewayCallback,
          headers,
          payload: body,
        });
        if (sent.statusCode !== 202)
          throw new AppError(
            502,
            'payment_gateway_unavailable',
            `Simulated callback answered ${sent.statusCode}`,
          );
        return membership.paymentOf(userId, params.paymentId);
      });
    }
  });

  // ---- the gateway's callback: raw body (the signature covers its exact bytes), answered 202 ----
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    scope.post(
      customerPaths.gatewayCallback,
      { schema: { summary: 'Payment gateway notifications (SHKeeper callback_url)', hide: true } },
      async (request, reply) => {
        const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const outcome = await membership.handleCallback(request.headers, raw);
        return reply.status(202).send({ status: 'accepted', outcome });
      },
    );
  });
}
