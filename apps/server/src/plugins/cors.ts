import fastifyCors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyError, FastifyInstance } from 'fastify';
import {
  accountPaths,
  AUTH_TOKEN_HEADER,
  customerPaths,
  PROFILE_HEADER,
  PROFILE_TOKEN_HEADER,
  SCRAPE_TOKEN_HEADER,
  sourcePaths,
} from '@marquee/contract';
import { frameworkErrors, MAX_PARAM_LENGTH } from './framework-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `false`: @fastify/cors leaves the route alone (set by registerCors for same-origin routes). */
    cors?: false;
  }
}

/** CORS_ORIGINS, parsed: any origin, none (no CORS), or a list of exact origins. */
export type CorsOrigins = '*' | 'none' | readonly string[];

const firstSegment = (path: string) => path.split('/')[1] ?? '';

/**
 * First path segments of the APIs that clients on other origins call (decision 015): the account and
 * sync protocol (`/meta`, `/auth/…`, `/users/…`, `/sessions/…`, the `/metrics/…` reports), the
 * customer backend (`/customers…`, `/promos…`, `/shkeeper/…`) and the scrape API (`/scrape…`,
 * `/metadata`). Our own API under `/api`, the web app and the admin tools are same-origin only.
 */
const crossOriginSegments = new Set(
  [
    accountPaths.meta,
    accountPaths.registerStart,
    accountPaths.me,
    accountPaths.session,
    accountPaths.providerMetrics,
    customerPaths.customers,
    customerPaths.promos,
    customerPaths.cryptoList,
    sourcePaths.scrape,
    sourcePaths.providerMetadata,
  ].map(firstSegment),
);

const overlong = Object.assign(new Error('A part of the URL is too long'), {
  code: 'FST_ERR_MAX_PARAM_LENGTH',
}) as FastifyError;

function hasOverlongPart(url: string): boolean {
  return url
    .split('?', 1)[0]!
    .split('/')
    .some((part) => {
      try {
        return decodeURIComponent(part).length > MAX_PARAM_LENGTH;
      } catch {
        return part.length > MAX_PARAM_LENGTH;
      }
    });
}

/** Each cross-origin API's catch-all (registerCors), and the methods it answers besides HEAD. */
export const crossOriginCatchAlls = [...crossOriginSegments].map((segment) => `/${segment}/*`);
export const CATCH_ALL_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Does a request path (or route pattern) belong to an API that other origins may call? */
export function isCrossOriginPath(url: string): boolean {
  const path = url.split('?', 1)[0]!;
  // `GET /metrics` is Prometheus' (read by a server, not a page); only the POST reports below it are clients'.
  if (path === accountPaths.metrics) return false;
  return crossOriginSegments.has(firstSegment(path));
}

/** Request headers those clients send (besides the CORS-safelisted ones). */
export const corsAllowedHeaders = [
  'Authorization',
  'Content-Type',
  SCRAPE_TOKEN_HEADER,
  AUTH_TOKEN_HEADER,
  PROFILE_HEADER,
  PROFILE_TOKEN_HEADER,
  'X-Request-Id',
];
/** Response headers their scripts may read: the scrape token and when to retry after a 429. */
export const corsExposedHeaders = [SCRAPE_TOKEN_HEADER, 'Retry-After'];
/** Chromium caps a cached preflight at two hours (Firefox at a day); longer would not help. */
export const CORS_MAX_AGE_SECONDS = 7200;

/**
 * CORS for the cross-origin APIs with @fastify/cors: preflights answered 204 in the onRequest hook
 * (before authentication), no credentials (bearer tokens, never cookies). Routes outside those APIs
 * opt out as they are added, so the web app's pages, assets and admin routes carry no CORS headers;
 * requests that match no route (preflights among them) are decided by their path. Register before any route.
 */
export async function registerCors(app: FastifyInstance, origins: CorsOrigins): Promise<void> {
  if (origins === 'none') return;
  const options: FastifyCorsOptions = {
    origin: origins === '*' ? '*' : [...origins],
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: corsAllowedHeaders,
    exposedHeaders: corsExposedHeaders,
    maxAge: CORS_MAX_AGE_SECONDS,
    credentials: false,
    // A bare OPTIONS (no Origin) is harmless: answer it like a preflight rather than with a text 400.
    strictPreflight: false,
  };
  app.addHook('onRoute', (route) => {
    if (route.url !== '*' && !isCrossOriginPath(route.url)) route.config = { ...route.config, cors: false };
  });
  await app.register(fastifyCors, {
    hideOptionsRoute: true,
    delegator: (request, callback) =>
      callback(null, isCrossOriginPath(request.url) ? options : { origin: false }),
  });
  // A path of those APIs that this server does not have (a newer client's route) would otherwise fall to
  // the web app's catch-all, which carries no CORS headers: the client's script could not read the 404
  // (the browser says "Failed to fetch") and its fallbacks would never run. So each API's segment has
  // its own catch-all, with CORS, answering the usual not-found error.
  // A part of the path too long for any parameter is what the router answers without this route: 414.
  for (const url of crossOriginCatchAlls)
    app.route({
      method: [...CATCH_ALL_METHODS, 'HEAD'],
      url,
      schema: { hide: true },
      handler: (request, reply) =>
        hasOverlongPart(request.url) ? frameworkErrors(overlong, request, reply) : reply.callNotFound(),
    });
}
