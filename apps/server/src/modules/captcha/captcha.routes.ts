import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e } from '@marquee/contract';
import { notFound } from '../../errors.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { limit, type RateLimits } from '../../plugins/rate-limit.ts';
import { AltchaCaptcha, type CaptchaVerifier } from './captcha.service.ts';

export function registerCaptchaRoutes(
  app: FastifyInstance,
  captcha: CaptchaVerifier,
  limits: RateLimits,
): void {
  contractRoute(app, e.captchaChallenge, async (_input, request, reply) => {
    if (!(captcha instanceof AltchaCaptcha)) throw notFound('This instance does not use ALTCHA');
    await limit(limits, reply, 'captcha_challenge', request.ip);
    reply.header('cache-control', 'no-store');
    return captcha.challenge();
  });
}
