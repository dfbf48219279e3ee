import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ContentLimit, MediaSummary, RuntimeConfig } from '@marquee/contract';
import { DiscoverPage } from '../features/discover/discover-page.tsx';
import { initI18n, NAMESPACES } from '../lib/i18n.ts';
import { createQueryClient } from '../lib/query-client.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../lib/storage.ts';
import { initStores } from '../stores/index.ts';
import { testCustomer, testEmailAccount } from '../test/account-fixtures.ts';
import { contractServer } from '../test/contract-server.ts';
import { preloadRouteData } from './router.tsx';

const titles = (prefix: string): MediaSummary[] =>
  Array.from({ length: 20 }, (_, i) => ({
    id: `${prefix}${i}`,
    type: 'movie',
    title: `${prefix} ${i}`,
    year: 2001,
    releaseDate: '2001-01-01',
    poster: null,
  }));

/** An instance whose lists answer 20 titles each, and no genres. */
const instance = () =>
  contractServer({
    metadata: {
      list: ({ params, query }) => ({ results: titles(`${params.list}-${query.language}-`) }),
      genres: () => ({ genres: [] }),
      discover: () => ({ results: [] }),
    },
  });

beforeEach(() => {
  setRuntimeConfig({ hasOnboarding: false } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  vi.stubGlobal('IntersectionObserver', undefined);
});
afterEach(() => vi.unstubAllGlobals());

describe("the opened page's data, asked for beside the app's code", () => {
  it("is not asked for a kids' profile before its session is there to keep the answers to its limit", () => {
    const server = instance();
    vi.stubGlobal('fetch', server.fetch);
    const account = (kids: ContentLimit | null) => ({
      state: {
        account: {
          ...testEmailAccount({
            ...testCustomer(),
            profiles: [{ _id: 'kid', fullname: 'Kid', icon: 'cat', kids }],
          }),
          profileId: 'kid',
        },
      },
      version: 1,
    });
    const storage = memoryStorage();
    setAppStorage(storage);
    storage.setItem(
      'marquee:account',
      JSON.stringify(account({ region: 'US', maxAge: 10, showUnrated: false })),
    );
    // A query asked for is in the client's cache at once (its request follows).
    const asked = (path: string) => {
      const client = createQueryClient();
      preloadRouteData(client, path, 'en');
      return client
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey[0]);
    };
    expect([asked('/media/tmdb-movie-603-the-matrix'), asked('/discover')]).toEqual([[], []]);
    storage.setItem('marquee:account', JSON.stringify(account(null)));
    expect(asked('/media/tmdb-movie-603-the-matrix')).toEqual(['media']);
  });

  it("Discover's first two rows, in the start language, are the answers its page then shows", async () => {
    const server = instance();
    vi.stubGlobal('fetch', server.fetch);
    const client = createQueryClient();
    preloadRouteData(client, '/discover', 'fr');
    const lists = () =>
      server.requests
        .filter((r) => r.endpoint === 'metadata.list' && r.url.includes('/movie/'))
        .map((r) => r.url);
    expect(lists()).toEqual([
      expect.stringMatching(/\/now_playing\?language=fr$/),
      expect.stringMatching(/\/top_rated\?language=fr$/),
    ]);

    const i18next = await initI18n('fr', NAMESPACES);
    render(
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={client}>
          <MemoryRouter>
            <DiscoverPage />
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    await waitFor(() => expect(screen.getAllByTestId('carousel-items').length).toBeGreaterThanOrEqual(2));
    expect(screen.getAllByText(/^now_playing-fr-/).length).toBeGreaterThan(0);
    // The page asked again only for what was not preloaded: each preloaded row came over the wire once.
    expect(lists().filter((u) => /now_playing|top_rated/.test(u))).toHaveLength(2);
    expect(lists()).toHaveLength(3); // and the third movie row, which the page asks for itself
  });

  it('a language the app does not speak asks in English, as the page will', () => {
    const server = instance();
    vi.stubGlobal('fetch', server.fetch);
    preloadRouteData(new QueryClient(), '/discover', 'xx');
    expect(server.requests.map((r) => r.url)).toEqual([
      expect.stringMatching(/language=en$/),
      expect.stringMatching(/language=en$/),
    ]);
  });

  it('nothing for a page whose data is not known before its code runs', () => {
    const server = instance();
    vi.stubGlobal('fetch', server.fetch);
    preloadRouteData(new QueryClient(), '/about', 'en');
    expect(server.requests).toEqual([]);
  });
});
