import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Genre, MediaSummary, RuntimeConfig } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { contractServer } from '../../test/contract-server.ts';
import { DiscoverPage } from './discover-page.tsx';
import { WatchSomethingNew } from './watch-something-new.tsx';

const NOW = new Date('2026-04-20T10:00:00Z');
const realNow = clock.now;

const titles = (prefix: string, type: 'movie' | 'tv', count: number, releaseDate = '2001-01-01') =>
  Array.from({ length: count }, (_, i): MediaSummary => ({
    id: `${prefix}${i}`,
    type,
    title: `${prefix} ${i}`,
    year: Number(releaseDate.slice(0, 4)) || null,
    releaseDate,
    poster: null,
  }));

/** A metadata source: genres with how many titles each has (on its first page; later pages are empty). */
function serve(genres: { movie: [Genre, number][]; tv: [Genre, number][] }) {
  const server = contractServer({
    metadata: {
      list: ({ params }) => ({
        results: titles(`${params.type}-${params.list}-`, params.type as 'movie', 20),
      }),
      genres: ({ params }) => ({ genres: genres[params.type as 'movie' | 'tv'].map(([g]) => g) }),
      discover: ({ params, query }) => {
        const type = params.type as 'movie' | 'tv';
        const found = genres[type].find(([g]) => String(g.id) === query.genre);
        const count = found && query.page === '1' ? found[1] : 0;
        return { results: titles(`${type}-g${query.genre}-`, type, count) };
      },
    },
  });
  vi.stubGlobal('fetch', server.fetch);
  return server;
}

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ hasOnboarding: false } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  clock.now = () => NOW;
  // Every row counts as near the screen (the page's rows load as they come near it).
  vi.stubGlobal('IntersectionObserver', undefined);
});
afterEach(() => {
  clock.now = realNow;
  vi.unstubAllGlobals();
});

