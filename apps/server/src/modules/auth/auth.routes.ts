import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e } from '@marquee/contract';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import type { AuthService } from './auth.service.ts';

/** Passphrase sign-up and sign-in. Each route is rate-limited per IP before any work (captcha included). */
export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, limits: RateLimits): void {
  contractRoute(app, e.registerStart, async ({ body }, request, reply) => {
    await limit(limits, reply, 'register_challenge_tokens', request.ip);
    // An empty string is no token. Without one, clients that cannot solve our captcha get a tighter budget.
    const captchaToken = body?.captchaToken || undefined;
    if (!captchaToken && auth.registrationWithoutCaptcha === 'limited') {
      await limit(limits, reply, 'register_without_captcha', request.ip);
      await limit(limits, reply, 'register_without_captcha_instance', 'instance');
    }
    return auth.startRegistration(captchaToken, request.ip);
  });
  contractRoute(app, e.registerComplete, async ({ body }, request, reply) => {
    await limit(limits, reply, 'register_complete', request.ip);
    return auth.completeRegistration(body, request.headers['user-agent'] ?? '');
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
