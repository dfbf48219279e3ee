import type { FastifyInstance } from 'fastify';
import { accountEndpoints as e, APP_VERSION, type Meta } from '@marquee/contract';
import type { Config } from '../../config.ts';
import { contractRoute } from '../../plugins/contract-route.ts';

/**
 * What existing clients show before trusting a server. They can only solve reCAPTCHA (they need
 * `captchaClientKey` for it), so the site key is sent only for that provider.
 */
export function metaOf(config: Config): Meta {
  return {
    name: config.INSTANCE_NAME,
    ...(config.INSTANCE_DESCRIPTION ? { description: config.INSTANCE_DESCRIPTION } : {}),
    version: APP_VERSION,
    hasCaptcha: config.CAPTCHA_PROVIDER !== 'none',
    ...(config.CAPTCHA_PROVIDER === 'recaptcha' && config.CAPTCHA_SITE_KEY ? { captchaClientKey: config.CAPTCHA_SITE_KEY } : {}),
  };
}

export function registerMetaRoutes(app: FastifyInstance, config: Config): void {
  const meta = metaOf(config);
  contractRoute(app, e.meta, async () => meta);
}
