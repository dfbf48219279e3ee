import type { i18n } from 'i18next';

/**
 * Starts the service worker once the page has loaded (decision 078): its code (workbox-window and the
 * update notice) is a chunk of its own, fetched after the first view, so the first view's JavaScript
 * does not grow. Production builds only: never under the Vite dev server, nor where browsers lack
 * service workers.
 */
export function startServiceWorker(i18n: i18n): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  const start = () =>
    void import('./register.tsx').then(
      (m) => m.registerServiceWorker(i18n),
      // Without its code (offline before it was ever cached) the app runs as a plain page.
      () => undefined,
    );
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}
