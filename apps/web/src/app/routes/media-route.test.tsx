import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MediaDetails, RuntimeConfig, SeasonDetails } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useLibraryStore } from '../../stores/index.ts';
import { contractServer } from '../../test/contract-server.ts';
import { movieDetails } from '../../test/media-fixtures.ts';
import { MediaRoute } from './media-route.tsx';

// The player's slot is under test, not the title page below it (its own tests cover it), nor the
// player's insides: a stand-in player says that it was mounted, and for what.
vi.mock('../../features/title/media-page.tsx', () => ({
  MediaPage: ({ onPlay }: { onPlay?: () => void }) =>
    onPlay ? (
      <button type="button" data-testid="title-play" onClick={onPlay}>
        Play
      </button>
    ) : null,
}));
vi.mock('../../features/player/view.ts', () => ({
  PlayerView: ({ meta }: { meta: { title: string; episode?: { number: number } } }) => (
    <div data-testid="player-view">
      {meta.title}
      {meta.episode ? ` E${meta.episode.number}` : ''}
    </div>
  ),
}));

const NOW = new Date('2026-04-20T10:00:00Z');
const realNow = clock.now;

const show = (overrides: Partial<MediaDetails> = {}): MediaDetails =>
  movieDetails({
    id: '1396',
    type: 'tv',
    title: 'Breaking Bad',
    year: 2008,
    releaseDate: '2008-01-20',
    imdbId: null,
    seasons: [{ id: '3572', number: 1, title: 'Season 1', episodeCount: 3, airDate: '2008-01-20' }],
    ...overrides,
  });
const season = (airDates: (string | null)[]): SeasonDetails => ({
  id: '3572',
  number: 1,
  title: 'Season 1',
  episodes: airDates.map((airDate, i) => ({
    id: `6208${i + 1}`,
    number: i + 1,
    title: `Episode ${i + 1}`,
    airDate,
    overview: null,
    runtime: 47,
    still: null,
  })),
});

let i18next: i18n;
let server: ReturnType<typeof contractServer>;
function serve(details: MediaDetails, episodes?: SeasonDetails) {
  server = contractServer({
    metadata: {
      details: () => details,
      ...(episodes ? { season: () => episodes } : {}),
    },
  });
  vi.stubGlobal('fetch', server.fetch);
}

beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ hasOnboarding: false } as unknown as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  clock.now = () => NOW;
});
afterEach(() => {
  clock.now = realNow;
  vi.unstubAllGlobals();
});

function Where() {
  return <p data-testid="where">{useLocation().pathname}</p>;
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={[path]}>
          <Routes>
            <Route path="/media/:media" element={<MediaRoute />} />
            <Route path="/media/:media/:season/:episode" element={<MediaRoute />} />
          </Routes>
          <Where />
        </MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );
}

/** The title page's Play (a title opens as its page first, docs/architecture.md). */
async function pressPlay() {
  (await screen.findByTestId('title-play')).click();
}

/** The slot's state once the details are in: the Unreleased state, and the player not mounted. */
async function expectUnreleased(line: string) {
  const slot = await screen.findByTestId('player-unreleased');
  expect(slot.textContent).toContain('Unreleased');
  expect(slot.textContent).toContain(line);
  expect(screen.queryByTestId('player-view')).toBeNull();
  expect(screen.queryByTestId('player-placeholder')).toBeNull();
}

describe('the media route and the release rule', () => {
  it('does not mount the player for a film that comes out later; it says when', async () => {
    serve(movieDetails({ id: '1368337', title: 'The Odyssey', year: 2026, releaseDate: '2026-07-15' }));
    renderAt('/media/tmdb-movie-1368337-the-odyssey');
    await expectUnreleased('Releases on July 15, 2026');
  });

  it('does not mount the player for a film without a release date', async () => {
    serve(movieDetails({ id: '999', title: 'Untitled Project', year: null, releaseDate: null }));
    renderAt('/media/tmdb-movie-999');
    await expectUnreleased('No release date yet');
  });

  it('plays a film from its release day on', async () => {
    serve(movieDetails({ id: '936075', title: 'Michael', year: 2026, releaseDate: '2026-04-20' }));
    renderAt('/media/tmdb-movie-936075-michael');
    // Nothing of the player before Play.
    await screen.findByTestId('title-play');
    expect(screen.queryByTestId('player-view')).toBeNull();
    await pressPlay();
    expect((await screen.findByTestId('player-view')).textContent).toBe('Michael');
    expect(screen.queryByTestId('player-unreleased')).toBeNull();
  });

  it('a direct link to an episode that airs later shows when it airs, not the player', async () => {
    serve(show(), season(['2008-01-20', '2026-04-27']));
    renderAt('/media/tmdb-tv-1396-breaking-bad/3572/62082');
    await expectUnreleased('Airs April 27, 2026');
  });

  it('a show whose first episode has no air date opens on that episode’s state, not the player', async () => {
    serve(show({ releaseDate: '2008-01-20' }), season([null, null]));
    renderAt('/media/tmdb-tv-1396-breaking-bad');
    await pressPlay();
    await expectUnreleased('No release date yet');
    expect(screen.getByTestId('where').textContent).toBe('/media/tmdb-tv-1396-breaking-bad/3572/62081');
  });

  it('a show that has not started does not open an episode at all', async () => {
    serve(show({ releaseDate: null, year: null }), season([null]));
    renderAt('/media/tmdb-tv-1396-breaking-bad');
    await expectUnreleased('No release date yet');
    expect(screen.getByTestId('where').textContent).toBe('/media/tmdb-tv-1396-breaking-bad');
  });

  it('deep links to an aired episode still play', async () => {
    serve(show(), season(['2008-01-20', '2008-01-27', '2026-05-01']));
    renderAt('/media/tmdb-tv-1396-breaking-bad/3572/62082');
    await waitFor(() => expect(screen.getByTestId('player-view').textContent).toBe('Breaking Bad E2'));
    expect(screen.queryByTestId('player-unreleased')).toBeNull();
  });

  it("a show's title opens where the viewer is (from any device), not at its pilot", async () => {
    // The pilot's first seconds used to overwrite the saved place.
    serve(show(), season(['2008-01-20', '2008-01-27', '2008-02-10']));
    useLibraryStore.getState().saveProgress({
      meta: { tmdbId: '1396', type: 'show', title: 'Breaking Bad', year: 2008, poster: null },
      watched: 300,
      duration: 2820,
      season: { id: '3572', number: 1, title: 'Season 1' },
      episode: { id: '62083', number: 3, title: 'Episode 3' },
    });
    renderAt('/media/tmdb-tv-1396-breaking-bad');
    await pressPlay();
    await waitFor(() =>
      expect(screen.getByTestId('where').textContent).toBe('/media/tmdb-tv-1396-breaking-bad/3572/62083'),
    );
    await waitFor(() => expect(screen.getByTestId('player-view').textContent).toBe('Breaking Bad E3'));
  });
});
