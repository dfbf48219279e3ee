/**
 * The service worker (`/sw.js`, scope `/`; built by vite-plugin-pwa's injectManifest, decision 078).
 *
 * - Navigations: network first, the cached page after NAVIGATION_TIMEOUT_SECONDS or when the network
 *   fails, so a reload offline still starts the app. Every page is the same document, kept under one key
 *   with the CSP header it came with (its inline configuration's hash matches its own copy).
 * - Hashed build files: cache first (they never change), capped by count, cached as screens and
 *   languages use them; the header's mark and the poster placeholder: from the cache, refreshed behind. Nothing is precached: a precache drops the previous version's files when a new
 *   worker activates, and the cached page may still be the previous version's.
 * - Nothing else is answered here: API, account, sync, media and event-stream requests reach the network
 *   as if there were no worker, and are never cached.
 * - A new version waits until the page asks (`SKIP_WAITING`, sent when the viewer chooses Reload).
 */
import type { WorkboxPlugin } from 'workbox-core/types.js';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { clientsClaim } from 'workbox-core';
import { ExpirationPlugin } from 'workbox-expiration';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import {
  CACHE_NAMES,
  isAppImage,
  isAppNavigation,
  isHashedAsset,
  isSkipWaiting,
  MAX_ASSET_ENTRIES,
  NAVIGATION_TIMEOUT_SECONDS,
  SHELL_URL,
} from './cache-rules.ts';

// The web app compiles with the DOM library, which does not describe workers: the little of the worker's
// scope used here is declared locally.
interface ExtendableEvent extends Event {
  waitUntil(promise: Promise<unknown>): void;
}
interface ExtendableMessageEvent extends ExtendableEvent {
  readonly data: unknown;
}
declare const self: {
  readonly location: { readonly origin: string };
  skipWaiting(): Promise<void>;
  addEventListener(type: 'message', listener: (event: ExtendableMessageEvent) => void): void;
  addEventListener(type: 'activate', listener: (event: ExtendableEvent) => void): void;
};
/** The server's root prefixes from the contract's route tables (vite.config.ts). */
declare const __MARQUEE_SERVER_PATHS__: string[];

const serverPaths = __MARQUEE_SERVER_PATHS__;

const isHtml = (response: Response) => (response.headers.get('content-type') ?? '').startsWith('text/html');

/** Every page under one key: the document is the same for all, so a page never opened online starts too. */
const shellPlugin: WorkboxPlugin = {
  cacheKeyWillBeUsed: async () => SHELL_URL,
  cacheWillUpdate: async ({ response }) => (response.status === 200 && isHtml(response) ? response : null),
  // A proxy's 5xx while our server is down counts as offline: the cached page can do more than its error.
  fetchDidSucceed: async ({ response }) => {
    if (response.status >= 500) throw new Error(`server answered ${response.status}`);
    return response;
  },
};

const shell = new NetworkFirst({
  cacheName: CACHE_NAMES.shell,
  networkTimeoutSeconds: NAVIGATION_TIMEOUT_SECONDS,
  plugins: [shellPlugin],
});

const assets = new CacheFirst({
  cacheName: CACHE_NAMES.assets,
  plugins: [
    new CacheableResponsePlugin({ statuses: [200] }),
    // No age limit: an app opened offline after a month must still find its files; the count bounds it
    // (least recently used first, and every start uses the entry chunk and its language).
    new ExpirationPlugin({ maxEntries: MAX_ASSET_ENTRIES, purgeOnQuotaError: true }),
  ],
});

// Also answers workbox-routing's CACHE_URLS message: the page names what it loaded before this worker
// controlled it, and each URL goes through these routes as if fetched (src/pwa/register.tsx).
registerRoute(
  ({ request, url }) =>
    request.mode === 'navigate' && isAppNavigation(url, self.location.origin, serverPaths),
  shell,
);
registerRoute(({ url, sameOrigin }) => sameOrigin && isHashedAsset(url.pathname), assets);
registerRoute(
  ({ url, sameOrigin }) => sameOrigin && isAppImage(url.pathname),
  new StaleWhileRevalidate({
    cacheName: CACHE_NAMES.images,
    plugins: [new CacheableResponsePlugin({ statuses: [200] })],
  }),
);

self.addEventListener('message', (event) => {
  if (isSkipWaiting(event.data)) void self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  const current = new Set<string>(Object.values(CACHE_NAMES));
  event.waitUntil(
    Promise.all([
      // The page as the server sends it now, for the next start (the first worker's page was loaded
      // before it existed). Offline, the cached copy stays.
      shell
        .handle({ event, request: new Request(SHELL_URL, { headers: { accept: 'text/html' } }) })
        .catch(() => undefined),
      // Caches of this app that an older worker used under other names.
      caches
        .keys()
        .then((names) =>
          Promise.all(
            names.filter((n) => n.startsWith('marquee-') && !current.has(n)).map((n) => caches.delete(n)),
          ),
        ),
    ]),
  );
});

// The first worker takes the page that installed it at once, so what that page fetches next is cached too.
clientsClaim();
