import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaSummary, RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores } from '../../stores/index.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { LandingPage } from './landing-page.tsx';
import { WALL_TILES, wallPosters } from './poster-wall.tsx';

const title = (
  type: 'movie' | 'tv',
  n: number,
  poster: string | null = `/api/images/w342/${type}-${n}.jpg`,
) =>
  ({
    id: String(n),
    type,
    title: `${type} ${n}`,
    year: 2020,
    releaseDate: '2020-01-01',
    poster,
  }) satisfies MediaSummary;

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ variant: 'subscription', freeMovieOfTheMonth: null } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
});
afterEach(() => vi.unstubAllGlobals());

function serve(lists: { movie: MediaSummary[]; tv: MediaSummary[] }) {
  const server = contractServer({
    metadata: { list: ({ params }) => ({ results: lists[params.type as 'movie' | 'tv'] }) },
  });
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

function renderLanding() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>
          <LandingPage />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('the landing hero', () => {
  it("shows the catalog's popular posters behind the headline and Get started", async () => {
    const server = serve({ movie: [title('movie', 1), title('movie', 2)], tv: [title('tv', 3)] });
    renderLanding();
    const hero = screen.getByTestId('landing-hero');
    expect(
      within(hero).getByRole('heading', { level: 1, name: 'Movies and shows for the whole household' }),
    ).toBeTruthy();
    expect(within(hero).getByRole('link', { name: 'Get started' }).getAttribute('href')).toBe('/login');
    expect(within(hero).getByRole('link', { name: 'Create an account' })).toBeTruthy();

    const posters = await within(hero).findAllByTestId('hero-poster');
    expect(posters.slice(0, 3).map((img) => img.getAttribute('src'))).toEqual([
      '/api/images/w342/movie-1.jpg',
      '/api/images/w342/tv-3.jpg',
      '/api/images/w342/movie-2.jpg',
    ]);
    expect(server.requests.map((r) => r.endpoint)).toContain('metadata.list');
    // Decoration: no names for a screen reader to read out, and the wall is hidden from it.
    for (const img of posters) expect(img.getAttribute('alt')).toBe('');
    expect(screen.getByTestId('poster-wall').getAttribute('aria-hidden')).toBe('true');
    expect(within(hero).queryAllByRole('img')).toHaveLength(0);
  });

  it('has every tile in place before the posters arrive, and after a list fails, so nothing moves', async () => {
    const tiles = () => screen.getByTestId('poster-wall').firstElementChild?.children.length;
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    const pending = renderLanding();
    expect(tiles()).toBe(WALL_TILES);
    expect(screen.queryAllByTestId('hero-poster')).toHaveLength(0);
    pending.unmount();

    const failing = contractServer({
      metadata: { list: () => refuse(503, { code: 'metadata_unavailable' }) },
    });
    vi.stubGlobal('fetch', failing.fetch);
    const failed = renderLanding();
    await waitFor(() => expect(failing.requests).toHaveLength(2));
    expect(tiles()).toBe(WALL_TILES);
    expect(screen.getByRole('link', { name: 'Get started' })).toBeTruthy();
    failed.unmount();

    // A catalog with one popular title still fills the wall.
    serve({ movie: [title('movie', 1)], tv: [] });
    renderLanding();
    expect(await screen.findAllByTestId('hero-poster')).toHaveLength(WALL_TILES);
    expect(tiles()).toBe(WALL_TILES);
  });
});

describe('the plan banner', () => {
  it('holds its place while the prices load — its heading, text and a row of price pills — so nothing below moves', async () => {
    vi.stubGlobal('fetch', () => new Promise<Response>(() => {}));
    renderLanding();
    const loading = screen.getByTestId('plan-banner-loading');
    expect(loading.getAttribute('aria-busy')).toBe('true');
    expect(within(loading).getByRole('heading', { level: 2 }).textContent).toBe('Everything, from … a month');
    expect(loading.querySelectorAll('li')).toHaveLength(2);
    // The features come after it from the first paint on (they were pushed down when the prices came).
    expect(
      loading.compareDocumentPosition(screen.getByRole('heading', { name: 'Made for watching' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });
});

describe('wallPosters', () => {
  it('alternates movies and shows, skips titles without a poster and repeats to fill the wall', () => {
    const movies = [title('movie', 1), title('movie', 2, null), title('movie', 3)];
    const shows = [title('tv', 4)];
    expect(wallPosters(movies, shows, 5)).toEqual([
      '/api/images/w342/movie-1.jpg',
      '/api/images/w342/tv-4.jpg',
      '/api/images/w342/movie-3.jpg',
      '/api/images/w342/movie-1.jpg',
      '/api/images/w342/tv-4.jpg',
    ]);
    expect(wallPosters([title('movie', 1, null)], [], 5)).toEqual([]);
  });
});
