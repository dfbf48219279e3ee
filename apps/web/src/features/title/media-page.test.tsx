import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { contractServer, refuse } from '../../test/contract-server.ts';
import { movieDetails } from '../../test/media-fixtures.ts';
import { MediaPage } from './media-page.tsx';

const matrix = movieDetails({
  poster: '/api/images/w342/matrix.jpg',
  backdrop: '/api/images/w1280/matrix-backdrop.jpg',
  overview: 'A hacker learns what the Matrix is.',
  tagline: 'Welcome to the Real World.',
  genres: [
    { id: 28, name: 'Action' },
    { id: 878, name: 'Science Fiction' },
  ],
  rating: { average: 8.2, count: 26000 },
  contentRating: 'R',
  cast: [
    { id: '6384', name: 'Keanu Reeves', role: 'Neo', photo: '/api/images/w185/keanu.jpg' },
    { id: '2975', name: 'Laurence Fishburne', role: 'Morpheus', photo: null },
  ],
  crew: [
    {
      id: '9339',
      name: 'Lana Wachowski',
      role: 'Director, Screenplay',
      photo: null,
      jobs: ['director', 'writer'],
    },
  ],
  trailers: [
    { name: 'Official Trailer', site: 'YouTube', url: 'https://www.youtube.com/watch?v=vKQi3bBA1y8' },
  ],
  watchProviders: {
    region: 'FR',
    link: 'https://www.themoviedb.org/movie/603/watch?locale=FR',
    providers: [
      { id: 8, name: 'Netflix', logo: '/api/images/w92/netflix.jpg', kind: 'flatrate' },
      { id: 2, name: 'Apple TV', logo: null, kind: 'rent' },
    ],
  },
  recommendations: [
    {
      id: '604',
      type: 'movie',
      title: 'The Matrix Reloaded',
      year: 2003,
      releaseDate: '2003-05-15',
      poster: null,
    },
  ],
});

let i18next: i18n;
const asked: URL[] = [];
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({
    variant: 'open',
    captcha: { provider: 'none', siteKey: null },
  } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  asked.length = 0;
  const server = contractServer({ metadata: { details: () => matrix } });
  vi.stubGlobal('fetch', (input: string | URL | Request, init?: RequestInit) => {
    asked.push(new URL(String(input), 'http://localhost'));
    return server.fetch(input, init);
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderPage(onPlay?: () => void) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/media/tmdb-movie-603-the-matrix']}>
          <Routes>
            <Route path="/media/:media" element={<MediaPage onPlay={onPlay} />} />
          </Routes>
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

describe('the title page', () => {
  it('shows what streaming apps show of a title, with nothing that plays by itself', async () => {
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'The Matrix' });
    expect(screen.getByTestId('title-backdrop').getAttribute('src')).toBe(
      '/api/images/w1280/matrix-backdrop.jpg',
    );
    expect(screen.getByTestId('title-tagline').textContent).toBe('Welcome to the Real World.');
    expect(screen.getByTestId('title-content-rating').textContent).toContain('R');
    expect(screen.getByTestId('title-rating').textContent).toContain('Rated 8.2 out of 10 by 26,000 viewers');
    expect(screen.getByText('136 min')).toBeTruthy();

    // Below the header, the page comes in a second (interruptible) render.
    const cast = within(await screen.findByTestId('title-cast'));
    expect(cast.getByText('Keanu Reeves')).toBeTruthy();
    expect(cast.getByText('Neo')).toBeTruthy();
    // No photo: the person's initials, not a broken image.
    expect(cast.getByText('LF')).toBeTruthy();
    expect(within(screen.getByTestId('title-crew')).getByText('Director, Writer')).toBeTruthy();

    // A trailer is a link to the video site, opened on demand in a new tab; nothing is embedded.
    const trailer = within(screen.getByTestId('title-trailers')).getByRole('link', {
      name: /Official Trailer/,
    });
    expect(trailer.getAttribute('href')).toBe('https://www.youtube.com/watch?v=vKQi3bBA1y8');
    expect(trailer.getAttribute('target')).toBe('_blank');
    expect(document.querySelector('iframe, video')).toBeNull();

    const watch = within(screen.getByTestId('title-watch'));
    expect(watch.getByRole('heading', { name: 'Where to watch in France' })).toBeTruthy();
    expect(watch.getByText('Stream')).toBeTruthy();
    expect(watch.getByText('Netflix')).toBeTruthy();
    expect(watch.getByText('Rent')).toBeTruthy();
    expect(watch.queryByText('Buy')).toBeNull();

    expect(within(screen.getByTestId('title-more')).getByText('The Matrix Reloaded')).toBeTruthy();
    // The details were asked for in the viewer's region.
    expect(asked.some((url) => /^[A-Z]{2}$/.test(url.searchParams.get('region') ?? ''))).toBe(true);
  });

  it('metadata that failed to load is said once (an alert) and Try again, the primary action, loads it', async () => {
    let fail = true;
    const server = contractServer({
      metadata: { details: () => (fail ? refuse(503, { code: 'metadata_unavailable' }) : matrix) },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Failed to load metadata' })).toBeTruthy();
    expect(within(alert).queryByRole('button')).toBeNull();
    const actions = screen.getByTestId('media-error').querySelectorAll('a, button');
    expect(Array.from(actions, (a) => a.textContent)).toEqual(['Try again', 'Back to home']);
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'The Matrix' })).toBeTruthy();
  });

  it('offers Play only where the player waits behind the page', async () => {
    const onPlay = vi.fn();
    const { unmount } = renderPage(onPlay);
    fireEvent.click(await screen.findByTestId('title-play'));
    expect(onPlay).toHaveBeenCalledTimes(1);
    unmount();
    renderPage();
    await screen.findByRole('heading', { level: 1, name: 'The Matrix' });
    expect(screen.queryByTestId('title-play')).toBeNull();
  });

  it('a movie watched past 80 %: Play resumes where the viewer was, Start over plays from the beginning', async () => {
    const meta = { tmdbId: '603', type: 'movie' as const, title: 'The Matrix', year: 1999, poster: null };
    // 70 %: Play resumes, nothing else is offered.
    useLibraryStore.getState().saveProgress({ meta, watched: 5712, duration: 8160 });
    const onPlay = vi.fn();
    const { unmount } = renderPage(onPlay);
    expect((await screen.findByTestId('title-play')).textContent).toBe('Play');
    expect(screen.queryByTestId('title-start-over')).toBeNull();
    unmount();
    // 85 % (1:38:36 of 2:16:00): both, and Start over asks for the beginning.
    useLibraryStore.getState().saveProgress({ meta, watched: 5916, duration: 6960 });
    renderPage(onPlay);
    expect((await screen.findByTestId('title-play')).textContent).toBe('Resume from 1:38:36');
    fireEvent.click(screen.getByTestId('title-play'));
    fireEvent.click(screen.getByRole('button', { name: 'Start over' }));
    expect(onPlay.mock.calls).toEqual([[], [{ fromStart: true }]]);
  });
});

