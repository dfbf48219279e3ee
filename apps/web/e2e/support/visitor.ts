import { randomInt } from 'node:crypto';
import type { Page } from '@playwright/test';

/*
 * The e2e servers trust the loopback as their proxy (playwright.config.ts): a request carrying
 * X-Forwarded-For comes from that client address. Registrations name a visitor's own address, so each
 * test's sign-up counts against its own per-address budget, not one shared by the whole run.
 */

/** An address of the documentation range 198.18.0.0/15 (benchmarking), one per visitor. */
export const visitorAddress = () => `198.${18 + randomInt(2)}.${randomInt(256)}.${randomInt(1, 255)}`;

/** Headers of an API request made by a visitor of its own. */
export const fromVisitor = (address = visitorAddress()) => ({ 'x-forwarded-for': address });

/** The page's registration calls (both account kinds) come from one new visitor's address. */
export async function registerAsNewVisitor(page: Page): Promise<void> {
  const headers = fromVisitor();
  const register = (route: Parameters<Parameters<Page['route']>[1]>[0]) =>
    route.request().method() === 'POST'
      ? route.continue({ headers: { ...route.request().headers(), ...headers } })
      : route.continue();
  await page.route('**/auth/register/**', register);
  await page.route(/\/customers$/, register);
}
