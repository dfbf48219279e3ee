import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { i18n } from 'i18next';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RuntimeConfig } from '@marquee/contract';
import { clock } from '../../lib/clock.ts';
import { initI18n, NAMESPACES } from '../../lib/i18n.ts';
import { setRuntimeConfig } from '../../lib/runtime-config.ts';
import { memoryStorage, setAppStorage } from '../../lib/storage.ts';
import { initStores, useAccountStore, useLibraryStore, usePreferencesStore } from '../../stores/index.ts';
import { testAccount } from '../../test/account-fixtures.ts';
import { contractServer } from '../../test/contract-server.ts';
import { movieDetails } from '../../test/media-fixtures.ts';
import { HomeLibrary } from './library-sections.tsx';
import { MyListPage } from './my-list-page.tsx';
import { AIR_CHECK_DELAY_MS } from './stop-watching.ts';

let i18next: i18n;
beforeEach(async () => {
  i18next = await initI18n('en', NAMESPACES);
  setRuntimeConfig({ instanceName: 'Marquee', variant: 'discovery' } as RuntimeConfig);
  setAppStorage(memoryStorage());
  initStores();
  useLibraryStore
    .getState()
    .addBookmark({ tmdbId: '603', type: 'movie', title: 'The Matrix', year: 1999, poster: null });
});

