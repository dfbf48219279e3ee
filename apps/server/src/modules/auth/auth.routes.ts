import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, RateLimitedError, type RateLimitBucket, type RateLimits } from '../../plugins/rate-limit.ts';
import type { FastifyReply } from 'fastify';
import type { AuthService } from './auth.service.ts';

/** Passphrase sign-up and sign-in. Each route is rate-limited per IP before any work (captcha included). */
export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, limits: RateLimits): void {
  contractRoute(app, e.registerStart, async ({ body }, request, reply) => {
    await limit(limits, reply, 'register_challenge_tokens', request.ip);
    // An empty string is no token. Without one, clients that cannot solve our captcha get a tighter budget.
    const captchaToken = body?.captchaToken || undefined;
    if (!captchaToken && auth.registrationWithoutCaptcha === 'limited') {
      await limit(limits, reply, 'register_without_captcha', request.ip);
      // The instance-wide budget is spent by accounts made (below), not by starts: starting costs an
      // anonymous client nothing, and 30 starts from 10 addresses closed registration to everyone.
      await refuseWhenSpent(limits, reply, 'register_without_captcha_instance', 'instance');
    }
    return auth.startRegistration(captchaToken, request.ip);
  });
  contractRoute(app, e.registerComplete, async ({ body }, request, reply) => {
    await limit(limits, reply, 'register_complete', request.ip);
    return auth.completeRegistration(body, request.headers['user-agent'] ?? '', async ({ open }) => {
      // Started without a captcha: the account, proven by its key's signature, spends the budget.
      if (open) await limit(limits, reply, 'register_without_captcha_instance', 'instance');
    });
  });
  contractRoute(app, e.loginStart, async ({ body }, request, reply) => {
    await limit(limits, reply, 'login_challenge_tokens', request.ip);
    return auth.startLogin(body.publicKey);
  });
  contractRoute(app, e.loginComplete, async ({ body }, request, reply) => {
    await limit(limits, reply, 'login_complete', request.ip);
    return auth.completeLogin(body, request.headers['user-agent'] ?? '');
  });
}

/** Refuses (429) when `bucket` is already spent for `key`, without spending any of it. */
async function refuseWhenSpent(
  limits: RateLimits,
  reply: FastifyReply,
  bucket: RateLimitBucket,
  key: string,
): Promise<void> {
  const rule = limits.rule(bucket);
  if (!limits.enabled || (await limits.count(bucket, key)) < rule.points) return;
  const retryAfter = Math.ceil(rule.durationMs / 1000);
  reply.header('retry-after', String(retryAfter));
  throw new RateLimitedError(retryAfter);
}