function renderIt(ui: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** Titles of the rows titled so far (a genre row is titled once its titles are in). */
const headings = () =>
  screen
    .queryAllByTestId('carousel')
    .map((row) => row.querySelector('h3')?.textContent)
    .filter((h) => h !== undefined);
const genreHeadings = () => headings().filter((h) => !/^(In Cinemas|Top Rated|Most Popular)/.test(h ?? ''));

const g = (id: number, name: string): Genre => ({ id, name });
/** Rows load one after the other when small genres come first in the shuffled order: a busy machine is slow. */
const ROWS_LOADED = { timeout: 10_000 };

describe('Discover rows are never empty', () => {
  it('skips genres with fewer than 8 titles and fills their places; names typed genres properly', async () => {
    serve({
      movie: [
        [g(28, 'Action'), 30],
        [g(35, 'Comedy'), 12],
        [g(10770, 'TV Movie'), 8],
        [g(37, 'Western'), 7],
        [g(18, 'Drama'), 40],
      ],
      tv: [
        [g(18, 'Drama'), 20],
        [g(35, 'Comedy'), 20],
        [g(80, 'Crime'), 20],
        [g(9648, 'Mystery'), 20],
        [g(16, 'Animation'), 20],
        [g(10767, 'Talk'), 20],
        [g(10766, 'Soap'), 0],
        [g(10762, 'Kids'), 1],
      ],
    });
    renderIt(<DiscoverPage />);
    // Whatever order the genres were shuffled in, the small ones give way to the others.
    await waitFor(() => expect(genreHeadings()).toHaveLength(10), ROWS_LOADED);
    const rows = genreHeadings();
    expect(rows.slice(0, 4).sort()).toEqual(['Action Movies', 'Comedy Movies', 'Drama Movies', 'TV Movies']);
    expect(rows.slice(4).sort()).toEqual([
      'Animation Shows',
      'Comedy Shows',
      'Crime Shows',
      'Drama Shows',
      'Mystery Shows',
      'Talk Shows',
    ]);
    expect(headings().join('|')).not.toMatch(/Western|Soap|Kids|TV Movie Movies/);
    // Every row shown has its titles (cards render in the background).
    await waitFor(() => {
      for (const row of screen.getAllByTestId('carousel'))
        expect(row.querySelectorAll('[data-testid="media-card"]').length).toBeGreaterThanOrEqual(8);
    }, ROWS_LOADED);
  }, 20_000);

  it('keeps every row and count when every genre is full (a TMDB key)', async () => {
    const full = (n: number, from: number) =>
      Array.from({ length: n }, (_, i): [Genre, number] => [g(from + i, `Genre ${from + i}`), 20]);
    serve({ movie: full(19, 100), tv: full(16, 200) });
    renderIt(<DiscoverPage />);
    await waitFor(() => expect(genreHeadings()).toHaveLength(10), ROWS_LOADED);
    const rows = genreHeadings();
    expect(rows.slice(0, 4).every((h) => /^Genre 1\d\d Movies$/.test(h ?? ''))).toBe(true);
    expect(rows.slice(4).every((h) => /^Genre 2\d\d Shows$/.test(h ?? ''))).toBe(true);
    expect(headings().slice(0, 3)).toEqual(['In Cinemas', 'Top Rated Movies', 'Most Popular Movies']);
    expect(headings().slice(7, 9)).toEqual(['Top Rated Shows', 'Most Popular Shows']);
  }, 20_000);
});

describe('watched movies hidden from Discover (decision 116)', () => {
  const watch = (id: string) =>
    useLibraryStore.getState().recordPlay({
      type: 'movie',
      tmdbId: id,
      title: id,
      year: 2001,
      poster: null,
      watchedAt: NOW.getTime(),
      watched: 0,
      duration: 0,
      completed: true,
    });
  const rowTitles = (name: string) => {
    const row = screen.getAllByTestId('carousel').find((r) => r.querySelector('h3')?.textContent === name);
    return [...(row?.querySelectorAll('[data-testid="media-card"]') ?? [])].map(
      (card) => card.querySelector('p')?.textContent,
    );
  };
  const genres = { movie: [[g(28, 'Action'), 20]], tv: [[g(18, 'Drama'), 20]] } as Parameters<
    typeof serve
  >[0];

  it('are shown unless the viewer hides them', async () => {
    watch('movie-popular-3');
    serve(genres);
    renderIt(<DiscoverPage />);
    await waitFor(() => expect(rowTitles('Most Popular Movies')).toHaveLength(20), ROWS_LOADED);
    expect(rowTitles('Most Popular Movies')).toContain('movie-popular- 3');
  });

  it('leave the rows once hidden, and come back when shown again; shows stay', async () => {
    watch('movie-popular-3');
    watch('movie-popular-5');
    watch('tv-popular-3');
    usePreferencesStore.getState().setPreferences({ hideWatchedInDiscover: true });
    serve(genres);
    renderIt(<DiscoverPage />);
    await waitFor(() => expect(rowTitles('Most Popular Movies')).toHaveLength(18), ROWS_LOADED);
    expect(rowTitles('Most Popular Movies')).not.toContain('movie-popular- 3');
    expect(rowTitles('Most Popular Movies')).not.toContain('movie-popular- 5');
    // A movie watched now leaves at once.
    act(() => watch('movie-popular-7'));
    await waitFor(() => expect(rowTitles('Most Popular Movies')).not.toContain('movie-popular- 7'));
    act(() => usePreferencesStore.getState().setPreferences({ hideWatchedInDiscover: false }));
    await waitFor(() => expect(rowTitles('Most Popular Movies')).toHaveLength(20));
    expect(rowTitles('Most Popular Shows')).toHaveLength(20);
  });
});

describe('Watch Something New', () => {
  const button = () => screen.getByTestId('watch-something-new');

  it('picks only released movies', async () => {
    const candidates = [
      ...titles('Later', 'movie', 3, '2026-07-15'),
      ...titles('Undated', 'movie', 3, ''),
      ...titles('Out', 'movie', 1, '2026-04-20'),
    ];
    renderIt(<WatchSomethingNew candidates={candidates} />);
    for (let i = 0; i < 12; i++) {
      act(() => fireEvent.click(button()));
      expect(button().textContent).toBe('Now Playing Out 0 in 5');
      act(() => fireEvent.click(button())); // cancels
    }
  });

  it('cannot start when none of the loaded movies is out', () => {
    renderIt(<WatchSomethingNew candidates={titles('Later', 'movie', 3, '2027-01-01')} />);
    expect((button() as HTMLButtonElement).disabled).toBe(true);
  });
});
