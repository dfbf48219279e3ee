import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e, APP_VERSION, type Meta } from '@marquee/contract';
import type { Config } from '../../config.ts';
import { contractRoute } from '../../plugins/contract-route.ts';
import { protocolClientsCanSolveCaptcha } from '../captcha/captcha-policy.ts';

/**
 * What existing clients show before trusting a server. They can only solve reCAPTCHA (they need
 * `captchaClientKey` for it), so `hasCaptcha` is true only then; with ALTCHA or Turnstile they register
 * without a token, under tighter rate limits (decision 015).
 */
export function metaOf(config: Config): Meta {
  const hasCaptcha = protocolClientsCanSolveCaptcha(config.CAPTCHA_PROVIDER, config.CAPTCHA_SITE_KEY);
  return {
    name: config.INSTANCE_NAME,
    ...(config.INSTANCE_DESCRIPTION ? { description: config.INSTANCE_DESCRIPTION } : {}),
    version: APP_VERSION,
    hasCaptcha,
    ...(hasCaptcha && config.CAPTCHA_SITE_KEY ? { captchaClientKey: config.CAPTCHA_SITE_KEY } : {}),
  };
}

export function registerMetaRoutes(app: FastifyInstance, config: Config): void {
  const meta = metaOf(config);
  contractRoute(app, e.meta, async () => meta);
}
