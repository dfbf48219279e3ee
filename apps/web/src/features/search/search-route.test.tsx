import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { contractServer } from '../../test/contract-server.ts';
import { SearchBar } from './search-bar.tsx';
import { SearchResults } from './search-results.tsx';
import { SEARCH_DEBOUNCE_MS, useSearchRoute } from './use-search-route.ts';

/** The browse screen's search as app/routes/home-route.tsx puts it together: box, then results or home. */
function Screen() {
  const search = useSearchRoute();
  const { pathname } = useLocation();
  return (
    <>
      <p data-testid="path">{pathname}</p>
      <SearchBar value={search.text} onChange={search.onChange} onClear={search.onClear} />
      {search.text.trim() ? <SearchResults search={search} /> : <p data-testid="home">home</p>}
    </>
  );
}

let i18next: i18n;
let server: ReturnType<typeof contractServer>;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  server = contractServer({ metadata: { search: () => ({ results: [] }) } });
  vi.stubGlobal('fetch', server.fetch);
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** The same routes as app/router.tsx: `/` and `/browse/:query?` both show the browse screen. */
function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/', element: <Screen /> },
      { path: '/browse/:query?', element: <Screen /> },
    ],
    { initialEntries: [path] },
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </I18nextProvider>,
  );
  return router;
}

const searches = () =>
  server.requests
    .filter((r) => r.endpoint === 'metadata.search')
    .map((r) => new URL(r.url, 'http://localhost').searchParams.get('query'));

const wait = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

/** Types `word` one character at a time, `gapMs` between keystrokes. */
async function type(word: string, gapMs: number, from = '') {
  for (let i = 1; i <= word.length; i++) {
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: from + word.slice(0, i) } });
    await wait(gapMs);
  }
}

describe('search while typing', () => {
  it('sends one request for "godfather" typed quickly, once typing pauses for 500 ms', async () => {
    const router = renderAt('/');
    await wait(0);
    await type('godfather', 120);
    expect(searches()).toEqual([]);
    expect(router.state.location.pathname).toBe('/browse/godfather');
    await wait(SEARCH_DEBOUNCE_MS - 120 - 1);
    expect(searches()).toEqual([]);
    await wait(1);
    expect(searches()).toEqual(['godfather']);
    await wait(5000);
    expect(searches()).toEqual(['godfather']);
  });

  it('sends one request per pause in typing, not per keystroke', async () => {
    renderAt('/');
    await wait(0);
    await type('god', 50);
    await wait(SEARCH_DEBOUNCE_MS);
    expect(searches()).toEqual(['god']);
    await type('father', 50, 'god');
    await wait(SEARCH_DEBOUNCE_MS);
    expect(searches()).toEqual(['god', 'godfather']);
  });

  it('searches a query the page was opened with at once', async () => {
    renderAt('/browse/matrix');
    await wait(0);
    expect(searches()).toEqual(['matrix']);
  });

  it('goes back to / when the search box is emptied, without a request', async () => {
    const router = renderAt('/');
    await wait(0);
    await type('al', 50);
    fireEvent.change(screen.getByRole('searchbox'), { target: { value: '' } });
    await wait(SEARCH_DEBOUNCE_MS * 2);
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByTestId('home')).toBeTruthy();
    expect(searches()).toEqual([]);
  });
});

describe('/browse/ without a query', () => {
  it.each(['/browse/', '/browse', '/browse/%20%20'])('%s returns to /', async (path) => {
    const router = renderAt(path);
    await wait(0);
    expect(router.state.location.pathname).toBe('/');
    expect(screen.getByTestId('path').textContent).toBe('/');
    // Replaced, not pushed: Back does not return to the empty /browse/.
    expect(router.state.historyAction).toBe('REPLACE');
    expect(searches()).toEqual([]);
  });
});
