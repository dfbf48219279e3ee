import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { catalogs } from './catalogs-plugin.ts';
import { defineConfig, type Plugin } from 'vite';
import { VitePWA, type ManifestOptions } from 'vite-plugin-pwa';
import { accountPaths } from '../../packages/contract/src/account-paths.ts';
import { apiPaths } from '../../packages/contract/src/api-paths.ts';
import { customerPaths } from '../../packages/contract/src/customer-paths.ts';
import * as routeTables from '../../packages/contract/src/routes.ts';
import { sourcePaths } from '../../packages/contract/src/source-paths.ts';
import { delivery } from './delivery-plugin.ts';
import { firstViewChunk } from './first-view-chunks.ts';
import { firstViewHints } from './first-view-hints-plugin.ts';

// In development the API runs on PORT (default 8080); Vite proxies everything that is not the app: the
// first path segment of every route the contract names (route tables and path constants), so a new
// endpoint is proxied without a hand-kept list.
const api = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const contractPaths = [
  ...Object.values(routeTables).flatMap((table) => Object.values(table).map((route) => route.path)),
  ...Object.values(accountPaths),
  ...Object.values(apiPaths),
  ...Object.values(customerPaths),
  ...Object.values(sourcePaths),
];
const apiPrefixes = [...new Set(contractPaths.map((p) => `/${p.split('/')[1]}`))];
// /promos is a page of the app too: the server gives a browser navigation the app there
// (apps/server/src/modules/membership/membership.routes.ts), so the proxy leaves navigations to Vite.
const pagesToo = new Set<string>([customerPaths.promos]);
const isNavigation = (accept: string | undefined) => /text\/html/.test(accept ?? '');

/** The installed app (decision 078). Colours: the page's background (`--color-bg`) and its theme-color meta. */
const manifest: Partial<ManifestOptions> = {
  id: '/',
  name: 'Marquee',
  short_name: 'Marquee',
  description: 'Find movies and TV shows, keep a list, and pick up where you left off.',
  lang: 'en',
  start_url: '/',
  scope: '/',
  display: 'standalone',
  background_color: '#0f0d17',
  theme_color: '#120f1d',
  categories: ['entertainment'],
  icons: [
    { src: '/pwa-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: '/pwa-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: '/pwa-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
};

/** The icon iOS uses for a page added to the home screen (it reads no manifest icons). */
const appleTouchIcon = (): Plugin => ({
  name: 'marquee-apple-touch-icon',
  transformIndexHtml: () => [
    { tag: 'link', attrs: { rel: 'apple-touch-icon', href: '/apple-touch-icon.png' }, injectTo: 'head' },
  ],
});

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    catalogs(),
    VitePWA({
      strategies: 'injectManifest',
      srcDir: 'src/pwa',
      filename: 'sw.ts',
      scope: '/',
      // src/pwa/register.tsx registers the worker after the first view and asks before updating.
      registerType: 'prompt',
      injectRegister: false,
      manifest,
      includeManifestIcons: false,
      injectManifest: {
        // Nothing is precached (src/pwa/sw.ts says why): no precache list to inject.
        injectionPoint: undefined,
        rollupFormat: 'iife',
      },
      // The worker is written before the delivery plugin compresses the build, so sw.js gets its .br/.gz.
      integration: { closeBundleOrder: 'pre' },
    }),
    appleTouchIcon(),
    firstViewHints(),
    delivery(),
  ],
  define: {
    // The server's root paths, which the worker never answers with the app's page (src/pwa/sw.ts).
    __MARQUEE_SERVER_PATHS__: JSON.stringify(apiPrefixes.filter((p) => !pagesToo.has(p))),
  },
  // Workers are modules (the ASS renderer's, JASSUB, is one, and is given its URL: display/ass-renderer.ts).
  worker: { format: 'es' },
  resolve: {
    // JASSUB's requestVideoFrameCallback polyfill is GPL-3.0: not bundled (see the stand-in's comment).
    alias: {
      'rvfc-polyfill': fileURLToPath(
        new URL('./src/features/player/display/rvfc-native.ts', import.meta.url),
      ),
    },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    target: 'es2022',
    reportCompressedSize: false,
    rolldownOptions: {
      output: { codeSplitting: { groups: [firstViewChunk()] } },
    },
  },
  server: {
    proxy: Object.fromEntries(
      apiPrefixes.map((p) => [
        p,
        {
          target: api,
          changeOrigin: false,
          ...(pagesToo.has(p)
            ? {
                bypass: (req: { url?: string; headers: { accept?: string } }) =>
                  pagesToo.has(req.url?.split('?')[0] ?? '') && isNavigation(req.headers.accept)
                    ? '/index.html'
                    : undefined,
              }
            : {}),
        },
      ]),
    ),
  },
});
