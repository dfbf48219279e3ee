import type { i18n } from 'i18next';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { Workbox } from 'workbox-window';
import { cacheUrlsMessage, firstViewAssets, SW_URL } from './cache-rules.ts';
import { UpdateNotice } from './update-notice.tsx';

/** A tab left open asks for a new version this often (browsers check by themselves only on navigations). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

/**
 * Registers `/sw.js` and offers a new version when one is waiting: Reload asks the waiting worker to
 * take over, then reloads once it controls the page; Not now hides the notice until the next start.
 * Loaded by start.ts after the first view.
 */
export async function registerServiceWorker(
  i18n: i18n,
  { reloadPage = () => window.location.reload() }: { reloadPage?: () => void } = {},
): Promise<void> {
  const loadedWithoutWorker = !navigator.serviceWorker.controller;
  const workbox = new Workbox(SW_URL, { scope: '/' });
  let registration: ServiceWorkerRegistration | undefined;

  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  const render = (visible: boolean) =>
    root.render(
      <I18nextProvider i18n={i18n}>
        <UpdateNotice visible={visible} onReload={reload} onDismiss={() => render(false)} />
      </I18nextProvider>,
    );
  function reload() {
    // Another tab may have let the new version in already: then a reload is all that is left.
    if (!registration?.waiting) return reloadPage();
    workbox.addEventListener('controlling', reloadPage);
    workbox.messageSkipWaiting();
  }
  workbox.addEventListener('waiting', () => render(true));
  render(false);

  try {
    registration = await workbox.register({ immediate: true });
  } catch {
    // No worker (blocked, private mode, an error in it): the app runs as a plain page.
    return;
  }
  if (!registration) return;
  if (loadedWithoutWorker) void cacheFirstView(workbox);
  setInterval(() => {
    if (navigator.onLine) registration?.update().catch(() => undefined);
  }, UPDATE_CHECK_MS);
}

/**
 * A page loaded before a worker controlled it (the first visit) fetched its code, language and screen
 * past the worker: it names those files so the next start finds them, offline too. (The worker caches
 * the page itself when it activates.)
 */
async function cacheFirstView(workbox: Workbox): Promise<void> {
  await workbox.active;
  const loaded = performance.getEntriesByType('resource').map((entry) => entry.name);
  const urls = firstViewAssets(loaded, window.location.origin);
  if (urls.length) await workbox.messageSW(cacheUrlsMessage(urls));
}
