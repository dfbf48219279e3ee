import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { SearchBar } from '../features/search/index.ts';
import { initI18n, NAMESPACES } from '../lib/i18n.ts';
import { setRuntimeConfig } from '../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../lib/storage.ts';
import { initStores, useAccountStore } from '../stores/index.ts';
import { testAccount } from '../test/account-fixtures.ts';
import { contractServer } from '../test/contract-server.ts';
import { AppLayout } from './app-layout.tsx';

/*
 * Issue 15: the header on a phone. Every signed-in page but home (which has its big search box) offers
 * search in the header: on a phone a search button (the box is shown from sm up only) that opens the
 * home page's search with its field focused.
 */

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  vi.stubGlobal('fetch', contractServer({}).fetch);
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      {
        element: <AppLayout />,
        children: [
          { path: '/', element: <SearchBar value="" onChange={() => undefined} onClear={() => undefined} /> },
          { path: '/browse/:query?', element: <p>results</p> },
          { path: '/discover', element: <p>discover</p> },
          { path: '/mylist', element: <p>my list</p> },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient()}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}

const header = () => within(screen.getByRole('banner'));
const phoneSearch = () => header().queryByRole('link', { name: 'Search movies and shows' });

describe('search in the header', () => {
  beforeEach(() => useAccountStore.getState().setAccount(testAccount()));

  it('outside home, a phone gets a search button; it opens the home search with the field focused', async () => {
    const router = renderAt('/discover');
    // Its code loads after the page's (a visitor's first view has no header search).
    const button = await header().findByRole('link', { name: 'Search movies and shows' });
    expect(button.getAttribute('href')).toBe('/');
    // The laptop's box is there too (shown from sm up).
    expect(header().getByTestId('header-search')).toBeTruthy();

    await act(async () => {
      fireEvent.click(button);
    });
    expect(router.state.location.pathname).toBe('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search movies and shows' }));
  });

  it('is on My List too', async () => {
    renderAt('/mylist');
    expect(await header().findByRole('link', { name: 'Search movies and shows' })).toBeTruthy();
  });

  /** The header search's code is there: had the header asked for it, it would show now. */
  const searchCodeLoaded = () =>
    act(async () => {
      await import('../features/search/header-search.tsx');
    });

  it.each(['/', '/browse/matrix'])('%s has its own search box: none in the header', async (path) => {
    renderAt(path);
    await searchCodeLoaded();
    expect(phoneSearch()).toBeNull();
    expect(header().queryByTestId('header-search')).toBeNull();
  });

  it('a subscription site’s My List is the home screen, with its own box: none in the header', async () => {
    setRuntimeConfig({ instanceName: 'Marquee', variant: 'subscription' } as RuntimeConfig);
    renderAt('/mylist');
    await searchCodeLoaded();
    expect(phoneSearch()).toBeNull();
    expect(header().queryByTestId('header-search')).toBeNull();
  });

  it('arriving at home any other way does not grab focus', () => {
    renderAt('/');
    expect(document.activeElement).not.toBe(screen.getByRole('searchbox'));
  });
});

describe('the header’s wording', () => {
  it('signed in: My List', () => {
    useAccountStore.getState().setAccount(testAccount());
    renderAt('/discover');
    expect(header().getByRole('link', { name: 'My List' }).getAttribute('href')).toBe('/mylist');
  });

  it('signed out: a Sign in link, no search and no My List', () => {
    renderAt('/discover');
    expect(header().getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/login');
    expect(phoneSearch()).toBeNull();
    expect(header().queryByRole('link', { name: 'My List' })).toBeNull();
  });

  it('names the home link by the instance even on a phone, where only the logo shows', () => {
    renderAt('/discover');
    expect(header().getByRole('link', { name: 'Marquee' }).getAttribute('href')).toBe('/');
  });
});
