import type { FastifyInstance } from 'fastify';
import { customerPaths } from '@marquee/contract';
import type { Config } from '../../config.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import type { AccountsHandle } from '../accounts/accounts.module.ts';
import { InstanceSecretsRepository } from '../instance/instance-secrets.repository.ts';
import { MembershipRepository } from './membership.repository.ts';
import { registerMembershipRoutes } from './membership.routes.ts';
import { MembershipService } from './membership.service.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { plansOf } from './plans.ts';
import { PromosRepository } from './promos.repository.ts';
import { PromosService } from './promos.service.ts';
import { ShkeeperGateway } from './shkeeper.gateway.ts';
import { SimulatedGateway } from './simulated.gateway.ts';

/** What tests (and only tests) replace in the membership module. */
export interface MembershipOverrides {
  gateway?: PaymentGateway;
}

export interface MembershipContext {
  config: Config;
  database: DatabaseHandle;
  now: () => Date;
  fetch?: typeof fetch | undefined;
  accounts: AccountsHandle;
  overrides?: MembershipOverrides | undefined;
}

async function gatewayFor(ctx: MembershipContext): Promise<PaymentGateway> {
  const { config } = ctx;
  if (config.PAYMENT_GATEWAY === 'shkeeper') {
    return new ShkeeperGateway({
      baseUrl: config.SHKEEPER_URL!,
      apiKey: config.SHKEEPER_API_KEY!,
      ...(ctx.fetch ? { fetch: ctx.fetch } : {}),
    });
  }
  // The simulated gateway signs its callbacks with the operator's key, else one the instance keeps.
  const key =
    config.SHKEEPER_API_KEY ??
    (await new InstanceSecretsRepository(ctx.database.db).getOrCreate(
      'simulated_gateway_key',
      ctx.now().getTime(),
    ));
  return new SimulatedGateway(key);
}

/** Memberships, payments, promo codes (issue 6), wired onto `server`. Returns the service (the playback gate). */
export async function registerMembership(
  server: FastifyInstance,
  ctx: MembershipContext,
): Promise<MembershipService> {
  const { config, database, accounts } = ctx;
  const now = () => ctx.now().getTime();
  const gateway = ctx.overrides?.gateway ?? (await gatewayFor(ctx));
  if (config.VARIANT === 'subscription' && gateway.kind === 'simulated') {
    server.log.warn(
      'PAYMENT_GATEWAY=simulated: anyone can "pay" for a membership; set PAYMENT_GATEWAY=shkeeper to take real payments',
    );
  }
  const promosRepo = new PromosRepository(database.db);
  const membership = new MembershipService({
    db: database.db,
    users: accounts.users,
    repo: new MembershipRepository(database.db),
    promos: promosRepo,
    customers: accounts.customers,
    gateway,
    plans: plansOf(config.plans, config.PAYMENT_CURRENCY),
    currency: config.PAYMENT_CURRENCY,
    publicUrl: config.PUBLIC_URL,
    callbackPath: customerPaths.gatewayCallback,
    variant: config.VARIANT,
    freeMovieTmdbId: config.FREE_MOVIE_TMDB_ID,
    authenticator: accounts.auth,
    now,
    log: server.log,
  });
  await registerMembershipRoutes(server, {
    membership,
    promos: new PromosService(promosRepo, now),
    customers: accounts.customers,
    authenticator: accounts.auth,
    limits: accounts.limits,
    kids: accounts.kids,
  });
  return membership;
}
