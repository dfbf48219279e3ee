import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  acceptedLanguages,
  startLanguage,
  viewerRegion,
  type RuntimeConfig,
  type TmdbType,
  type UiLanguage,
} from '@marquee/contract';
import type { Config } from '../../config.ts';
import { contentSecurityPolicy, withInlineScripts } from '../../plugins/delivery.ts';
import { firstViewHints } from './first-view-hints.ts';

const CONFIG_MARKER = '<!--marquee-runtime-config-->';
const NAME_MARKER = '<!--marquee-instance-name-->';
const TITLE_SHELL_MARKER = '<!--marquee-title-shell-->';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The inline script that hands the runtime configuration to the app. `<` is escaped. */
export function runtimeConfigScript(config: RuntimeConfig): string {
  return `window.__MARQUEE_CONFIG__=${JSON.stringify(config).replace(/</g, '\\u003c')}`;
}

/**
 * Inlines the runtime configuration so the first view needs no extra request, and names the
 * instance in the header painted while the app's code loads.
 */
export function injectRuntimeConfig(html: string, config: RuntimeConfig): string {
  return html
    .replace(CONFIG_MARKER, `<script>${runtimeConfigScript(config)}</script>`)
    .replace(NAME_MARKER, escapeHtml(config.instanceName));
}

/** A title page's address: `/media/tmdb-{movie|tv}-{id}[-slug][/season/episode]`. */
const TITLE_PAGE = /^\/media\/tmdb-(movie|tv)-(\d{1,10})(?:-[^/?#]*)?(?:\/[^?#]*)?(?:\?.*)?$/;

/** How long the page waits for a title's picture before it goes without the hint. */
const HINT_WAIT_MS = 40;

/**
 * Where the title page's largest picture (its backdrop) is, so the page can ask for it while its code
 * loads: `(type, id, language, region)` → the image's address, or null.
 */
export type TitleBackdrop = (
  type: TmdbType,
  id: string,
  language: UiLanguage,
  region: string,
) => Promise<string | null>;

/**
 * A `<link rel="preload">` for a title page's backdrop, and the backdrop in the page painted while the
 * app's code loads, when the metadata has the title at hand (the
 * embedded catalog, or the shared cache; never a call to TMDB), within HINT_WAIT_MS. The language and
 * region are the ones the app starts in when the viewer chose none (the contract's rule), so the hint
 * names the picture the page's own first request will show.
 */
async function titleHint(
  pageUrl: string,
  browser: readonly string[],
  backdrop: TitleBackdrop | undefined,
): Promise<{ head: string; shell: string } | null> {
  const match = backdrop ? TITLE_PAGE.exec(pageUrl) : null;
  if (!match || !backdrop) return null;
  const lookup = backdrop(
    match[1] as TmdbType,
    match[2]!,
    startLanguage(null, browser),
    viewerRegion(browser),
  ).catch(() => null);
  let timer: NodeJS.Timeout | undefined;
  const url = await Promise.race([
    lookup,
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), HINT_WAIT_MS))),
  ]);
  clearTimeout(timer);
  if (!url || !url.startsWith('/')) return null;
  const href = escapeHtml(url);
  return {
    head: `<link rel="preload" as="image" href="${href}" fetchpriority="high">`,
    // The title's picture in the page painted while the code loads, dimmed as the title page shows it.
    shell: `<div aria-hidden="true" style="position:relative;height:22rem;margin-top:-4rem;overflow:hidden"><img src="${href}" alt="" fetchpriority="high" decoding="async" style="position:absolute;inset:0;width:100%;height:100%;object-fit:cover;opacity:.35"></div>`,
  };
}

const wantsHtml = (request: FastifyRequest) =>
  request.method === 'GET' && (request.headers.accept ?? '').includes('text/html');

/** Built files whose names carry a content hash: they never change, so browsers keep them for a year. */
const isHashedAsset = (filePath: string) => filePath.includes(`${path.sep}assets${path.sep}`);

/**
 * Serves the built web app: hashed assets immutable and precompressed (brotli/gzip made at build),
 * other files and index.html revalidated with ETags, and index.html (with the runtime configuration
 * inlined and allowed by its hash in the page's CSP) for every page route, so deep links work.
 */
export async function registerWebRoutes(
  app: FastifyInstance,
  config: Config,
  getRuntimeConfig: () => RuntimeConfig,
  options: { titleBackdrop?: TitleBackdrop } = {},
): Promise<void> {
  const distDir = config.webDistDir;
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: true,
      preCompressed: true,
      cacheControl: false,
      setHeaders(reply, filePath) {
        // Everything unhashed is revalidated: index.html, the manifest, icons and above all the service
        // worker, which browsers must never take stale, or they would keep the old version (decision 078).
        reply.header(
          'cache-control',
          isHashedAsset(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else {
    app.log.warn({ distDir }, 'web app not built: run `npm run build` (npm start does it) to serve the UI');
  }
  const template = hasBuild ? readFileSync(indexFile, 'utf8') : null;
  const policy = contentSecurityPolicy(config);

  const preloads = firstViewHints(distDir);

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const runtimeConfig = getRuntimeConfig();
    const browser = acceptedLanguages(request.headers['accept-language']);
    const hint = await titleHint(request.url, browser, options.titleBackdrop);
    // In the language the app starts in when the viewer chose none (the contract's rule).
    const language = startLanguage(null, browser);
    const head =
      preloads(request.url.split('?')[0] ?? '/', runtimeConfig.variant, language) + (hint?.head ?? '');
    const html = injectRuntimeConfig(template ?? '', runtimeConfig).replace('</head>', `${head}</head>`);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', withInlineScripts(policy, [runtimeConfigScript(runtimeConfig)]))
      .send(hint ? html.replace(TITLE_SHELL_MARKER, hint.shell) : html);
  };

  if (template) app.get('/', { schema: { hide: true } }, (request, reply) => sendIndex(request, reply));

  app.setNotFoundHandler((request, reply) => {
    if (template && wantsHtml(request) && !request.url.startsWith('/api/')) return sendIndex(request, reply);
    return reply.status(404).send({
      errorType: 'message',
      code: 'route_not_found',
      message: `Route ${request.method} ${request.url.split('?')[0]} not found`,
    });
  });
}