describe('a show’s seasons', () => {
  const show = movieDetails({
    id: '1396',
    type: 'tv',
    title: 'Breaking Bad',
    runtime: 47,
    status: 'ended',
    seasons: [{ id: '3572', number: 1, title: 'Season 1', episodeCount: 7, airDate: '2008-01-20' }],
  });
  function renderShow() {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    return render(
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={['/media/tmdb-tv-1396-breaking-bad']}>
            <Routes>
              <Route path="/media/:media" element={<MediaPage />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
  }

  it('the whole show marked watched: every aired episode of every season (specials and future ones aside), then unmarked', async () => {
    const threeSeasons = {
      ...show,
      seasons: [
        { id: '3571', number: 0, title: 'Specials', episodeCount: 1, airDate: '2009-02-17' },
        { id: '3572', number: 1, title: 'Season 1', episodeCount: 2, airDate: '2008-01-20' },
        { id: '3573', number: 2, title: 'Season 2', episodeCount: 2, airDate: '2009-03-08' },
      ],
    };
    const asked: number[] = [];
    const server = contractServer({
      metadata: {
        details: () => threeSeasons,
        season: ({ params }) => {
          const n = Number(params.number);
          asked.push(n);
          return {
            id: `357${n + 1}`,
            number: n,
            title: `Season ${n}`,
            episodes: [1, 2].map((e) => ({
              id: `${n}0${e}`,
              number: e,
              title: `Episode ${n}.${e}`,
              // The last episode of season 2 has not aired.
              airDate: n === 2 && e === 2 ? '2999-01-01' : '2009-03-08',
              overview: null,
              runtime: 47,
              still: null,
            })),
          };
        },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderShow();
    const toggle = await screen.findByRole('button', { name: 'Mark the whole show as watched' });
    fireEvent.click(toggle);
    await screen.findByRole('button', { name: 'Mark the whole show as not watched' });
    const plays = () =>
      Object.values(useLibraryStore.getState().history)
        .map((p) => p.episode?.id)
        .sort();
    expect(plays()).toEqual(['101', '102', '201']);
    // In episode order, so the show's last episode is the one watched last.
    const byTime = Object.values(useLibraryStore.getState().history).sort(
      (a, b) => a.watchedAt - b.watchedAt,
    );
    expect(byTime.map((p) => p.episode?.id)).toEqual(['101', '102', '201']);
    expect(asked).not.toContain(0);
    fireEvent.click(screen.getByRole('button', { name: 'Mark the whole show as not watched' }));
    expect(plays()).toEqual([]);
    expect(screen.getByRole('button', { name: 'Mark the whole show as watched' })).toBeTruthy();
  });

  it('a season the metadata does not have lists no episodes (not "down or blocked")', async () => {
    const server = contractServer({
      metadata: { details: () => show, season: () => refuse(404, { code: 'media_not_found' }) },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderShow();
    expect(await screen.findByText('There are no episodes in this season yet.')).toBeTruthy();
    expect(screen.queryByText('Error loading season')).toBeNull();
    expect(screen.getByText('47 min per episode')).toBeTruthy();
    expect(screen.getByText('Ended')).toBeTruthy();
  });

  it('a season that failed to load can be tried again', async () => {
    let fail = true;
    const server = contractServer({
      metadata: {
        details: () => show,
        season: () =>
          fail
            ? refuse(503, { code: 'metadata_unavailable' })
            : {
                id: '3572',
                number: 1,
                title: 'Season 1',
                episodes: [
                  {
                    id: '62085',
                    number: 1,
                    title: 'Pilot',
                    airDate: '2008-01-20',
                    overview: 'A teacher turns to crime.',
                    runtime: 58,
                    still: null,
                  },
                ],
              },
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    renderShow();
    expect(await screen.findByText('Error loading season')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Pilot')).toBeTruthy();
    expect(screen.getByText('58 min')).toBeTruthy();
    expect(screen.getByText('A teacher turns to crime.')).toBeTruthy();
  });

  it('a show the viewer is watching: Play says which episode it resumes, the list opens at its season with its progress', async () => {
    const twoSeasons = {
      ...show,
      seasons: [
        { id: '3572', number: 1, title: 'Season 1', episodeCount: 7, airDate: '2008-01-20' },
        { id: '3573', number: 2, title: 'Season 2', episodeCount: 13, airDate: '2009-03-08' },
      ],
    };
    const episodes = (season: number) =>
      Array.from({ length: 5 }, (_, i) => ({
        id: `${season}0${i + 1}`,
        number: i + 1,
        title: `Episode ${season}.${i + 1}`,
        airDate: '2009-03-08',
        overview: null,
        runtime: 47,
        still: null,
      }));
    const server = contractServer({
      metadata: {
        details: () => twoSeasons,
        season: ({ params }) => ({
          id: String(params.number) === '2' ? '3573' : '3572',
          number: Number(params.number),
          title: `Season ${params.number}`,
          episodes: episodes(Number(params.number)),
        }),
      },
    });
    vi.stubGlobal('fetch', server.fetch);
    // Watched on another device: S2E4 to 5:00 of 47 minutes (synced into this library).
    useLibraryStore.getState().saveProgress({
      meta: { tmdbId: '1396', type: 'show', title: 'Breaking Bad', year: 2008, poster: null },
      watched: 300,
      duration: 2820,
      season: { id: '3573', number: 2, title: 'Season 2' },
      episode: { id: '204', number: 4, title: 'Episode 2.4' },
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <I18nextProvider i18n={i18next}>
        <QueryClientProvider client={client}>
          <MemoryRouter initialEntries={['/media/tmdb-tv-1396-breaking-bad']}>
            <Routes>
              <Route path="/media/:media" element={<MediaPage onPlay={() => {}} />} />
            </Routes>
          </MemoryRouter>
        </QueryClientProvider>
      </I18nextProvider>,
    );
    expect((await screen.findByTestId('title-play')).textContent).toBe('Resume S2 E4');
    expect((await screen.findByText('Episode 2.4')).tagName).toBe('BDI');
    expect((screen.getByTestId('season-select') as HTMLSelectElement).value).toBe('3573');
    const bars = screen.getAllByTestId('watched-bar');
    expect(bars).toHaveLength(1);
    expect(bars[0]!.getAttribute('aria-valuenow')).toBe('11');
    expect(bars[0]!.closest('[data-testid="episode"]')!.textContent).toContain('Episode 2.4');
  });
});
