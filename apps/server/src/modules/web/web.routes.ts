import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuntimeConfig } from '@marquee/contract';

const CONFIG_MARKER = '<!--marquee-runtime-config-->';

/** Inlines the runtime configuration so the first view needs no extra request. `<` is escaped. */
export function injectRuntimeConfig(html: string, config: RuntimeConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return html.replace(CONFIG_MARKER, `<script>window.__MARQUEE_CONFIG__=${json}</script>`);
}

const wantsHtml = (request: FastifyRequest) =>
  request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');

/**
 * Serves the built web app: hashed assets with long caching, and index.html (with the runtime
 * configuration inlined) for every page route, so deep links and reloads work.
 */
export async function registerWebRoutes(
  app: FastifyInstance,
  distDir: string,
  getRuntimeConfig: () => RuntimeConfig,
): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: true,
      setHeaders(reply, filePath) {
        if (filePath.includes(`${path.sep}assets${path.sep}`)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` (npm start does it) to serve the UI');
  }
  const template = hasBuild ? readFileSync(indexFile, 'utf8') : null;

  const sendIndex = (reply: FastifyReply) =>
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(injectRuntimeConfig(template ?? '', getRuntimeConfig()));

  if (template) app.get('/', { schema: { hide: true } }, (_request, reply) => sendIndex(reply));

  app.setNotFoundHandler((request, reply) => {
    if (template && wantsHtml(request) && !request.url.startsWith('/api/')) return sendIndex(reply);
    return reply.status(404).send({
      errorType: 'message',
      code: 'route_not_found',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
    });
  });
}
