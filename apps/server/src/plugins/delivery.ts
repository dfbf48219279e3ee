import { createHash } from 'node:crypto';
import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import fastifyEtag from '@fastify/etag';
import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/** Answers smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/**
 * What is compressed per request: API JSON, HTML and text. Never media (range requests), never event
 * streams (they must flush as they go); built assets are compressed once, at build (see web.routes.ts).
 */
const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:json|problem\+json|xml)|text\/(?:html|plain|css|csv|xml)|image\/svg\+xml)(?:;|$)/;

/** Hosts the web app loads scripts and frames from, by feature: only what the instance uses is allowed. */
function thirdPartySources(config: Config): { script: string[]; frame: string[] } {
  // The Cast sender SDK (the player loads it only when the browser can cast).
  const script = ['https://www.gstatic.com'];
  const frame: string[] = [];
  if (config.CAPTCHA_PROVIDER === 'turnstile') {
    script.push('https://challenges.cloudflare.com');
    frame.push('https://challenges.cloudflare.com');
  }
  if (config.CAPTCHA_PROVIDER === 'recaptcha') {
    script.push('https://www.google.com/recaptcha/', 'https://www.recaptcha.net/recaptcha/');
    frame.push(
      'https://www.google.com/recaptcha/',
      'https://recaptcha.google.com/recaptcha/',
      'https://www.recaptcha.net/recaptcha/',
    );
  }
  return { script, frame };
}

export const isHttpsInstance = (config: Config) => config.PUBLIC_URL?.startsWith('https://') ?? false;

/**
 * The Content-Security-Policy of every answer. Scripts run only from this origin (plus the hosts of
 * features the instance enables) and, for the page itself, the inline runtime configuration whose
 * hash is added by `withInlineScripts`. Streams, proxies and other sync servers are the viewer's or the
 * operator's choice, so media and connections may go anywhere over http(s).
 */
export function contentSecurityPolicy(config: Config): Record<string, string[]> {
  const { script, frame } = thirdPartySources(config);
  return {
    'default-src': ["'self'"],
    // WebAssembly of this origin may compile (the player's ASS renderer, JASSUB: decision 085); no eval.
    'script-src': ["'self'", "'wasm-unsafe-eval'", ...script],
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:'],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'blob:', 'data:', 'https:', 'http:'],
    'connect-src': ["'self'", 'https:', 'http:', 'ws:', 'wss:'],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'frame-src': frame.length ? frame : ["'none'"],
    'frame-ancestors': ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    ...(isHttpsInstance(config) ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

export const serializePolicy = (policy: Record<string, string[]>) =>
  Object.entries(policy)
    .map(([name, values]) => [name, ...values].join(' '))
    .join('; ');

/** The policy with the given inline scripts allowed by their SHA-256 hash (no 'unsafe-inline'). */
export function withInlineScripts(policy: Record<string, string[]>, scripts: string[]): string {
  const hashes = scripts.map(
    (body) => `'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`,
  );
  return serializePolicy({ ...policy, 'script-src': [...(policy['script-src'] ?? []), ...hashes] });
}

/**
 * ETags, compression of dynamic answers and the security headers of every answer. Registered before
 * any route (the compression hook must see the static files' answers too).
 */
export async function registerDelivery(app: FastifyInstance, config: Config): Promise<void> {
  // ETags (and 304s) for every answer built in memory — the page, the runtime configuration, API JSON.
  // Registered before compression so the tag is computed over the content, the same for every
  // encoding (hence weak). Static files get theirs from @fastify/static.
  await app.register(fastifyEtag, { weak: true });
  await app.register(fastifyCompress, {
    global: true,
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    customTypes: COMPRESSIBLE_TYPES,
    // Quality 4 keeps per-request brotli cheap (the default, 11, is meant for build-time compression).
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
    // Request bodies are JSON from clients; a compressed upload is never needed and could hide a bomb.
    globalDecompression: false,
  });
  const https = isHttpsInstance(config);
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // Other origins' clients of this API load posters and media from here (CORS covers only fetches).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    crossOriginEmbedderPolicy: false,
    // Matches the page's <meta name="referrer">: titles a viewer opens never leak to stream hosts.
    referrerPolicy: { policy: 'no-referrer' },
    frameguard: { action: 'deny' },
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: false } : false,
    // Headers for browsers and plug-ins long gone (IE's download prompt and XSS filter, Flash) or that
    // change nothing here: left out, since every answer — each small script of the page too — carries them.
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
    xDnsPrefetchControl: false,
    originAgentCluster: false,
  });
  registerPrivateAnswers(app);
}

/** Whether a request carries credentials (a session token in either of the headers clients use). */
const hasCredentials = (request: FastifyRequest) =>
  request.headers.authorization !== undefined || request.headers['x-auth-token'] !== undefined;

/**
 * `Cache-Control: no-store` on every answer that belongs to one viewer and says nothing else: answers to
 * a request with a session token, answers of routes that need one, and the sign-in and registration
 * answers (they carry the token). On a shared computer the HTTP cache otherwise kept the previous
 * viewer's library, email and token after they signed out (docs/security.md). Answers that set their
 * own Cache-Control (media under a signed URL, the page, health) keep it.
 */
export function registerPrivateAnswers(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (reply.hasHeader('cache-control')) return payload;
    const contract = request.routeOptions.config?.contract;
    const personal =
      hasCredentials(request) ||
      request.auth != null ||
      (contract !== undefined && contract.auth !== 'none') ||
      request.url.startsWith('/auth/');
    if (personal) reply.header('cache-control', 'no-store');
    return payload;
  });
}
