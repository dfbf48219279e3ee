import { APP_VERSION, type RuntimeConfig } from '@marquee/contract';
import type { Config } from '../../config.ts';

/** The web app's view of the configuration: only what a browser may know (no keys, no secrets). */
export function runtimeConfigFrom(
  config: Config,
  metadataSource: RuntimeConfig['metadataSource'],
  freeMovieTitle: string | null,
): RuntimeConfig {
  return {
    appVersion: APP_VERSION,
    instanceName: config.INSTANCE_NAME,
    variant: config.VARIANT,
    authMethods: config.AUTH_METHODS,
    dmcaEmail: config.DMCA_EMAIL ?? null,
    captcha: {
      provider: config.CAPTCHA_PROVIDER,
      siteKey: config.CAPTCHA_SITE_KEY ?? null,
    },
    paymentGateway: config.VARIANT === 'subscription',
    simulatedPayments: config.VARIANT === 'subscription' && config.PAYMENT_GATEWAY === 'simulated',
    downtime:
      config.DOWNTIME_START && config.DOWNTIME_END
        ? { start: config.DOWNTIME_START, end: config.DOWNTIME_END }
        : null,
    links: {
      chromeExtension: config.EXTENSION_CHROME_URL ?? null,
      firefoxExtension: config.EXTENSION_FIREFOX_URL ?? null,
      proxyInstall: config.PROXY_INSTALL_URL ?? null,
      docs: config.DOCS_URL ?? null,
    },
    allowAutoplay: config.ALLOW_AUTOPLAY,
    hasOnboarding: config.HAS_ONBOARDING,
    freeMovieOfTheMonth:
      config.FREE_MOVIE_TMDB_ID && freeMovieTitle
        ? { id: config.FREE_MOVIE_TMDB_ID, title: freeMovieTitle }
        : null,
    metadataSource,
  };
}