const realNow = clock.now;
afterEach(() => {
  clock.now = realNow;
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const renderIt = (ui: React.ReactNode) =>
  render(
    <I18nextProvider i18n={i18next}>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>{ui}</MemoryRouter>
      </QueryClientProvider>
    </I18nextProvider>,
  );

const BREAKING_BAD = {
  tmdbId: '1396',
  type: 'show',
  title: 'Breaking Bad',
  year: 2008,
  poster: null,
} as const;
/** Part way through Breaking Bad's S1 E3 (45 %). */
const watchBreakingBad = () =>
  useLibraryStore.getState().saveProgress({
    meta: BREAKING_BAD,
    season: { id: '3572', number: 1, title: 'Season 1' },
    episode: { id: '62087', number: 3, title: '...And the Bag’s in the River' },
    watched: 1305,
    duration: 2900,
  });
const optionsButton = () => screen.getByRole('button', { name: 'Remove or stop watching Breaking Bad' });
/** The show's menu loads with its first card (continue-menu.tsx): its button, once it is there. */
const loadedOptions = () => screen.findByRole('button', { name: 'Remove or stop watching Breaking Bad' });

describe('one name for the bookmarked titles: "My List", as navigation calls them', () => {
  it('the home page shows them under "My List"', () => {
    renderIt(<HomeLibrary empty={null} />);
    const section = screen.getByRole('region', { name: 'My List' });
    expect(section.querySelector('h2')?.textContent).toBe('My List');
    expect(screen.queryByText('Bookmarks')).toBeNull();
  });

  it('the My List page names them once, in its own heading', () => {
    renderIt(<MyListPage />);
    expect(screen.getAllByRole('heading', { name: 'My List' }).map((h) => h.tagName)).toEqual(['H1']);
    expect(screen.getByRole('region', { name: 'My List' }).textContent).toContain('The Matrix');
  });
});

describe('Continue Watching cards have the anatomy of every card', () => {
  it('type and year, the episode a show resumes at, how much is watched, and a way off the row', async () => {
    watchBreakingBad();
    renderIt(<HomeLibrary empty={null} />);
    const cont = screen.getByTestId('continue-card');
    expect(cont.textContent).toContain('Show · 2008 · S1 E3');
    const link = cont.querySelector('a');
    expect(link?.getAttribute('href')).toMatch(/\/media\/tmdb-tv-1396-breaking-bad\/3572\/62087$/);
    expect(screen.getByRole('progressbar', { name: '45% watched' }).getAttribute('aria-valuenow')).toBe('45');

    fireEvent.click(await loadedOptions());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Remove from Continue Watching' }));
    expect(screen.queryByTestId('continue-card')).toBeNull();
    // Removing deletes the title's progress (as before).
    expect(useLibraryStore.getState().progress['show:1396']).toBeUndefined();
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it("a movie's × still takes it off the row at once", () => {
    useLibraryStore.getState().saveProgress({
      meta: { tmdbId: '949', type: 'movie', title: 'Heat', year: 1995, poster: null },
      watched: 600,
      duration: 10_000,
    });
    renderIt(<HomeLibrary empty={null} />);
    const remove = screen.getByRole('button', { name: 'Remove Heat from Continue Watching' });
    expect(remove.getAttribute('aria-haspopup')).toBeNull();
    fireEvent.click(remove);
    expect(screen.queryByTestId('continue-card')).toBeNull();
  });
});

describe('stop watching a show (decision 102)', () => {
  it("the show's × is a menu button: two described items, walked by the arrows, Escape closes it", async () => {
    watchBreakingBad();
    renderIt(<HomeLibrary empty={null} />);
    const trigger = await loadedOptions();
    expect(trigger.getAttribute('aria-haspopup')).toBe('menu');
    expect(trigger.getAttribute('aria-expanded')).toBe('false');
    // 44 px touch targets: the button and every item.
    expect(trigger.className).toContain('h-11 w-11');

    fireEvent.keyDown(trigger, { key: 'Enter' });
    const menu = screen.getByRole('menu', { name: 'Remove or stop watching Breaking Bad' });
    expect(trigger.getAttribute('aria-expanded')).toBe('true');
    expect(trigger.getAttribute('aria-controls')).toBe(menu.id);
    const items = screen.getAllByRole('menuitem');
    expect(items.map((item) => item.className.includes('min-h-11'))).toEqual([true, true]);
    screen.getByRole('menuitem', {
      name: 'Remove from Continue Watching',
      description: 'Forgets where you stopped',
    });
    screen.getByRole('menuitem', {
      name: 'Stop watching this show',
      description: 'Hidden until a new episode airs. Your progress stays.',
    });
    expect(document.activeElement).toBe(items[0]);
    fireEvent.keyDown(items[0]!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(items[1]);

    fireEvent.keyDown(items[1]!, { key: 'Escape' });
    expect(screen.queryByRole('menu')).toBeNull();
    expect(document.activeElement).toBe(trigger);
    // Opened by a press, it closes on a press elsewhere.
    fireEvent.click(trigger);
    expect(screen.getByRole('menu')).toBeTruthy();
    fireEvent.pointerDown(document.body);
    expect(screen.queryByRole('menu')).toBeNull();
  });

  it('hides the show and keeps its progress, a synced mark; Undo brings the card back, focus on its button', async () => {
    useAccountStore.getState().setAccount(testAccount());
    watchBreakingBad();
    renderIt(<HomeLibrary empty={null} />);
    fireEvent.click(await loadedOptions());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stop watching this show' }));
    // The note's content loads with the first stop (stop-note.tsx).
    await screen.findByRole('button', { name: 'Undo' });

    expect(screen.queryByTestId('continue-card')).toBeNull();
    expect(useLibraryStore.getState().progress['show:1396']?.episodes['62087']?.progress.watched).toBe(1305);
    const marks = usePreferencesStore.getState().continueHidden;
    expect(Object.keys(marks)).toEqual(['show:1396']);
    expect(useLibraryStore.getState().outbox.filter((op) => op.kind === 'settings')).toMatchObject([
      { settings: { continueHidden: marks } },
    ]);
    const status = screen.getByRole('status');
    expect(status.textContent).toContain(
      'You stopped watching Breaking Bad. It comes back when a new episode airs.',
    );
    const undo = screen.getByRole('button', { name: 'Undo' });
    expect(document.activeElement).toBe(undo);

    fireEvent.click(undo);
    expect(screen.getByTestId('continue-card')).toBeTruthy();
    expect(usePreferencesStore.getState().continueHidden).toEqual({});
    expect(document.activeElement).toBe(optionsButton());
    expect(status.textContent).toBe('');
  });

  it('the last card stopped keeps the row and its Undo until the note is dismissed', async () => {
    useLibraryStore.getState().removeBookmark('movie', '603');
    watchBreakingBad();
    renderIt(<HomeLibrary empty={<p>Nothing here</p>} />);
    fireEvent.click(await loadedOptions());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stop watching this show' }));
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeTruthy();
    expect(screen.queryByText('Nothing here')).toBeNull();
    expect(screen.getByRole('heading', { name: 'Continue Watching' })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    // The show stays stopped; with nothing else, the page's empty state.
    expect(screen.getByText('Nothing here')).toBeTruthy();
  });

  it('a dismissed note leaves focus on the row’s heading, the other cards in place', async () => {
    watchBreakingBad();
    useLibraryStore.getState().saveProgress({
      meta: { tmdbId: '949', type: 'movie', title: 'Heat', year: 1995, poster: null },
      watched: 600,
      duration: 10_000,
    });
    renderIt(<HomeLibrary empty={null} />);
    fireEvent.click(await loadedOptions());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stop watching this show' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Continue Watching' }));
    expect(screen.getAllByTestId('continue-card').map((card) => card.textContent)).toEqual([
      expect.stringContaining('Heat'),
    ]);
    expect(screen.queryByRole('button', { name: 'Undo' })).toBeNull();
  });

  it("comes back once an episode aired after the day it was stopped: the show's details, asked for after the row", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clock.now = () => new Date('2024-05-01T12:00:00Z');
    watchBreakingBad();
    usePreferencesStore
      .getState()
      .setPreferences({ continueHidden: { 'show:1396': Date.parse('2024-05-02T12:00:00Z') } });
    let airDate = '2024-05-02';
    const server = contractServer({
      metadata: {
        details: () =>
          movieDetails({
            id: '1396',
            type: 'tv',
            title: 'Breaking Bad',
            lastEpisode: { season: 2, episode: 1, title: 'Seven Thirty-Seven', airDate },
          }),
      },
    });
    vi.stubGlobal('fetch', server.fetch);

    renderIt(<HomeLibrary empty={null} />);
    expect(screen.queryByTestId('continue-card')).toBeNull();
    // Nothing is asked for while the page first shows.
    expect(server.requests).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(AIR_CHECK_DELAY_MS));
    await vi.waitFor(() => expect(server.requests.map((r) => r.endpoint)).toEqual(['metadata.details']));
    // Aired on the day it was stopped: still stopped.
    expect(screen.queryByTestId('continue-card')).toBeNull();

    airDate = '2024-05-03';
    cleanupAndRender();
    await act(() => vi.advanceTimersByTimeAsync(AIR_CHECK_DELAY_MS));
    await vi.waitFor(() => expect(screen.getByTestId('continue-card')).toBeTruthy());
  });

  it('asks for no details when no show is stopped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    watchBreakingBad();
    const server = contractServer({ metadata: { details: () => movieDetails() } });
    vi.stubGlobal('fetch', server.fetch);
    renderIt(<HomeLibrary empty={null} />);
    await act(() => vi.advanceTimersByTimeAsync(AIR_CHECK_DELAY_MS * 2));
    expect(server.requests).toEqual([]);
    expect(screen.getByTestId('continue-card')).toBeTruthy();
  });
});

/** A fresh render (and a fresh query cache) of the home library. */
function cleanupAndRender() {
  cleanup();
  renderIt(<HomeLibrary empty={null} />);
}
