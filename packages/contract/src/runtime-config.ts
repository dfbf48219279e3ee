import { z } from './z.ts';
import { defineEndpoint } from './endpoint.ts';
import { configRoutes } from './routes.ts';

export const Variant = z.enum(['discovery', 'subscription']);
export type Variant = z.infer<typeof Variant>;
export const AuthMethod = z.enum(['passphrase', 'email']);
export type AuthMethod = z.infer<typeof AuthMethod>;
export const CaptchaProvider = z.enum(['none', 'altcha', 'turnstile', 'recaptcha']);
export type CaptchaProvider = z.infer<typeof CaptchaProvider>;

/** Everything the web app needs to know about its instance, served at run time (no rebuild). */
export const RuntimeConfig = z.object({
  appVersion: z.string(),
  instanceName: z.string(),
  variant: Variant,
  authMethods: z.array(AuthMethod),
  dmcaEmail: z.string().nullable(),
  captcha: z.object({ provider: CaptchaProvider, siteKey: z.string().nullable() }),
  paymentGateway: z.boolean(),
  /** PAYMENT_GATEWAY=simulated: the membership page may offer "simulate the payment" (POST …/simulate-paid). */
  simulatedPayments: z.boolean(),
  /** Provider-downtime notice window, ISO instants. */
  downtime: z.object({ start: z.string(), end: z.string() }).nullable(),
  links: z.object({
    chromeExtension: z.string().nullable(),
    firefoxExtension: z.string().nullable(),
    proxyInstall: z.string().nullable(),
    docs: z.string().nullable(),
  }),
  allowAutoplay: z.boolean(),
  hasOnboarding: z.boolean(),
  freeMovieOfTheMonth: z.object({ id: z.string(), title: z.string() }).nullable(),
  metadataSource: z.enum(['tmdb', 'catalog']),
});
export type RuntimeConfig = z.infer<typeof RuntimeConfig>;

export const configEndpoints = {
  runtimeConfig: defineEndpoint({
    ...configRoutes.runtimeConfig,
    summary: 'Runtime configuration of this instance for the web app',
    auth: 'none',
    tags: ['config'],
    response: RuntimeConfig,
  }),
} as const;
