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

type Route = Parameters<Parameters<Page['route']>[1]>[0];

/** The page's POSTs to these URLs come from one new visitor's address. */
async function postAsNewVisitor(page: Page, urls: (string | RegExp)[]): Promise<void> {
  const headers = fromVisitor();
  const asVisitor = (route: Route) =>
    route.request().method() === 'POST'
      ? route.continue({ headers: { ...route.request().headers(), ...headers } })
      : route.continue();
  for (const url of urls) await page.route(url, asVisitor);
}

/** The page's registration calls (both account kinds) come from one new visitor's address. */
export const registerAsNewVisitor = (page: Page) =>
  postAsNewVisitor(page, ['**/auth/register/**', /\/customers$/]);

/**
 * The page's email sign-ins come from one new visitor's address: the suite signs in far more often than
 * one address may within the sign-in window (plugins/rate-limit.ts `customer_login`).
 */
export const signInAsNewVisitor = (page: Page) => postAsNewVisitor(page, [/\/customers\/auth$/]);
