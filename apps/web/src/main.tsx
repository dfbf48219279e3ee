import { startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './app/app.tsx';
import { pageNamespaces, preloadRouteCode, preloadRouteData } from './app/router.tsx';
import { clock } from './lib/clock.ts';
import { initI18n } from './lib/i18n.ts';
import { startLanguage } from './lib/languages.ts';
import { createQueryClient } from './lib/query-client.ts';
import { loadRuntimeConfig } from './lib/runtime-config.ts';
import { startServiceWorker } from './pwa/start.ts';
import { initStores, openLibraryStorage, storedLanguage, storesNeedMigration } from './stores/index.ts';
import './index.css';

// `?now=2026-04-20T10:00:00Z` pins the clock (used by the e2e suite to check date rules).
const pinned = new URLSearchParams(window.location.search).get('now');
if (pinned && !Number.isNaN(Date.parse(pinned))) {
  const offset = Date.parse(pinned) - Date.now();
  clock.now = () => new Date(Date.now() + offset);
}

// The opened page's code loads beside the config and catalogs, and the first render waits for it
// (the player page has nothing to show before it; a page shown without it would paint 300 ms late).
const routeCode = preloadRouteCode(window.location.pathname);

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));

async function boot() {
  const root = createRoot(document.getElementById('root') as HTMLElement);
  try {
    // The first render is in the viewer's language: the one chosen here before, else the browser's.
    const language = startLanguage(storedLanguage());
    const queryClient = createQueryClient();
    preloadRouteData(queryClient, window.location.pathname, language);
    const [, i18n, library] = await Promise.all([
      loadRuntimeConfig(),
      initI18n(language, pageNamespaces(window.location.pathname)),
      openLibraryStorage(),
      routeCode,
    ]);
    // Stored data is migrated before anything reads it; the screen shows while that runs.
    if (storesNeedMigration(library)) {
      // Only when stored data must be migrated: its code is not part of every start.
      const { MigrationScreen } = await import('./components/migration-screen.tsx');
      root.render(
        <I18nextProvider i18n={i18n}>
          <MigrationScreen />
        </I18nextProvider>,
      );
      await nextFrame();
    }
    void initStores(library);
    // The first render is a transition: React renders it in slices and lets the browser in between,
    // so mounting the whole app on a phone is no single long task (input stays responsive).
    startTransition(() => root.render(<App i18n={i18n} queryClient={queryClient} />));
    startServiceWorker(i18n);
  } catch (error) {
    // Nothing can be translated yet: a plain message beats a blank page.
    document.getElementById('root')!.textContent = `Marquee could not start: ${(error as Error).message}`;
  }
}

void boot();
