/**
 * What the service worker (sw.ts) caches, as plain functions the worker and the page share and tests
 * check. Decision 078: the app shell, the hashed files of the screens a viewer used and the app's two
 * images; never our API, accounts, sync, media or event streams (the worker answers only the kinds of
 * request below, so everything else goes to the network untouched).
 */

/** Cache names carry a version: a worker that changes what a cache holds bumps it, and old ones are dropped. */
export const CACHE_NAMES = {
  /** The page (index.html as the server sends it, runtime configuration inlined), under one key. */
  shell: 'marquee-shell-v1',
  /** Hashed build files (`/assets/…`) of the screens and languages used. */
  assets: 'marquee-assets-v1',
  /** The few unhashed images every page shows (the header's mark, the poster placeholder). */
  images: 'marquee-images-v1',
} as const;

/** The worker's script: vite-plugin-pwa builds src/pwa/sw.ts to dist/sw.js. */
export const SW_URL = '/sw.js';

/** Every page of the app is the same document (the server sends index.html for each), kept under this key. */
export const SHELL_URL = '/';

/** How long a navigation waits for the network before the cached page is shown (it still updates the cache). */
export const NAVIGATION_TIMEOUT_SECONDS = 3;

/** At most this many files in the assets cache; the least recently used go first (about three versions' worth). */
export const MAX_ASSET_ENTRIES = 200;

/**
 * Root paths that are the server's, never a page of the app, besides those the contract names (passed in
 * by the build from the route tables, as the dev server's proxy is).
 */
export const OPERATIONAL_PATHS = ['/healthz', '/readyz'];

/** Built files with a content hash in their name (never change, so cache-first is safe). */
export const isHashedAsset = (pathname: string) =>
  /^\/assets\/[^/]+\.(?:js|css|woff2?|svg|png|webp|avif)$/.test(pathname);

/** Unhashed files of the build every page may show: kept, and refreshed in the background when used. */
export const APP_IMAGES = ['/favicon.svg', '/placeholder.svg'];

export const isAppImage = (pathname: string) => APP_IMAGES.includes(pathname);

/** Whether a path belongs to one of the server's own prefixes (`/users` covers `/users` and `/users/…`). */
export const isServerPath = (pathname: string, prefixes: readonly string[]) =>
  prefixes.some((p) => pathname === p || pathname.startsWith(p.endsWith('/') ? p : `${p}/`));

/** A navigation the cached page may answer: a page of the app, not a server path opened in a tab. */
export const isAppNavigation = (url: URL, origin: string, serverPrefixes: readonly string[]) =>
  url.origin === origin && !isServerPath(url.pathname, [...serverPrefixes, ...OPERATIONAL_PATHS]);

/** The message that makes a waiting worker take over (workbox-window's `messageSkipWaiting` sends it). */
export const isSkipWaiting = (data: unknown) =>
  typeof data === 'object' && data !== null && (data as { type?: unknown }).type === 'SKIP_WAITING';

/**
 * Asks the worker to cache files as if the page had fetched them through it: workbox-routing's own
 * message, which runs each URL through the worker's routes (so only what a route caches is kept).
 */
export const cacheUrlsMessage = (urls: string[]) => ({ type: 'CACHE_URLS', payload: { urlsToCache: urls } });

/**
 * The files a page loaded before the worker controlled it (its first visit), from the browser's resource
 * timing entries: same-origin build files only (hashed, and the app's images). The worker caches them
 * so the next start, offline too, finds the language and screens already used.
 */
export function firstViewAssets(resourceUrls: readonly string[], origin: string): string[] {
  const urls = new Set<string>();
  for (const raw of resourceUrls) {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      continue;
    }
    if (url.origin === origin && (isHashedAsset(url.pathname) || isAppImage(url.pathname)))
      urls.add(url.pathname);
  }
  return [...urls];
}
